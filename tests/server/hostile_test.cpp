// Hostile clients against a real server, with raw Beast and Asio sockets: connection floods from
// one address, a client that never reads, half-open and silent connections, fragmented and
// oversized messages, invalid UTF-8, deeply nested JSON, binary frames and token guessing. Each
// test ends by playing a game in another room: the server is up and the rest of it unaffected.
// The counts each test prints ("hostile: ...") are summed up in README's Reliability section.
#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>

#include <chrono>
#include <cstdio>
#include <random>
#include <thread>

#include "protocol/protocol.hpp"
#include "tests/server/server_fixture.hpp"

namespace campfire::server::testing {
namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using tcp = net::ip::tcp;
using Clock = std::chrono::steady_clock;

// One raw client connection on its own io_context, bound to a chosen loopback source address
// (the whole of 127.0.0.0/8 reaches the server, so tests can play several addresses).
class Wire {
 public:
  explicit Wire(std::uint16_t port, const std::string& source = "127.0.0.1", int rcvbuf = 0)
      : ws_(ioc_) {
    tcp::socket& s = socket();
    s.open(tcp::v4());
    s.bind(tcp::endpoint(net::ip::make_address(source), 0));
    if (rcvbuf > 0) s.set_option(net::socket_base::receive_buffer_size(rcvbuf));
    s.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
  }

  tcp::socket& socket() { return beast::get_lowest_layer(ws_).socket(); }
  websocket::stream<beast::tcp_stream>& ws() { return ws_; }

  void upgrade() { ws_.handshake("127.0.0.1", "/ws"); }
  // The upgrade as a load balancer sends it for a client.
  void upgrade_for(const std::string& forwarded_for) {
    ws_.set_option(websocket::stream_base::decorator(
        [forwarded_for](websocket::request_type& req) { req.set("X-Forwarded-For", forwarded_for); }));
    ws_.handshake("127.0.0.1", "/ws");
  }

  // Reads raw bytes (no WebSocket layer, so pings go unanswered) until the server ends the
  // connection; true when it did within `limit`.
  bool closed_within(std::chrono::milliseconds limit) {
    const auto deadline = Clock::now() + limit;
    char buf[4096];
    for (;;) {
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
      if (left.count() <= 0) return false;
      bool timed_out = false;
      const auto ec =
          run_for([&](auto handler) { socket().async_read_some(net::buffer(buf), handler); }, left,
                  timed_out);
      if (timed_out) return false;
      if (ec) return true;
    }
  }

  // Raw bytes until the server ends the connection or `limit` passes.
  std::string read_all(std::chrono::milliseconds limit) {
    std::string out;
    const auto deadline = Clock::now() + limit;
    char buf[4096];
    for (;;) {
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
      if (left.count() <= 0) return out;
      bool timed_out = false;
      std::size_t got = 0;
      const auto ec = run_for(
          [&](auto handler) {
            socket().async_read_some(net::buffer(buf),
                                     [&got, handler](beast::error_code e, std::size_t n) mutable {
                                       got = n;
                                       handler(e, n);
                                     });
          },
          left, timed_out);
      out.append(buf, got);
      if (timed_out || ec) return out;
    }
  }

  // The next WebSocket message, or nullopt on timeout or close (then error() says which).
  std::optional<std::string> read(std::chrono::milliseconds limit = 5s) {
    beast::flat_buffer buffer;
    bool timed_out = false;
    error_ = run_for([&](auto handler) { ws_.async_read(buffer, handler); }, limit, timed_out);
    if (timed_out) error_ = net::error::timed_out;
    if (error_) return std::nullopt;
    return beast::buffers_to_string(buffer.data());
  }
  // Reads until a JSON message with this "type" arrives.
  json read_type(const std::string& type, std::chrono::milliseconds limit = 5s) {
    const auto deadline = Clock::now() + limit;
    while (Clock::now() < deadline) {
      auto m = read(std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()));
      if (!m) break;
      json j = json::parse(*m);
      if (j.value("type", "") == type) return j;
    }
    return json();
  }
  beast::error_code error() const { return error_; }

