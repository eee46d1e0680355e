// The WebSocket wire without sockets: the handshake's checks and answer, permessage-deflate's
// negotiation, and the frame reader and writer. Server.WebSocketConformance checks the same
// against a running server, byte by byte.
#include "server/websocket_frames.hpp"

#include <gtest/gtest.h>
#include <zlib.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace campfire::server::ws {
namespace {

using Item = FrameReader::Item;

// A client frame: masked with a fixed key, the length in its shortest form unless `length`
// (7, 16 or 64) says otherwise.
std::string client_frame(std::uint8_t opcode, std::string_view payload, bool fin = true,
                         std::uint8_t rsv = 0, bool masked = true, int length = 0) {
  std::string f;
  f += static_cast<char>((fin ? 0x80 : 0) | (rsv << 4) | opcode);
  const std::size_t n = payload.size();
  if (length == 0) length = n < 126 ? 7 : n <= 0xffff ? 16 : 64;
  const char mask_bit = masked ? static_cast<char>(0x80) : 0;
  if (length == 7) {
    f += static_cast<char>(mask_bit | static_cast<char>(n));
  } else if (length == 16) {
    f += static_cast<char>(mask_bit | 126);
    f += static_cast<char>(n >> 8);
    f += static_cast<char>(n & 0xff);
  } else {
    f += static_cast<char>(mask_bit | 127);
    for (int i = 7; i >= 0; --i)
      f += static_cast<char>((static_cast<std::uint64_t>(n) >> (8 * i)) & 0xff);
  }
  const unsigned char key[4] = {0x37, 0xfa, 0x21, 0x3d};
  if (masked) f.append(reinterpret_cast<const char*>(key), 4);
  for (std::size_t i = 0; i < n; ++i) {
    f += masked ? static_cast<char>(payload[i] ^ key[i & 3]) : payload[i];
  }
  return f;
}

// A client's compressed message: deflated afresh, the flush's last four bytes left off.
std::string deflated(std::string_view text) {
  z_stream z{};
  EXPECT_EQ(deflateInit2(&z, 6, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY), Z_OK);
  std::string out(text.size() + 64, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  z.avail_in = static_cast<uInt>(text.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&z, Z_SYNC_FLUSH), Z_OK);
  out.resize(out.size() - z.avail_out);
  deflateEnd(&z);
  EXPECT_GE(out.size(), 4u);
  out.resize(out.size() - 4);
  return out;
}

// Reads every item in `bytes`, fed in pieces of `piece` bytes as a socket might deliver them.
std::vector<Item> read_all(FrameReader& reader, std::string bytes, std::vector<std::string>& texts,
                           std::size_t piece = 1 << 20) {
  std::vector<Item> items;
  std::string buffer;
  std::size_t fed = 0;
  while (true) {
    const std::size_t take = std::min(piece, bytes.size() - fed);
    buffer.append(bytes, fed, take);
    fed += take;
    while (true) {
      Item item = reader.next(buffer.data(), buffer.size());
      if (item.kind == Item::kNeedMore && item.consumed == 0) {
        EXPECT_GT(item.needed, buffer.size());
        break;
      }
      if (item.kind != Item::kNeedMore) {
        texts.emplace_back(item.payload);
        items.push_back(item);
      }
      buffer.erase(0, item.consumed);
      if (item.kind == Item::kFail) return items;
    }
    if (fed == bytes.size()) return items;
  }
}

TEST(WebSocketHandshake, AcceptKeyOfTheRfcExample) {
  EXPECT_EQ(accept_key("dGhlIHNhbXBsZSBub25jZQ=="), "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
}

TEST(WebSocketHandshake, KeysMustBeSixteenBytesOfBase64) {
  EXPECT_TRUE(valid_key("dGhlIHNhbXBsZSBub25jZQ=="));
  EXPECT_TRUE(valid_key("AAAAAAAAAAAAAAAAAAAAAA=="));
  EXPECT_FALSE(valid_key(""));
  EXPECT_FALSE(valid_key("MTIzNDU2Nzg="));              // 8 bytes
  EXPECT_FALSE(valid_key("not base64 at all!!!!!!!"));  // 24 characters, not base64
  EXPECT_FALSE(valid_key("dGhlIHNhbXBsZSBub25jZR=="));  // bits past the sixteenth byte
  EXPECT_FALSE(valid_key("dGhlIHNhbXBsZSBub25jZQ="));
}

TEST(WebSocketDeflate, ABrowsersOfferIsTakenWithTheClientStartingEachMessageAfresh) {
  const DeflateSettings ours;
  auto answer = accept_deflate("permessage-deflate; client_max_window_bits", ours);
  ASSERT_TRUE(answer);
  EXPECT_EQ(answer->header, "permessage-deflate; client_no_context_takeover");
  EXPECT_EQ(answer->settings.window_bits, ours.window_bits);
  EXPECT_FALSE(answer->settings.fresh_each_message);
  EXPECT_TRUE(accept_deflate("permessage-deflate", ours));
  EXPECT_TRUE(accept_deflate(
      "x-webkit-deflate-frame, PerMessage-Deflate ; client_max_window_bits=12", ours));
}

TEST(WebSocketDeflate, WhatTheClientAsksOfTheServerIsHonouredOrTheOfferDeclined) {
  const DeflateSettings ours;
  auto fresh = accept_deflate("permessage-deflate; server_no_context_takeover", ours);
  ASSERT_TRUE(fresh);
  EXPECT_TRUE(fresh->settings.fresh_each_message);
  EXPECT_EQ(fresh->header,
            "permessage-deflate; client_no_context_takeover; server_no_context_takeover");

  auto small = accept_deflate("permessage-deflate; server_max_window_bits=\"10\"", ours);
  ASSERT_TRUE(small);
  EXPECT_EQ(small->settings.window_bits, 10);
  EXPECT_EQ(small->header,
            "permessage-deflate; client_no_context_takeover; server_max_window_bits=10");
  auto large = accept_deflate("permessage-deflate; server_max_window_bits=15", ours);
  ASSERT_TRUE(large);
  EXPECT_EQ(large->settings.window_bits, ours.window_bits);

  // The server keeps no 256-byte window: that offer is passed over for the next.
  EXPECT_FALSE(accept_deflate("permessage-deflate; server_max_window_bits=8", ours));
  auto next = accept_deflate(
      "permessage-deflate; server_max_window_bits=8, permessage-deflate; client_max_window_bits",
      ours);
  ASSERT_TRUE(next);
  EXPECT_EQ(next->header, "permessage-deflate; client_no_context_takeover");

  for (const char* bad :
       {"permessage-deflate; colour=blue", "permessage-deflate; server_max_window_bits",
        "permessage-deflate; server_max_window_bits=16",
        "permessage-deflate; client_max_window_bits=7",
        "permessage-deflate; server_no_context_takeover; server_no_context_takeover",
        "permessage-deflate; client_no_context_takeover=yes", "permessage-deflate;",
        "permessage-deflate; server_max_window_bits=010", "deflate-frame", ""}) {
    EXPECT_FALSE(accept_deflate(bad, ours)) << bad;
  }
}

TEST(WebSocketText, Utf8IsCheckedWhole) {
  EXPECT_TRUE(valid_utf8(""));
  EXPECT_TRUE(valid_utf8("plain ascii, longer than eight bytes"));
  EXPECT_TRUE(valid_utf8("\xc3\xa9t\xc3\xa9 \xe2\x82\xac \xf0\x9f\x83\x8f"));
  EXPECT_TRUE(valid_utf8("\xf4\x8f\xbf\xbf"));  // U+10FFFF
  EXPECT_FALSE(valid_utf8("\x80"));
  EXPECT_FALSE(valid_utf8("\xc0\x80"));          // overlong
  EXPECT_FALSE(valid_utf8("\xe0\x80\x80"));      // overlong
  EXPECT_FALSE(valid_utf8("\xf0\x80\x80\x80"));  // overlong
  EXPECT_FALSE(valid_utf8("\xed\xa0\x80"));      // a surrogate
  EXPECT_FALSE(valid_utf8("\xf4\x90\x80\x80"));  // past U+10FFFF
  EXPECT_FALSE(valid_utf8("\xf5\x80\x80\x80"));
  EXPECT_FALSE(valid_utf8("abcdefgh\xe2\x82"));  // cut short
  EXPECT_FALSE(valid_utf8("\xe2\x28\xa1"));
}

TEST(WebSocketReader, MessagesAndControlFramesComeWholeHoweverTheBytesArrive) {
  std::string wire = client_frame(1, "{\"type\":\"ping\"}");
  wire += client_frame(1, std::string(300, 'a'));
  wire += client_frame(1, std::string(70000, 'b'));
  wire += client_frame(1, "frag", false);
  wire += client_frame(9, "are you there");  // a ping between fragments
  wire += client_frame(0, "ment", false);
  wire += client_frame(0, "ed", true);
  wire += client_frame(10, "");
  wire += client_frame(2, std::string("\x00\x01", 2));
  wire += client_frame(8, std::string("\x03\xe8", 2) + "bye");
  for (std::size_t piece :
       {std::size_t{1}, std::size_t{3}, std::size_t{100}, std::size_t{1} << 20}) {
    FrameReader reader(128 * 1024);
    std::vector<std::string> texts;
    const auto items = read_all(reader, wire, texts, piece);
    ASSERT_EQ(items.size(), 8u) << piece;
    EXPECT_EQ(items[0].kind, Item::kText);
    EXPECT_EQ(texts[0], "{\"type\":\"ping\"}");
    EXPECT_EQ(texts[1], std::string(300, 'a'));
    EXPECT_EQ(texts[2], std::string(70000, 'b'));
    EXPECT_EQ(items[3].kind, Item::kPing);
    EXPECT_EQ(texts[3], "are you there");
    EXPECT_EQ(items[4].kind, Item::kText);
    EXPECT_EQ(texts[4], "fragmented");
    EXPECT_EQ(items[5].kind, Item::kPong);
    EXPECT_EQ(items[6].kind, Item::kBinary);
    EXPECT_EQ(items[7].kind, Item::kClose);
    EXPECT_EQ(items[7].code, 1000);
    EXPECT_EQ(texts[7], "bye");
    EXPECT_EQ(reader.held(), reader.held());  // the reader stays usable
  }
}

std::uint16_t failure(std::string wire, std::size_t limit = 1024, bool deflate = false) {
  FrameReader reader(limit);
  if (deflate) reader.allow_deflate();
  std::vector<std::string> texts;
  const auto items = read_all(reader, std::move(wire), texts);
  if (items.empty() || items.back().kind != Item::kFail) return 0;
  return items.back().code;
}

TEST(WebSocketReader, EveryBreachOfTheProtocolFailsWithItsCode) {
  EXPECT_EQ(failure(client_frame(1, "x", true, 0, false)), kProtocolError);  // unmasked
  for (std::uint8_t rsv : {1, 2, 4})
    EXPECT_EQ(failure(client_frame(1, "x", true, rsv)), kProtocolError);
  for (std::uint8_t op : {3, 4, 5, 6, 7, 11, 12, 13, 14, 15}) {
    EXPECT_EQ(failure(client_frame(op, "x")), kProtocolError) << int(op);
  }
  EXPECT_EQ(failure(client_frame(0, "x")), kProtocolError);  // continuation first
  EXPECT_EQ(failure(client_frame(1, "a", false) + client_frame(1, "b")), kProtocolError);
  EXPECT_EQ(failure(client_frame(9, std::string(126, 'p'))), kProtocolError);
  EXPECT_EQ(failure(client_frame(9, "p", false)), kProtocolError);
  EXPECT_EQ(failure(client_frame(1, "abc", true, 0, true, 16)), kProtocolError);  // not shortest
  EXPECT_EQ(failure(client_frame(1, "abc", true, 0, true, 64)), kProtocolError);
  EXPECT_EQ(failure(client_frame(8, "x")), kProtocolError);  // a one-byte close
  for (std::uint16_t code : {0, 999, 1004, 1005, 1006, 1015, 2999, 5000, 65535}) {
    const std::string payload{static_cast<char>(code >> 8), static_cast<char>(code & 0xff)};
    EXPECT_EQ(failure(client_frame(8, payload)), kProtocolError) << code;
  }
  EXPECT_EQ(failure(client_frame(8, std::string("\x03\xe8\xff", 3))), kBadPayload);
  EXPECT_EQ(failure(client_frame(1, "\xc3\x28")), kBadPayload);
  EXPECT_EQ(failure(client_frame(1, "\xe2\x82", false) + client_frame(0, "", true)), kBadPayload);
  // Over the limit: refused from the header, before the payload is there.
  EXPECT_EQ(failure(client_frame(1, std::string(2000, 'x')).substr(0, 20)), kTooBig);
  EXPECT_EQ(failure(client_frame(1, std::string(600, 'x'), false) +
                    client_frame(0, std::string(600, 'x'))),
            kTooBig);
  // A 64-bit length with its top bit set.
  std::string huge = client_frame(1, "", true, 0, true, 64);
  huge[2] = static_cast<char>(0x80);
  EXPECT_NE(failure(huge), 0);
}

TEST(WebSocketReader, CompressedMessagesInflateWithinTheLimit) {
  const std::string text = "{\"type\":\"ping\",\"id\":1,\"pad\":\"" + std::string(500, ' ') + "\"}";
  const std::string packed = deflated(text);
  // Without the extension agreed, RSV1 is a breach.
  EXPECT_EQ(failure(client_frame(1, packed, true, 4)), kProtocolError);
  {
    FrameReader reader(1024);
    reader.allow_deflate();
    std::vector<std::string> texts;
    // Whole, then in three fragments (RSV1 on the first only), then a plain one.
    std::string wire = client_frame(1, packed, true, 4);
    wire += client_frame(1, packed.substr(0, 5), false, 4);
    wire += client_frame(0, packed.substr(5, 5), false);
    wire += client_frame(0, packed.substr(10), true);
    wire += client_frame(1, "plain");
    const auto items = read_all(reader, wire, texts, 7);
    ASSERT_EQ(items.size(), 3u);
    EXPECT_EQ(texts[0], text);
    EXPECT_EQ(texts[1], text);
    EXPECT_EQ(texts[2], "plain");
  }
  EXPECT_EQ(failure(client_frame(1, packed.substr(0, 5), false, 4) +
                        client_frame(0, packed.substr(5), true, 4),
                    1024, true),
            kProtocolError);
  EXPECT_EQ(failure(client_frame(9, "x", true, 4), 1024, true), kProtocolError);
  EXPECT_EQ(failure(client_frame(1, "\xff\xff\xff\xff\xff", true, 4), 1024, true), kProtocolError);
  EXPECT_EQ(failure(client_frame(1, deflated(std::string(5000, ' ')), true, 4), 1024, true),
            kTooBig);
  EXPECT_EQ(failure(client_frame(1, deflated("\xc3\x28"), true, 4), 1024, true), kBadPayload);
}

TEST(WebSocketWriter, HeadersUseTheShortestLength) {
  std::uint8_t h[kMaxHeader];
  EXPECT_EQ(write_header(h, Opcode::kText, 125, false), 2u);
  EXPECT_EQ(h[0], 0x81);
  EXPECT_EQ(h[1], 125);
  EXPECT_EQ(write_header(h, Opcode::kText, 126, true), 4u);
  EXPECT_EQ(h[0], 0xc1);
  EXPECT_EQ(h[1], 126);
  EXPECT_EQ(h[2], 0);
  EXPECT_EQ(h[3], 126);
  EXPECT_EQ(write_header(h, Opcode::kText, 65535, false), 4u);
  EXPECT_EQ(write_header(h, Opcode::kText, 65536, false), 10u);
  EXPECT_EQ(h[1], 127);
  EXPECT_EQ(h[7], 1);
  EXPECT_EQ(close_frame(1000, "bye"), std::string("\x88\x05\x03\xe8"
                                                  "bye",
                                                  7));
  EXPECT_EQ(control_frame(Opcode::kPong, "hi"), std::string("\x8a\x02hi", 4));
}

TEST(WebSocketWriter, CompressedMessagesShareOneWindowAndInflateInOrder) {
  Deflater deflater{DeflateSettings{}};
  z_stream z{};
  ASSERT_EQ(inflateInit2(&z, -15), Z_OK);
  std::vector<std::size_t> sizes;
  std::mt19937 rng(7);
  for (int i = 0; i < 50; ++i) {
    const std::string text =
        "{\"type\":\"update\",\"room\":\"ABCDEF\",\"version\":" + std::to_string(i) +
        ",\"patch\":{\"moves\":" + std::to_string(rng() % 1000) + "}}";
    std::string packed;
    deflater.compress(text, packed);
    sizes.push_back(packed.size());
    packed.append("\x00\x00\xff\xff", 4);
    std::string out(4096, '\0');
    z.next_in = reinterpret_cast<Bytef*>(packed.data());
    z.avail_in = static_cast<uInt>(packed.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    ASSERT_EQ(inflate(&z, Z_SYNC_FLUSH), Z_OK);
    out.resize(out.size() - z.avail_out);
    EXPECT_EQ(out, text);
  }
  inflateEnd(&z);
  // The first message stands alone; the rest are mostly references to it.
  EXPECT_LT(sizes.back() * 2, sizes.front());
}

}  // namespace
}  // namespace campfire::server::ws
