// Fuzzes the server's WebSocket frame reader with the bytes a client might send, delivered in
// pieces as a socket might, with or without permessage-deflate agreed and under several size
// limits. Nothing may crash, every call must make progress, and whatever the reader hands on
// must be what RFC 6455 allows: text that is UTF-8, messages within the limit, control frames
// within 125 bytes, close codes a peer may send.
#include <cstddef>
#include <cstdint>
#include <string>

#include "server/websocket_frames.hpp"
#include "tests/fuzz/fuzz_check.hpp"

namespace {

namespace ws = campfire::server::ws;

bool sendable_close_code(std::uint16_t code) {
  return (code >= 1000 && code <= 1003) || (code >= 1007 && code <= 1014) ||
         (code >= 3000 && code <= 4999);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  // The first byte: whether compression was agreed, and the size of the pieces the bytes come
  // in; the second: the size limit.
  const bool deflate = (data[0] & 1) != 0;
  static constexpr std::size_t kPieces[] = {1, 2, 3, 7, 16, 64, 4096, 1 << 20};
  const std::size_t piece = kPieces[(data[0] >> 1) & 7];
  static constexpr std::size_t kLimits[] = {16, 125, 1000, 65536};
  const std::size_t limit = kLimits[data[1] & 3];
  data += 2;
  size -= 2;

  ws::FrameReader reader(limit);
  if (deflate) reader.allow_deflate();
  std::string buffer;
  std::size_t fed = 0;
  while (true) {
    const ws::FrameReader::Item item = reader.next(buffer.data(), buffer.size());
    CAMPFIRE_FUZZ_CHECK(item.consumed <= buffer.size(), "consumed %zu of %zu", item.consumed,
                        buffer.size());
    if (item.kind == ws::FrameReader::Item::kNeedMore && item.consumed > 0) {
      // A fragment taken in: nothing more is asked for.
      CAMPFIRE_FUZZ_CHECK(item.needed == 0, "a fragment taken in asked for %zu", item.needed);
      buffer.erase(0, item.consumed);
      continue;
    }
    if (item.kind == ws::FrameReader::Item::kNeedMore) {
      CAMPFIRE_FUZZ_CHECK(item.needed > buffer.size(), "asked for %zu bytes holding %zu",
                          item.needed, buffer.size());
      if (fed == size) break;
      const std::size_t n = std::min(piece, size - fed);
      buffer.append(reinterpret_cast<const char*>(data) + fed, n);
      fed += n;
      continue;
    }
    // Anything else used some bytes, or the loop would never end.
    CAMPFIRE_FUZZ_CHECK(item.consumed > 0 || item.kind == ws::FrameReader::Item::kFail,
                        "an item of kind %d consumed nothing", static_cast<int>(item.kind));
    switch (item.kind) {
      case ws::FrameReader::Item::kText:
        CAMPFIRE_FUZZ_CHECK(item.payload.size() <= limit, "a text of %zu over %zu",
                            item.payload.size(), limit);
        CAMPFIRE_FUZZ_CHECK(ws::valid_utf8(item.payload), "a text that is not UTF-8");
        break;
      case ws::FrameReader::Item::kBinary:
        CAMPFIRE_FUZZ_CHECK(item.payload.size() <= limit, "a binary message of %zu over %zu",
                            item.payload.size(), limit);
        break;
      case ws::FrameReader::Item::kPing:
      case ws::FrameReader::Item::kPong:
        CAMPFIRE_FUZZ_CHECK(item.payload.size() <= 125, "a control frame of %zu bytes",
                            item.payload.size());
        break;
      case ws::FrameReader::Item::kClose:
        CAMPFIRE_FUZZ_CHECK(item.code == 0 || sendable_close_code(item.code),
                            "close code %u passed on", item.code);
        CAMPFIRE_FUZZ_CHECK(item.code != 0 || item.payload.empty(), "a reason with no code");
        CAMPFIRE_FUZZ_CHECK(item.payload.size() <= 123, "a close reason of %zu bytes",
                            item.payload.size());
        CAMPFIRE_FUZZ_CHECK(ws::valid_utf8(item.payload), "a close reason that is not UTF-8");
        break;
      case ws::FrameReader::Item::kFail:
        CAMPFIRE_FUZZ_CHECK(item.code == 1002 || item.code == 1007 || item.code == 1009,
                            "failed with code %u", item.code);
        reader.trim();
        return 0;
      case ws::FrameReader::Item::kNeedMore:
        break;
    }
    buffer.erase(0, item.consumed);
  }
  reader.trim();
  return 0;
}