  beast::error_code send_text(std::string_view text) {
    beast::error_code ec;
    ws_.text(true);
    ws_.write(net::buffer(text.data(), text.size()), ec);
    return ec;
  }
  beast::error_code send_binary(std::string_view bytes) {
    beast::error_code ec;
    ws_.binary(true);
    ws_.write(net::buffer(bytes.data(), bytes.size()), ec);
    return ec;
  }
  // One text message sent as a first frame and continuation frames of `piece` bytes each.
  beast::error_code send_fragmented(std::string_view text, std::size_t piece) {
    beast::error_code ec;
    ws_.text(true);
    for (std::size_t at = 0; at < text.size() && !ec; at += piece) {
      const std::size_t n = std::min(piece, text.size() - at);
      ws_.write_some(at + n == text.size(), net::buffer(text.data() + at, n), ec);
    }
    return ec;
  }

  void hello(const std::string& name) {
    ASSERT_FALSE(send_text(json({{"type", "hello"}, {"protocol", 1}, {"name", name}}).dump()));
    ASSERT_EQ(read_type("welcome").value("name", ""), name);
  }

 private:
  template <class Start>
  beast::error_code run_for(Start start, std::chrono::milliseconds limit, bool& timed_out) {
    beast::error_code result;
    bool done = false;
    start([&](beast::error_code ec, std::size_t) {
      result = ec;
      done = true;
    });
    ioc_.restart();
    ioc_.run_for(limit);
    if (!done) {
      timed_out = true;
      // A cancel reaches only the step the read is waiting on. If the time ran out between two
      // steps (a ping answered with a pong, say), the read goes on with a fresh step and, on a
      // live connection, would wait forever: cancel again until it gives up, then close.
      for (int tries = 0; !done && tries < 20; ++tries) {
        beast::get_lowest_layer(ws_).cancel();
        ioc_.restart();
        ioc_.run_for(50ms);
      }
      if (!done) {
        beast::error_code ignored;
        beast::get_lowest_layer(ws_).socket().close(ignored);
        ioc_.restart();
        ioc_.run();
      }
    }
    return result;
  }

  net::io_context ioc_;
  websocket::stream<beast::tcp_stream> ws_;
  beast::error_code error_;
};

// GET over plain TCP from a chosen source address; the status and body.
std::pair<int, std::string> get_from(std::uint16_t port, const std::string& source,
                                     const std::string& path) {
  Wire w(port, source);
  const std::string req =
      "GET " + path + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n";
  net::write(w.socket(), net::buffer(req));
  const std::string resp = w.read_all(5s);
  if (resp.size() < 12) return {0, ""};
  const auto split = resp.find("\r\n\r\n");
  return {std::atoi(resp.c_str() + 9), split == std::string::npos ? "" : resp.substr(split + 4)};
}

int healthz_connections(std::uint16_t port, const std::string& source = "127.0.0.9") {
  auto [status, body] = get_from(port, source, "/healthz");
  if (status != 200) return -1;
  // Less the connection asking.
  return json::parse(body)["connections"].get<int>() - 1;
}

class HostileTest : public ServerTest {
 protected:
  // A new player plays a whole game against a bot in a room of its own: the server serves.
  void expect_other_room_plays() {
    Player o = player("Other");
    create(o, {{"game", "pinocchio"}, {"seats", 2}});
    ASSERT_EQ(o.request({{"type", "add_bot"}, {"room", o.room}})["type"], "ok");
    ASSERT_EQ(o.request({{"type", "start"}, {"room", o.room}})["type"], "ok");
    int actions = 0;
    for (;;) {
      const json m = o.wait_for(
          [](const json& x) {
            return x["type"] == "game_over" || (x["type"] == "state" && !x["legal"].empty());
          },
          10s);
      ASSERT_FALSE(m.is_null()) << "the other room stalled";
      if (m["type"] == "game_over") break;
      const json r = o.request({{"type", "action"}, {"room", o.room}, {"action", m["legal"][0]}});
      ASSERT_EQ(r["type"], "ok") << r.dump();
      ++actions;
    }
    EXPECT_GT(actions, 0);
  }

  // Waits until the server counts `n` connections (sessions end asynchronously).
  void expect_connections(int n) {
    const auto deadline = Clock::now() + 5s;
    int seen = -1;
    while (Clock::now() < deadline && (seen = healthz_connections(port_)) != n) {
      std::this_thread::sleep_for(20ms);
    }
    EXPECT_EQ(seen, n);
  }
};

