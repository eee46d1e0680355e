// Fuzzes the server's permessage-deflate compressor: any messages, over any window, table size
// and either context mode, must come back exactly through zlib's inflate, as every client
// decompresses them, and never cost more than stored blocks would.
#include <zlib.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "server/websocket_deflate.hpp"
#include "tests/fuzz/fuzz_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  // The first byte: the window (9-15 bits) and whether every message starts afresh; the
  // second: the table's size (8-16 bits). The rest: messages, each led by a byte giving its
  // length in units of 16 bytes (and the rest of the input for the last).
  campfire::server::ws::DeflateSettings settings;
  settings.window_bits = 9 + (data[0] & 7) % 7;
  settings.fresh_each_message = (data[0] & 8) != 0;
  settings.hash_bits = 8 + data[1] % 9;
  data += 2;
  size -= 2;

  campfire::server::ws::Deflater deflater(settings);
  z_stream z{};
  CAMPFIRE_FUZZ_CHECK(inflateInit2(&z, -settings.window_bits) == Z_OK, "inflateInit2");
  std::string packed;
  std::string back;
  while (size > 0) {
    const std::size_t want = static_cast<std::size_t>(data[0]) * 16 + data[0] % 16;
    const std::size_t n = std::min(want, size - 1);
    const std::string message(reinterpret_cast<const char*>(data) + 1, n);
    data += 1 + n;
    size -= 1 + n;

    deflater.compress(message, packed);
    const std::size_t stored = message.size() + 5 * std::max<std::size_t>(1, (n + 65534) / 65535) + 1;
    CAMPFIRE_FUZZ_CHECK(packed.size() <= stored, "%zu bytes for a message of %zu", packed.size(),
                        message.size());
    if (settings.fresh_each_message) inflateReset(&z);
    packed.append("\x00\x00\xff\xff", 4);
    back.assign(message.size() + 64, '\0');
    z.next_in = reinterpret_cast<Bytef*>(packed.data());
    z.avail_in = static_cast<uInt>(packed.size());
    z.next_out = reinterpret_cast<Bytef*>(back.data());
    z.avail_out = static_cast<uInt>(back.size());
    const int rc = inflate(&z, Z_SYNC_FLUSH);
    CAMPFIRE_FUZZ_CHECK(rc == Z_OK, "inflate said %d (%s)", rc, z.msg ? z.msg : "");
    CAMPFIRE_FUZZ_CHECK(z.avail_in == 0, "%u bytes left over", z.avail_in);
    back.resize(back.size() - z.avail_out);
    CAMPFIRE_FUZZ_CHECK(back == message, "a message of %zu came back as %zu bytes",
                        message.size(), back.size());
  }
  inflateEnd(&z);
  return 0;
}
