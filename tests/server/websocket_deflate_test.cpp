// The server's compressor checked against zlib's inflate, as every client that speaks
// permessage-deflate decompresses: each message must come back exactly, in order, with the
// window the client keeps between messages (or none, when it asked for that).
#include "server/websocket_deflate.hpp"

#include <gtest/gtest.h>
#include <zlib.h>

#include <random>
#include <string>
#include <vector>

namespace campfire::server::ws {
namespace {

// A client's decompressor: raw DEFLATE with a window of 2^bits, kept from message to message.
class Client {
 public:
  explicit Client(int bits) { EXPECT_EQ(inflateInit2(&z_, -bits), Z_OK); }
  ~Client() { inflateEnd(&z_); }
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;

  // What a compressed message says; fails the test if it is not valid DEFLATE.
  std::string inflate(std::string payload) {
    payload.append("\x00\x00\xff\xff", 4);
    std::string out;
    z_.next_in = reinterpret_cast<Bytef*>(payload.data());
    z_.avail_in = static_cast<uInt>(payload.size());
    while (true) {
      char chunk[4096];
      z_.next_out = reinterpret_cast<Bytef*>(chunk);
      z_.avail_out = sizeof chunk;
      const int rc = ::inflate(&z_, Z_SYNC_FLUSH);
      out.append(chunk, sizeof chunk - z_.avail_out);
      if (rc == Z_BUF_ERROR || (rc == Z_OK && z_.avail_in == 0 && z_.avail_out > 0)) break;
      EXPECT_EQ(rc, Z_OK) << (z_.msg ? z_.msg : "");
      if (rc != Z_OK) break;
    }
    EXPECT_EQ(z_.avail_in, 0u) << "bytes left after the message";
    return out;
  }
  void reset() { inflateReset(&z_); }

 private:
  z_stream z_{};
};

// Update frames as a game sends them: the same keys, a few values changing, now and then
// something new.
std::vector<std::string> game_like_frames(int count, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<std::string> frames;
  for (int i = 0; i < count; ++i) {
    std::string f = R"({"events":[{"seat":)" + std::to_string(rng() % 4) +
                    R"(,"text":"Ann claims )" + std::to_string(rng() % 4 + 1) +
                    R"( kings","type":"claim"}],"patch":{"moves":)" + std::to_string(i) +
                    R"(,"to_act":[)" + std::to_string(rng() % 4) + R"(],"view":{"hand":[)";
    const int cards = static_cast<int>(rng() % 13);
    for (int c = 0; c < cards; ++c) {
      if (c) f += ',';
      f += R"({"rank":")" + std::to_string(rng() % 13 + 1) + R"(","suit":")" +
           "cdhs"[rng() % 4] + "\"}";
    }
    f += R"(],"pile":)" + std::to_string(rng() % 52) + R"(}},"room":"K7QX2M","type":"update","version":)" +
         std::to_string(1000 + i) + "}";
    frames.push_back(std::move(f));
  }
  return frames;
}

TEST(WebSocketDeflateTest, GameFramesComeBackExactlyAndShrink) {
  Deflater deflater{DeflateSettings{}};
  Client client(15);
  std::size_t in = 0;
  std::size_t out = 0;
  for (const std::string& f : game_like_frames(500, 1)) {
    std::string packed;
    deflater.compress(f, packed);
    in += f.size();
    out += packed.size();
    ASSERT_EQ(client.inflate(packed), f);
  }
  // Alike frames cost a fraction of their text once the window holds a few of them.
  EXPECT_LT(out * 3, in) << out << " bytes for " << in;
}

TEST(WebSocketDeflateTest, EveryWindowAClientMayAskForIsRespected) {
  // A client with a window of 2^bits refuses any match reaching further back.
  for (int bits = 9; bits <= 15; ++bits) {
    DeflateSettings settings;
    settings.window_bits = bits;
    Deflater deflater(settings);
    Client client(bits);
    std::mt19937 rng(static_cast<unsigned>(bits));
    // Blocks repeated at distances around the window's size, within a message and across
    // messages.
    std::string block(700, '\0');
    for (char& c : block) c = static_cast<char>('a' + rng() % 26);
    const std::size_t window = std::size_t{1} << bits;
    for (int i = 0; i < 40; ++i) {
      std::string text = block.substr(rng() % 300, 200 + rng() % 400);
      std::string gap(window - 300 + rng() % 600, '\0');
      for (char& c : gap) c = static_cast<char>('A' + rng() % 26);
      text += gap + block.substr(rng() % 300, 200 + rng() % 400) + std::to_string(i);
      std::string packed;
      deflater.compress(text, packed);
      ASSERT_EQ(client.inflate(packed), text) << "window bits " << bits << ", message " << i;
    }
  }
}