// Behind a trusted load balancer every connection comes from the balancer's address: the limit
// applies to each client it names, so one client's flood leaves the others their connections.
// The client's own claims (earlier X-Forwarded-For entries) count for nothing, and so does the
// header from a peer that is not trusted.
TEST_F(HostileTest, BehindATrustedProxyEachClientHasItsOwnLimit) {
  Config c = test_config();
  c.max_connections_per_address = 2;
  c.trusted_proxies = {"127.0.0.1/32"};
  start_server(c);
  std::vector<std::unique_ptr<Wire>> held;
  for (const char* client : {"203.0.113.1", "203.0.113.2", "203.0.113.1", "203.0.113.2",
                             "203.0.113.1, 203.0.113.3", "198.51.100.7, 203.0.113.3"}) {
    held.push_back(std::make_unique<Wire>(port_, "127.0.0.1"));
    EXPECT_NO_THROW(held.back()->upgrade_for(client)) << client;
  }
  expect_connections(6);
  for (const char* client : {"203.0.113.1", "203.0.113.2", "203.0.113.3"}) {
    Wire over(port_, "127.0.0.1");
    EXPECT_THROW(over.upgrade_for(client), boost::system::system_error)
        << client << " has used its two connections";
  }
  Wire fourth(port_, "127.0.0.1");
  fourth.upgrade_for("203.0.113.4");
  fourth.hello("Fourth");

  // An untrusted peer is counted as itself, whatever it claims.
  Wire first(port_, "127.0.0.2");
  first.upgrade_for("203.0.113.9");
  Wire second(port_, "127.0.0.2");
  second.upgrade_for("203.0.113.10");
  Wire third(port_, "127.0.0.2");
  EXPECT_TRUE(third.closed_within(2s)) << "127.0.0.2 has used its two connections";
  held.clear();
  expect_other_room_plays();
}

TEST_F(HostileTest, ConnectionFloodFromOneAddressIsRefusedOthersServed) {
  Config c = test_config();
  c.max_connections_per_address = 16;
  start_server(c);
  // Sixteen connections from one address that never send a byte hold its whole allowance.
  std::vector<std::unique_ptr<Wire>> held;
  for (int i = 0; i < 16; ++i) held.push_back(std::make_unique<Wire>(port_, "127.0.0.1"));
  expect_connections(16);
  int refused = 0;
  constexpr int kFlood = 300;
  for (int i = 0; i < kFlood; ++i) {
    Wire extra(port_, "127.0.0.1");
    if (extra.closed_within(2s)) ++refused;
  }
  EXPECT_EQ(refused, kFlood) << "every connection over the limit is closed at once";
  // Another address is served meanwhile, WebSocket and HTTP alike.
  Wire other(port_, "127.0.0.2");
  other.upgrade();
  other.hello("Neighbour");
  EXPECT_EQ(get_from(port_, "127.0.0.3", "/api/games").first, 200);
  std::printf(
      "hostile: connection flood: %d of %d connections over the per-address limit "
      "refused\n",
      refused, kFlood);
  held.clear();
  expect_connections(1);
  expect_other_room_plays();
}

TEST_F(HostileTest, ClientThatNeverReadsIsDroppedAndItsRoomCarriesOn) {
  Config c = test_config();
  c.max_queued_frames = 64;
  start_server(c);
  Wire host(port_);
  host.upgrade();
  host.hello("Host");
  ASSERT_FALSE(host.send_text(
      json({{"type", "create_room"}, {"id", 1}, {"game", "pinocchio"}, {"seats", 3}}).dump()));
  const std::string room = host.read_type("joined").value("room", "");
  ASSERT_FALSE(room.empty());
  // The hog joins with a tiny receive buffer, reads its welcome and seat, then never reads.
  Wire hog(port_, "127.0.0.1", 4096);
  hog.upgrade();
  hog.hello("Hog");
  ASSERT_FALSE(hog.send_text(json({{"type", "join"}, {"id", 1}, {"room", room}}).dump()));
  ASSERT_EQ(hog.read_type("joined")["seat"], 1);
  expect_connections(2);

  // The room keeps talking: the longest chat lines, each broadcast to the hog too, in batches
  // the host reads back, until the server has dropped the hog (or far more than any kernel
  // buffers hold has been sent).
  std::string line;
  for (std::size_t i = 0; i < protocol::kMaxChatLength; ++i) line += "\xF0\x9F\x94\xA5";
  // Small batches: the host's own queue is bounded too, and it gets two frames per line.
  constexpr int kBatch = 16;
  constexpr int kMaxLines = 20000;
  int sent = 0;
  bool dropped = false;
  while (!dropped && sent < kMaxLines) {
    for (int i = 0; i < kBatch; ++i) {
      ASSERT_FALSE(host.send_text(
          json({{"type", "chat"}, {"id", sent + i}, {"room", room}, {"text", line}}).dump()));
    }
    for (int oks = 0; oks < kBatch;) {
      auto m = host.read();
      ASSERT_TRUE(m.has_value()) << "the host lost its connection: " << host.error().message();
      oks += json::parse(*m).value("type", "") == "ok";
    }
    sent += kBatch;
    if (sent % (10 * kBatch) == 0) dropped = healthz_connections(port_) == 1;
  }
  EXPECT_TRUE(dropped) << "the server kept buffering for a client that never reads";
  // Whatever reached the hog's socket before the drop, then the end of the connection.
  int received = 0;
  while (hog.read(3s)) ++received;
  EXPECT_NE(hog.error(), net::error::timed_out) << "the hog's connection is still open";
  EXPECT_LT(received, sent);
  std::printf(
      "hostile: never-reading client: dropped after %d broadcasts of %zu bytes, %d of "
      "them reached it (queue bound %zu frames)\n",
      sent, line.size(), received, c.max_queued_frames);

  // The room is unaffected: the host still chats, a bot joins, the game starts.
  ASSERT_FALSE(host.send_text(json({{"type", "add_bot"}, {"id", "bot"}, {"room", room}}).dump()));
  ASSERT_FALSE(host.send_text(json({{"type", "start"}, {"id", "go"}, {"room", room}}).dump()));
  EXPECT_FALSE(host.read_type("state").is_null());
  expect_other_room_plays();
}

TEST_F(HostileTest, SilentAndHalfOpenConnectionsAreTimedOut) {
  Config c = test_config();
  c.handshake_timeout_s = 0.5;
  c.idle_timeout_s = 1.0;
  start_server(c);
  int timed_out = 0;
  {
    // TCP without a single byte of HTTP.
    Wire mute(port_);
    EXPECT_TRUE(mute.closed_within(5s)) << "a connection that sends nothing is closed";
    timed_out += 1;
  }
  {
    // Half an HTTP request, then silence (slowloris).
    Wire half(port_);
    net::write(half.socket(), net::buffer(std::string("GET /ws HTTP/1.1\r\nHost: x\r\n")));
    EXPECT_TRUE(half.closed_within(5s)) << "a request never finished is closed";
    timed_out += 1;
  }
  {
    // A WebSocket upgrade, then nothing at all: not a message, not the pong to the ping.
    Wire gone(port_);
    gone.upgrade();
    const auto opened = Clock::now();
    EXPECT_TRUE(gone.closed_within(10s)) << "a silent WebSocket is closed";
    EXPECT_GE(Clock::now() - opened, 900ms) << "closed only after the idle timeout";
    timed_out += 1;
  }
  {
    // A quiet client whose WebSocket stack answers pings stays: only dead peers are dropped.
    Wire quiet(port_);
    quiet.upgrade();
    quiet.hello("Quiet");
    EXPECT_FALSE(quiet.read(3500ms).has_value());
    EXPECT_EQ(quiet.error(), net::error::timed_out) << "a live idle client was disconnected";
  }
  expect_connections(0);
  std::printf("hostile: half-open connections: %d silent connections timed out\n", timed_out);
  expect_other_room_plays();
}