TEST(WebSocketDeflateTest, StartingAfreshNeedsNoHistory) {
  DeflateSettings settings;
  settings.fresh_each_message = true;
  Deflater deflater(settings);
  Client client(15);
  for (const std::string& f : game_like_frames(50, 2)) {
    std::string packed;
    deflater.compress(f, packed);
    client.reset();  // the client may forget every message: none refers to one before
    ASSERT_EQ(client.inflate(packed), f);
  }
}

TEST(WebSocketDeflateTest, LongRunsShortTextsAndEveryByteValue) {
  Deflater deflater{DeflateSettings{}};
  Client client(15);
  std::vector<std::string> texts = {"", "a", "ab", "abc", "abcd", "abcdabcdabcd",
                                    std::string(100000, 'x'), std::string(259, 'y'),
                                    std::string(258 + 4, 'z')};
  std::string all_bytes;
  for (int i = 0; i < 256; ++i) all_bytes += static_cast<char>(i);
  texts.push_back(all_bytes);
  texts.push_back(all_bytes + all_bytes);
  std::string utf8;
  for (int i = 0; i < 200; ++i) utf8 += "\xc3\xa9t\xc3\xa9 \xe2\x99\xa0\xe2\x99\xa5 ";
  texts.push_back(utf8);
  for (const std::string& t : texts) {
    std::string packed;
    deflater.compress(t, packed);
    ASSERT_EQ(client.inflate(packed), t) << "a text of " << t.size() << " bytes";
  }
}

TEST(WebSocketDeflateTest, ALongMessageLeavesOnlyTheWindowBehind) {
  Deflater deflater{DeflateSettings{}};
  Client client(15);
  std::string packed;
  const std::string big(1 << 20, 'b');
  deflater.compress(big, packed);
  ASSERT_EQ(client.inflate(packed), big);
  EXPECT_LE(deflater.held(), std::size_t{8} << 12);
  // The window it kept still serves the next message.
  const std::string next = std::string(300, 'b') + "!";
  deflater.compress(next, packed);
  EXPECT_LT(packed.size(), 20u);
  EXPECT_EQ(client.inflate(packed), next);
}

TEST(WebSocketDeflateTest, BytesThatDoNotRepeatGoStoredAndCostLittleMore) {
  Deflater deflater{DeflateSettings{}};
  Client client(15);
  std::mt19937 rng(3);
  for (std::size_t size : {std::size_t{1}, std::size_t{300}, std::size_t{65535},
                           std::size_t{65536}, std::size_t{200000}}) {
    std::string noise(size, '\0');
    for (char& c : noise) c = static_cast<char>(rng());
    std::string packed;
    deflater.compress(noise, packed);
    ASSERT_EQ(client.inflate(packed), noise);
    // Five bytes for each block of up to 65,535 and one for the flush.
    EXPECT_LE(packed.size(), size + 5 * ((size + 65534) / 65535) + 1);
  }
  // The stored messages are in the window like any other: later ones may refer to them.
  std::string again = "after the noise, " + std::string(1000, 'q');
  std::string packed;
  deflater.compress(again, packed);
  EXPECT_EQ(client.inflate(packed), again);
}

TEST(WebSocketDeflateTest, RandomMessagesOverAnyWindowAndTableSize) {
  std::mt19937 rng(11);
  for (int round = 0; round < 30; ++round) {
    DeflateSettings settings;
    settings.window_bits = 9 + static_cast<int>(rng() % 7);
    settings.hash_bits = 8 + static_cast<int>(rng() % 9);
    settings.fresh_each_message = rng() % 4 == 0;
    Deflater deflater(settings);
    Client client(settings.window_bits);
    // A small alphabet repeats often, at every distance.
    const std::string alphabet = round % 2 ? "ab" : "{}\":,abcdefgh0123456789";
    for (int m = 0; m < 60; ++m) {
      std::string text(rng() % 3000, '\0');
      for (char& c : text) c = alphabet[rng() % alphabet.size()];
      std::string packed;
      deflater.compress(text, packed);
      if (settings.fresh_each_message) client.reset();
      ASSERT_EQ(client.inflate(packed), text)
          << "round " << round << ", message " << m << ", window " << settings.window_bits;
    }
  }
}

}  // namespace
}  // namespace campfire::server::ws