TEST_F(HostileTest, FragmentedMessagesAreReassembledAndBoundedInTotal) {
  Config c = test_config();
  c.max_frame_bytes = 16 * 1024;
  start_server(c);
  // A hello in one-byte continuation frames is one message.
  Wire w(port_);
  w.upgrade();
  const std::string hello = json({{"type", "hello"}, {"protocol", 1}, {"name", "Frag"}}).dump();
  ASSERT_FALSE(w.send_fragmented(hello, 1));
  EXPECT_EQ(json::parse(w.read().value_or("{}")).value("type", ""), "welcome");
  ASSERT_FALSE(w.send_fragmented(json({{"type", "ping"}, {"id", 7}}).dump(), 3));
  EXPECT_EQ(json::parse(w.read().value_or("{}")).value("type", ""), "pong");

  // 40 KiB in 1 KiB fragments: every frame is small, the message is not.
  Wire big(port_);
  big.upgrade();
  const std::string huge = "{\"type\":\"chat\",\"text\":\"" + std::string(40 * 1024, 'a') + "\"}";
  (void)big.send_fragmented(huge, 1024);  // the server may close before the last fragment
  EXPECT_FALSE(big.read(5s).has_value());
  EXPECT_NE(big.error(), net::error::timed_out) << "an oversized fragmented message is refused";
  if (big.error() == websocket::error::closed) {
    EXPECT_EQ(big.ws().reason().code, websocket::close_code::too_big);
  }
  // The first connection is unaffected.
  ASSERT_FALSE(w.send_text(json({{"type", "ping"}, {"id", 8}}).dump()));
  EXPECT_EQ(json::parse(w.read().value_or("{}")).value("type", ""), "pong");
  std::printf(
      "hostile: fragmented frames: 2 fragmented messages reassembled, 1 oversized "
      "fragmented message of %zu bytes refused\n",
      huge.size());
  expect_other_room_plays();
}

TEST_F(HostileTest, InvalidUtf8ClosesThatConnectionOnly) {
  int closed = 0;
  int refused = 0;
  const std::string bad[] = {std::string("{\"type\":\"hello\",\"name\":\"\xc3\x28\"}"),
                             std::string("\xff\xfe\xfd"), std::string("\xc0\xaf"),
                             std::string("{\"type\":\"ping\",\"x\":\"\xed\xa0\x80\"}")};
  for (const std::string& text : bad) {
    Wire w(port_);
    w.upgrade();
    ASSERT_FALSE(w.send_text(text));
    EXPECT_FALSE(w.read(5s).has_value());
    EXPECT_EQ(w.error(), websocket::error::closed) << "closed with a close frame";
    EXPECT_EQ(w.ws().reason().code, websocket::close_code::bad_payload);
    closed += w.error() == websocket::error::closed;
  }
  // Escapes that name no character (lone surrogates) are valid UTF-8 but not valid JSON text.
  Wire w(port_);
  w.upgrade();
  for (const char* text :
       {R"({"type":"ping","x":"\ud800"})", R"({"type":"ping","x":"\udc00\ud800"})"}) {
    ASSERT_FALSE(w.send_text(text));
    const json reply = json::parse(w.read().value_or("{}"));
    EXPECT_EQ(reply.value("code", ""), "bad_json") << reply.dump();
    refused += reply.value("code", "") == "bad_json";
  }
  ASSERT_FALSE(w.send_text(R"({"type":"ping","id":1})"));
  EXPECT_EQ(json::parse(w.read().value_or("{}")).value("type", ""), "pong");
  std::printf(
      "hostile: invalid UTF-8: %d connections closed with 1007, %d bad escapes "
      "refused as bad_json\n",
      closed, refused);
  expect_other_room_plays();
}

TEST_F(HostileTest, DeeplyNestedJsonIsRefusedAndTheConnectionStays) {
  Wire w(port_);
  w.upgrade();
  w.hello("Deep");
  int refused = 0;
  // Up to 30,000 levels, all within the 64 KiB frame limit.
  const std::pair<const char*, const char*> kinds[] = {{"[", "]"}, {"{\"a\":", "}"}};
  for (const auto& [open, close] : kinds) {
    const bool object = open[0] == '{';
    for (std::size_t depth :
         {std::size_t{17}, std::size_t{100}, std::size_t{object ? 10000u : 30000u}}) {
      std::string nested = "{\"type\":\"ping\",\"x\":";
      for (std::size_t i = 0; i < depth; ++i) nested += open;
      nested += "1";
      for (std::size_t i = 0; i < depth; ++i) nested += close;
      nested += "}";
      ASSERT_FALSE(w.send_text(nested));
      const json reply = json::parse(w.read().value_or("{}"));
      EXPECT_EQ(reply.value("code", ""), "bad_json") << "depth " << depth;
      refused += reply.value("code", "") == "bad_json";
    }
  }
  // Sixteen levels are fine (the protocol's limit), and the connection still answers.
  std::string ok = "{\"type\":\"ping\",\"id\":2,\"x\":";
  for (int i = 0; i < 14; ++i) ok += "[";
  for (int i = 0; i < 14; ++i) ok += "]";
  ok += "}";
  ASSERT_FALSE(w.send_text(ok));
  EXPECT_EQ(json::parse(w.read().value_or("{}")).value("type", ""), "pong");
  std::printf("hostile: deeply nested JSON: %d messages refused as bad_json\n", refused);
  expect_other_room_plays();
}

TEST_F(HostileTest, BinaryFramesAreRefusedAndTheConnectionStays) {
  Wire w(port_);
  w.upgrade();
  w.hello("Binary");
  int refused = 0;
  const std::string payloads[] = {json({{"type", "ping"}, {"id", 1}}).dump(),
                                  std::string("\x00\x01\x02\xff", 4), std::string(8000, '\x80')};
  for (const std::string& bytes : payloads) {
    ASSERT_FALSE(w.send_binary(bytes));
    const json reply = json::parse(w.read().value_or("{}"));
    EXPECT_EQ(reply.value("code", ""), "bad_json") << reply.dump();
    refused += reply.value("code", "") == "bad_json";
  }
  ASSERT_FALSE(w.send_text(json({{"type", "ping"}, {"id", 2}}).dump()));
  EXPECT_EQ(json::parse(w.read().value_or("{}")).value("type", ""), "pong");
  std::printf("hostile: binary frames: %d refused with bad_json\n", refused);
  expect_other_room_plays();
}

TEST_F(HostileTest, TokenGuessingIsRefusedRateLimitedAndTheSeatStays) {
  Config c = test_config();
  c.bad_token_burst = 5;
  c.bad_tokens_per_minute = 60;  // one more guess a second once the burst is spent
  start_server(c);
  Player owner = player("Owner");
  create(owner, {{"game", "pinocchio"}, {"seats", 2}});
  Player second = player("Second");
  join(second, owner.room);

  std::mt19937_64 rng(99);
  auto guess = [&] {
    char buf[33];
    std::snprintf(buf, sizeof buf, "%016llx%016llx", static_cast<unsigned long long>(rng()),
                  static_cast<unsigned long long>(rng()));
    return std::string(buf);
  };
  int wrong = 0;
  int limited = 0;
  int resumed = 0;
  constexpr int kGuesses = 200;
  // Three connections from one address share one budget.
  std::vector<Player> guessers;
  for (int i = 0; i < 3; ++i) guessers.push_back(player("Guesser" + std::to_string(i)));
  for (int i = 0; i < kGuesses; ++i) {
    Player& g = guessers[static_cast<std::size_t>(i) % guessers.size()];
    const json r = g.request({{"type", "rejoin"}, {"room", owner.room}, {"token", guess()}});
    if (r["type"] == "joined") ++resumed;
    if (r.value("code", "") == "bad_token") ++wrong;
    if (r.value("code", "") == "rate_limited") ++limited;
  }
  EXPECT_EQ(resumed, 0);
  EXPECT_EQ(wrong + limited, kGuesses);
  EXPECT_GE(wrong, 5);
  EXPECT_LE(wrong, 10) << "the burst, and the few guesses the refill allows while they run";
  EXPECT_GT(limited, 0);
  // The seats are untouched: both players are still there and the game starts.
  ASSERT_EQ(owner.request({{"type", "start"}, {"room", owner.room}})["type"], "ok");
  EXPECT_FALSE(second.wait_type("state").is_null());

  // The rightful token still works once the budget refills (a resume costs nothing).
  const auto deadline = Clock::now() + 10s;
  json r;
  Player back = player("Owner");
  while (Clock::now() < deadline) {
    r = back.request({{"type", "rejoin"}, {"room", owner.room}, {"token", owner.token}});
    if (r.value("code", "") != "rate_limited") break;
    std::this_thread::sleep_for(250ms);
  }
  EXPECT_EQ(r.value("type", ""), "joined") << r.dump();
  EXPECT_EQ(r.value("seat", -1), owner.seat);
  std::printf(
      "hostile: token guessing: %d wrong tokens refused, %d guesses rate limited, "
      "0 of %d resumed a seat\n",
      wrong, limited, kGuesses);
  expect_other_room_plays();
}

}  // namespace
}  // namespace campfire::server::testing
