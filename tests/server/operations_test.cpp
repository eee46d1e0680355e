// What operators rely on: /metrics, the admin API, the Origin check and TLS, against a real
// server on loopback.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/write.hpp>

#include <map>
#include <set>
#include <sstream>
#include <thread>

#include "engine/core/rng.hpp"
#include "server/metrics.hpp"
#include "tests/server/server_fixture.hpp"
#include "tests/support/self_signed.hpp"

namespace campfire::server::testing {
namespace {

struct HttpReply {
  int status = 0;
  std::string headers;
  std::string body;
};

HttpReply parse_reply(const std::string& resp) {
  HttpReply r;
  if (resp.size() < 12) return r;
  r.status = std::atoi(resp.c_str() + 9);
  const auto split = resp.find("\r\n\r\n");
  r.headers = resp.substr(0, split);
  if (split != std::string::npos) r.body = resp.substr(split + 4);
  return r;
}

// One HTTP/1.1 request over a raw socket (Connection: close), exactly as written.
HttpReply http(std::uint16_t port, const std::string& method, const std::string& path,
               const std::vector<std::string>& headers = {}, const std::string& body = "") {
  const int fd = connect_loopback(port);
  if (fd < 0) return {};
  std::string req = method + " " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(port) +
                    "\r\nConnection: close\r\n";
  for (const auto& h : headers) req += h + "\r\n";
  if (!body.empty() || method == "POST") {
    req +=
        "Content-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) + "\r\n";
  }
  req += "\r\n" + body;
  ::send(fd, req.data(), req.size(), 0);
  std::string resp;
  char buf[4096];
  for (ssize_t n; (n = ::recv(fd, buf, sizeof buf, 0)) > 0;) {
    resp.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fd);
  return parse_reply(resp);
}

// GET over TLS without checking the (self-signed) certificate.
HttpReply https_get(std::uint16_t port, const std::string& path) {
  namespace asio = boost::asio;
  asio::io_context ioc;
  asio::ssl::context ssl(asio::ssl::context::tls_client);
  ssl.set_verify_mode(asio::ssl::verify_none);
  asio::ssl::stream<asio::ip::tcp::socket> stream(ioc, ssl);
  boost::system::error_code ec;
  stream.next_layer().connect({asio::ip::make_address("127.0.0.1"), port}, ec);
  if (ec) return {};
  stream.handshake(asio::ssl::stream_base::client, ec);
  if (ec) return {};
  const std::string req =
      "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
  asio::write(stream, asio::buffer(req), ec);
  if (ec) return {};
  std::string resp;
  asio::read(stream, asio::dynamic_buffer(resp), ec);  // ends with eof or a truncated stream
  return parse_reply(resp);
}

// The status line of a WebSocket upgrade request with the given extra headers.
int upgrade_status(std::uint16_t port, const std::vector<std::string>& headers) {
  std::vector<std::string> all = {
      "Upgrade: websocket", "Connection: Upgrade",
      "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version: 13"};
  all.insert(all.end(), headers.begin(), headers.end());
  const int fd = connect_loopback(port);
  if (fd < 0) return 0;
  std::string req = "GET /ws HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(port) + "\r\n";
  for (const auto& h : all) req += h + "\r\n";
  req += "\r\n";
  ::send(fd, req.data(), req.size(), 0);
  std::string resp;
  char buf[1024];
  while (resp.find("\r\n") == std::string::npos) {
    const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n <= 0) break;
    resp.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fd);
  return resp.size() >= 12 ? std::atoi(resp.c_str() + 9) : 0;
}

// The samples of a Prometheus text exposition: "name{labels}" -> value. HELP and TYPE lines are
// checked to come before their metric's first sample.
struct Exposition {
  std::map<std::string, double> samples;
  std::map<std::string, std::string> types;
  double get(const std::string& series) const {
    auto it = samples.find(series);
    return it == samples.end() ? -1 : it->second;
  }
};

Exposition parse_exposition(const std::string& text) {
  Exposition e;
  std::set<std::string> helped;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    if (line.rfind("# HELP ", 0) == 0) {
      helped.insert(line.substr(7, line.find(' ', 7) - 7));
      continue;
    }
    if (line.rfind("# TYPE ", 0) == 0) {
      std::istringstream t(line.substr(7));
      std::string name, type;
      t >> name >> type;
      EXPECT_TRUE(helped.count(name)) << "TYPE before HELP: " << line;
      EXPECT_TRUE(type == "counter" || type == "gauge" || type == "histogram") << line;
      e.types[name] = type;
      continue;
    }
    EXPECT_NE(line[0], '#') << line;
    const auto space = line.rfind(' ');
    EXPECT_NE(space, std::string::npos) << line;
    const std::string series = line.substr(0, space);
    std::string name = series.substr(0, series.find('{'));
    for (const char* suffix : {"_bucket", "_sum", "_count"}) {
      const std::string s = suffix;
      if (name.size() > s.size() && name.compare(name.size() - s.size(), s.size(), s) == 0 &&
          e.types.count(name.substr(0, name.size() - s.size()))) {
        name = name.substr(0, name.size() - s.size());
      }
    }
    EXPECT_TRUE(e.types.count(name)) << "sample without TYPE: " << line;
    EXPECT_EQ(e.samples.count(series), 0u) << "duplicate series: " << line;
    e.samples[series] = std::stod(line.substr(space + 1));
  }
  return e;
}

Exposition scrape(std::uint16_t port) {
  const HttpReply r = http(port, "GET", "/metrics");
  EXPECT_EQ(r.status, 200);
  EXPECT_NE(r.headers.find("text/plain; version=0.0.4"), std::string::npos) << r.headers;
  return parse_exposition(r.body);
}

// Plays `p`'s seat with random legal moves until game_over; returns the number of actions.
int play_to_the_end(Player& p, std::uint64_t seed) {
  Rng rng(seed);
  int actions = 0;
  for (;;) {
    const json m = p.wait_for(
        [](const json& x) {
          return x["type"] == "game_over" || (x["type"] == "state" && !x["legal"].empty());
        },
        30s);
    if (m.is_null() || m["type"] == "game_over") {
      EXPECT_FALSE(m.is_null()) << "the game did not end";
      return actions;
    }
    const json& legal = m["legal"];
    const json reply = p.request({{"type", "action"},
                                  {"room", p.room},
                                  {"action", legal[rng.below(legal.size())]},
                                  {"version", m["version"]}});
    EXPECT_EQ(reply["type"], "ok") << reply.dump();
    if (reply["type"] != "ok") return actions;
    ++actions;
  }
}

// --- Metrics ---------------------------------------------------------------------------------

TEST(Metrics, HistogramBucketsAreCumulativeWithSumAndCount) {
  Histogram h({0.001, 0.01, 0.1});
  h.observe(std::chrono::microseconds(500));  // <= 1 ms
  h.observe(std::chrono::milliseconds(1));    // bounds are inclusive
  h.observe(std::chrono::milliseconds(50));   // <= 100 ms
  h.observe(std::chrono::seconds(2));         // +Inf only
  std::string out;
  h.render(out, "x_seconds");
  EXPECT_NE(out.find("x_seconds_bucket{le=\"0.001\"} 2\n"), std::string::npos) << out;
  EXPECT_NE(out.find("x_seconds_bucket{le=\"0.01\"} 2\n"), std::string::npos) << out;
  EXPECT_NE(out.find("x_seconds_bucket{le=\"0.1\"} 3\n"), std::string::npos) << out;
  EXPECT_NE(out.find("x_seconds_bucket{le=\"+Inf\"} 4\n"), std::string::npos) << out;
  EXPECT_NE(out.find("x_seconds_sum 2.0515\n"), std::string::npos) << out;
  EXPECT_NE(out.find("x_seconds_count 4\n"), std::string::npos) << out;
}

TEST(Metrics, ActionsOfTheLastSecond) {
  // Five actions inside one second; once that second is over they are the last second's.
  for (int attempt = 0; attempt < 5; ++attempt) {
    const auto second = [] {
      return std::chrono::duration_cast<std::chrono::seconds>(
                 std::chrono::steady_clock::now().time_since_epoch())
          .count();
    };
    const auto before = second();
    Metrics fresh;
    for (int i = 0; i < 5; ++i) fresh.action_applied(std::chrono::steady_clock::now());
    if (second() != before) continue;  // straddled a second boundary: try again
    while (second() == before) std::this_thread::sleep_for(10ms);
    if (second() != before + 1) continue;  // the machine slept through a whole second
    EXPECT_EQ(fresh.actions_last_second(), 5u);
    EXPECT_EQ(fresh.actions(), 5u);
    return;
  }
  ADD_FAILURE() << "could not keep five calls within one second";
}

TEST(Metrics, ErrorCodesAreCountedAndEscaped) {
  Metrics m;
  m.error_sent("stale");
  m.error_sent("stale");
  m.error_sent("we\"ird\\code\n");
  const Exposition e = parse_exposition(m.render({}));
  EXPECT_EQ(e.get("campfire_errors_total{code=\"stale\"}"), 2);
  EXPECT_EQ(e.get("campfire_errors_total{code=\"we\\\"ird\\\\code\\n\"}"), 1);
}

TEST(Metrics, ANodeOfAClusterShowsItsBusAndForwardingWithItsNodeLabel) {
  Metrics m;
  m.set_node("n2");
  MetricsSnapshot snap;
  // One process alone has no cluster samples.
  EXPECT_EQ(m.render(snap).find("campfire_bus_"), std::string::npos);
  MetricsSnapshot::Cluster c;
  c.live_nodes = 3;
  c.redis_up = true;
  c.bus_batches_sent = 10;
  c.bus_items_sent = 25;
  c.bus_batches_received = 7;
  c.bus_items_received = 19;
  c.bus_dropped = 2;
  c.bus_lost_told = 1;
  c.requests_forwarded = 40;
  c.requests_served = 31;
  c.forwarding = 4;
  c.stand_ins = 6;
  snap.cluster = c;
  const Exposition e = parse_exposition(m.render(snap));
  EXPECT_EQ(e.get("campfire_cluster_nodes{node=\"n2\"}"), 3);
  EXPECT_EQ(e.get("campfire_cluster_redis_up{node=\"n2\"}"), 1);
  EXPECT_EQ(e.get("campfire_bus_batches_total{node=\"n2\",direction=\"sent\"}"), 10);
  EXPECT_EQ(e.get("campfire_bus_items_total{node=\"n2\",direction=\"received\"}"), 19);
  EXPECT_EQ(e.get("campfire_bus_dropped_total{node=\"n2\"}"), 2);
  EXPECT_EQ(e.get("campfire_bus_lost_notices_total{node=\"n2\"}"), 1);
  EXPECT_EQ(e.get("campfire_forwarded_requests_total{node=\"n2\",direction=\"out\"}"), 40);
  EXPECT_EQ(e.get("campfire_forwarded_requests_total{node=\"n2\",direction=\"in\"}"), 31);
  EXPECT_EQ(e.get("campfire_forwarding_connections{node=\"n2\"}"), 4);
  EXPECT_EQ(e.get("campfire_stand_ins{node=\"n2\"}"), 6);
}

TEST_F(ServerTest, MetricsFollowConnectionsRoomsActionsAndErrors) {
  const Exposition before = scrape(port_);
  for (const char* name : {"campfire_connections", "campfire_websocket_connections",
                           "campfire_rooms", "campfire_players", "campfire_actions_total",
                           "campfire_actions_last_second", "campfire_action_latency_seconds",
                           "campfire_errors_total", "campfire_journal_write_seconds",
                           "campfire_connections_accepted_total", "campfire_moves_total"}) {
    EXPECT_TRUE(before.types.count(name)) << name;
  }
  EXPECT_EQ(before.types.at("campfire_action_latency_seconds"), "histogram");
  EXPECT_EQ(before.get("campfire_actions_total"), 0);
  EXPECT_EQ(before.get("campfire_websocket_connections"), 0);

  Player p = player("Andrea");
  Player idle = player("Bella");
  // Two refusals: an unknown message and an action before the start.
  EXPECT_EQ(p.request({{"type", "juggle"}})["code"], "bad_request");
  create(p, {{"game", "pinocchio"}, {"seats", 4}});
  EXPECT_EQ(p.request({{"type", "action"}, {"room", p.room}, {"action", json::object()}})["code"],
            "not_your_turn");

  Exposition waiting = scrape(port_);
  EXPECT_EQ(waiting.get("campfire_rooms{game=\"pinocchio\",status=\"waiting\"}"), 1);
  EXPECT_EQ(waiting.get("campfire_players{game=\"pinocchio\",status=\"waiting\",kind=\"human\"}"),
            1);
  EXPECT_EQ(waiting.get("campfire_websocket_connections"), 2);
  EXPECT_GE(waiting.get("campfire_connections"), 3);  // two WebSockets and this scrape
  EXPECT_EQ(waiting.get("campfire_errors_total{code=\"bad_request\"}"), 1);
  EXPECT_EQ(waiting.get("campfire_errors_total{code=\"not_your_turn\"}"), 1);

  for (int i = 0; i < 3; ++i) p.request({{"type", "add_bot"}, {"room", p.room}});
  ASSERT_EQ(p.request({{"type", "start"}, {"room", p.room}})["type"], "ok");
  const int mine = play_to_the_end(p, 7);
  ASSERT_GT(mine, 0);

  const Exposition after = scrape(port_);
  EXPECT_EQ(after.get("campfire_rooms{game=\"pinocchio\",status=\"over\"}"), 1);
  EXPECT_EQ(after.get("campfire_rooms{game=\"pinocchio\",status=\"waiting\"}"), -1);
  EXPECT_EQ(after.get("campfire_players{game=\"pinocchio\",status=\"over\",kind=\"bot\"}"), 3);
  EXPECT_EQ(after.get("campfire_players{game=\"pinocchio\",status=\"over\",kind=\"human\"}"), 1);
  EXPECT_EQ(after.get("campfire_rooms_created_total"), 1);
  // Only requests from connections count (the server's own bots are not timed from a request).
  const double actions = after.get("campfire_actions_total");
  EXPECT_EQ(actions, mine);
  EXPECT_EQ(after.get("campfire_action_latency_seconds_count"), actions);
  // Every move is counted by its cause: here the player's and the three bots'.
  EXPECT_EQ(after.get("campfire_moves_total{cause=\"player\"}"), mine);
  EXPECT_GT(after.get("campfire_moves_total{cause=\"bot\"}"), 0);
  EXPECT_EQ(after.get("campfire_moves_total{cause=\"turn_timer\"}"), 0);
  EXPECT_EQ(after.get("campfire_moves_total{cause=\"takeover\"}"), 0);
  EXPECT_GT(after.get("campfire_action_latency_seconds_sum"), 0);
  double last = 0;
  for (const char* le : {"0.0001", "0.00025", "0.0005", "0.001", "0.0025", "0.005", "0.01", "0.025",
                         "0.05", "0.1", "0.25", "0.5", "1", "+Inf"}) {
    const double v =
        after.get(std::string("campfire_action_latency_seconds_bucket{le=\"") + le + "\"}");
    EXPECT_GE(v, last) << le;
    last = v;
  }
  EXPECT_EQ(last, actions);
  // Every journal commit of the game (creation, seats, each action) was timed.
  const double commits = after.get("campfire_journal_write_seconds_count");
  EXPECT_GE(commits, 1);
  EXPECT_EQ(after.get("campfire_journal_write_seconds_bucket{le=\"+Inf\"}"), commits);
  EXPECT_GT(after.get("campfire_journal_write_seconds_sum"), 0);
  EXPECT_GE(after.get("campfire_connections_accepted_total"), 4);
}

// --- Admin API -------------------------------------------------------------------------------

constexpr const char* kToken = "s3cret-admin-token-for-tests";

class AdminTest : public ServerTest {
 protected:
  void SetUp() override {
    Config c = test_config();
    c.admin_token = kToken;
    start_server(c);
  }
  HttpReply admin(const std::string& method, const std::string& path,
                  const std::string& body = "") {
    return http(port_, method, path, {std::string("Authorization: Bearer ") + kToken}, body);
  }
};

// The frames a connection owes after one change leave in one write: the mover's `ok` and what
// the change shows it go out together, and so do the event and state frames of a connection that
// asked for separate frames. /metrics counts both the frames and the writes.
TEST_F(ServerTest, TheFramesOfOneChangeLeaveInOneWritePerConnection) {
  // One thread: the room hands out all of a change's frames before any connection writes.
  std::filesystem::remove_all(config_.data_dir);
  Config c = test_config();
  c.threads = 1;
  start_server(c);
  const auto drain = [](Player& p) {
    int frames = 0;
    while (p.conn->receive(400ms)) ++frames;
    return frames;
  };
  Player ann = player("Ann");
  EXPECT_EQ(
      ann.request(
          {{"type", "hello"}, {"protocol", 1}, {"name", "Ann"}, {"updates", "patch"}})["updates"],
      "patch");
  Player bo = player("Bo");
  create(ann, {{"game", "pinocchio"}, {"seats", 2}});
  ASSERT_EQ(bo.request({{"type", "join"}, {"room", ann.room}})["type"], "joined");
  bo.room = ann.room;
  ASSERT_EQ(ann.request({{"type", "start"}, {"room", ann.room}})["type"], "ok");
  drain(ann);
  drain(bo);
  // Whoever moves first, from the whole state a sync answers with.
  Player* mover = nullptr;
  json state;
  for (Player* p : {&ann, &bo}) {
    p->conn->send({{"type", "sync"}, {"room", ann.room}});
    const json s = p->wait_type("state");
    if (!s["legal"].empty()) {
      mover = p;
      state = s;
    }
  }
  ASSERT_NE(mover, nullptr);

  const Exposition before = scrape(port_);
  mover->conn->send({{"type", "action"},
                     {"room", ann.room},
                     {"action", state["legal"][0]},
                     {"version", state["version"]},
                     {"id", 7}});
  const int to_mover = drain(*mover);
  const int to_other = drain(mover == &ann ? bo : ann);
  const Exposition after = scrape(port_);
  EXPECT_GE(to_mover, 2) << "the ok and the change";
  EXPECT_GE(to_other, 1);
  EXPECT_EQ(
      after.get("campfire_frames_written_total") - before.get("campfire_frames_written_total"),
      to_mover + to_other);
  EXPECT_EQ(after.get("campfire_socket_writes_total") - before.get("campfire_socket_writes_total"),
            2)
      << "one write for each connection";
}

TEST_F(ServerTest, AdminApiIsOffWithoutAToken) {
  EXPECT_EQ(http(port_, "GET", "/api/admin/rooms").status, 404);
  EXPECT_EQ(http(port_, "GET", "/api/admin/rooms", {"Authorization: Bearer anything"}).status, 404);
  EXPECT_EQ(http(port_, "POST", "/api/admin/notice", {}, R"({"text":"hi"})").status, 404);
}

TEST_F(AdminTest, NeedsTheRightBearerToken) {
  HttpReply r = http(port_, "GET", "/api/admin/rooms");
  EXPECT_EQ(r.status, 401);
  EXPECT_NE(r.headers.find("WWW-Authenticate: Bearer"), std::string::npos) << r.headers;
  EXPECT_EQ(http(port_, "GET", "/api/admin/rooms", {"Authorization: Bearer wrong"}).status, 403);
  EXPECT_EQ(
      http(port_, "GET", "/api/admin/rooms", {std::string("Authorization: Bearer ") + kToken + "x"})
          .status,
      403);
  EXPECT_EQ(
      http(port_, "GET", "/api/admin/rooms", {std::string("Authorization: ") + kToken}).status,
      403);
  EXPECT_EQ(
      http(port_, "POST", "/api/admin/notice", {"Authorization: Bearer wrong"}, R"({"text":"hi"})")
          .status,
      403);
  EXPECT_EQ(admin("GET", "/api/admin/rooms").status, 200);
  EXPECT_EQ(admin("GET", "/api/admin/nothing").status, 404);
}

TEST_F(AdminTest, ListsEveryRoomWithItsPlayers) {
  EXPECT_EQ(json::parse(admin("GET", "/api/admin/rooms").body)["rooms"], json::array());
  Player a = player("Andrea");
  create(a, {{"game", "pinocchio"}, {"seats", 3}, {"private", true}});
  ASSERT_EQ(a.request({{"type", "add_bot"}, {"room", a.room}, {"seat", 2}})["type"], "ok");
  Player b = player("Bella");
  create(b, {{"game", "pinocchio"}, {"seats", 2}});
  Player watcher = player("Watcher");
  ASSERT_EQ(watcher.request({{"type", "spectate"}, {"room", b.room}})["type"], "spectating");

  const HttpReply r = admin("GET", "/api/admin/rooms");
  ASSERT_EQ(r.status, 200);
  const json rooms = json::parse(r.body)["rooms"];
  ASSERT_EQ(rooms.size(), 2u) << r.body;
  const json& first = rooms[0]["room"] == a.room ? rooms[0] : rooms[1];
  const json& second = rooms[0]["room"] == a.room ? rooms[1] : rooms[0];
  EXPECT_LT(rooms[0]["room"].get<std::string>(), rooms[1]["room"].get<std::string>());
  EXPECT_EQ(first["game"], "pinocchio");
  EXPECT_EQ(first["status"], "waiting");
  EXPECT_EQ(first["private"], true);  // the public list hides it, the operator sees it
  EXPECT_EQ(first["seats"], 3);
  ASSERT_EQ(first["players"].size(), 3u);
  EXPECT_EQ(first["players"][0]["name"], "Andrea");
  EXPECT_EQ(first["players"][0]["bot"], false);
  EXPECT_EQ(first["players"][0]["connected"], true);
  EXPECT_TRUE(first["players"][1].is_null());
  EXPECT_EQ(first["players"][2]["bot"], true);
  EXPECT_EQ(second["players"][0]["name"], "Bella");
  EXPECT_EQ(second["spectators"], 1);
  EXPECT_EQ(admin("POST", "/api/admin/rooms").status, 405);
}

TEST_F(AdminTest, ClosingARoomTellsItsMembersWhy) {
  Player a = player("Andrea");
  create(a, {{"game", "pinocchio"}, {"seats", 2}});
  Player b = player("Bella");
  join(b, a.room);
  Player watcher = player("Watcher");
  ASSERT_EQ(watcher.request({{"type", "spectate"}, {"room", a.room}})["type"], "spectating");
  ASSERT_EQ(a.request({{"type", "start"}, {"room", a.room}})["type"], "ok");

  EXPECT_EQ(admin("GET", "/api/admin/rooms/" + a.room + "/close").status, 405);
  EXPECT_EQ(admin("POST", "/api/admin/rooms/" + a.room + "/close", "not json").status, 400);
  EXPECT_EQ(admin("POST", "/api/admin/rooms/" + a.room + "/close", R"({"reason": 5})").status, 400);
  const HttpReply r =
      admin("POST", "/api/admin/rooms/" + a.room + "/close", R"({"reason":"cheating"})");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(json::parse(r.body)["closed"], a.room);
  for (Player* p : {&a, &b, &watcher}) {
    const json m = p->wait_type("room_closed");
    EXPECT_EQ(m["room"], a.room);
    EXPECT_EQ(m["reason"], "cheating");
  }
  // The room is gone for everyone; the connections stay and can go on elsewhere.
  EXPECT_EQ(a.request({{"type", "sync"}, {"room", a.room}})["code"], "no_such_room");
  EXPECT_EQ(b.request({{"type", "join"}, {"room", a.room}})["code"], "no_such_room");
  EXPECT_EQ(json::parse(admin("GET", "/api/admin/rooms").body)["rooms"], json::array());
  EXPECT_EQ(admin("POST", "/api/admin/rooms/" + a.room + "/close").status, 404);
  EXPECT_EQ(admin("POST", "/api/admin/rooms/NOPE!/close").status, 404);
  create(b, {{"game", "pinocchio"}, {"seats", 2}});

  // Without a reason the members still hear why.
  join(a, b.room);
  ASSERT_EQ(admin("POST", "/api/admin/rooms/" + b.room + "/close").status, 200);
  EXPECT_EQ(a.wait_type("room_closed")["reason"], "the operator closed this room");
}

TEST_F(AdminTest, NoticeReachesEveryConnection) {
  Player a = player("Andrea");
  Player b = player("Bella");
  create(b, {{"game", "pinocchio"}, {"seats", 2}});
  auto anonymous = connect();  // not even greeted

  EXPECT_EQ(admin("POST", "/api/admin/notice", "{}").status, 400);
  EXPECT_EQ(admin("POST", "/api/admin/notice", R"({"text":"   "})").status, 400);
  EXPECT_EQ(
      admin("POST", "/api/admin/notice", R"({"text":")" + std::string(501, 'x') + "\"}").status,
      400);
  EXPECT_EQ(admin("GET", "/api/admin/notice").status, 405);

  const HttpReply r =
      admin("POST", "/api/admin/notice", R"({"text":"Restarting at 18:00\nsorry"})");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(json::parse(r.body)["sent"], 3);
  for (Player* p : {&a, &b}) {
    const json n = p->wait_type("notice");
    EXPECT_EQ(n["text"], "Restarting at 18:00 sorry");
    EXPECT_EQ(n["reason"], "operator");
  }
  const auto m = anonymous->receive(5s);
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ((*m)["type"], "notice");
}

// --- Origins ---------------------------------------------------------------------------------

TEST_F(ServerTest, AnyOriginWithoutAList) {
  EXPECT_EQ(upgrade_status(port_, {"Origin: https://anywhere.example"}), 101);
  EXPECT_EQ(upgrade_status(port_, {}), 101);
}

TEST_F(ServerTest, OnlyListedOriginsMayOpenAWebSocket) {
  Config c = test_config();
  c.allowed_origins = {"https://cards.example.org", "http://localhost:3000"};
  start_server(c);
  EXPECT_EQ(upgrade_status(port_, {"Origin: https://cards.example.org"}), 101);
  EXPECT_EQ(upgrade_status(port_, {"Origin: HTTPS://Cards.Example.org"}), 101);
  EXPECT_EQ(upgrade_status(port_, {"Origin: http://localhost:3000"}), 101);
  EXPECT_EQ(upgrade_status(port_, {"Origin: https://evil.example"}), 403);
  EXPECT_EQ(upgrade_status(port_, {"Origin: https://cards.example.org.evil.example"}), 403);
  EXPECT_EQ(upgrade_status(port_, {"Origin: http://cards.example.org"}), 403);
  EXPECT_EQ(upgrade_status(port_, {"Origin: null"}), 403);
  // The browser client served by this server, and programs that send no Origin at all.
  EXPECT_EQ(upgrade_status(port_, {"Origin: http://127.0.0.1:" + std::to_string(port_)}), 101);
  EXPECT_EQ(upgrade_status(port_, {}), 101);
  EXPECT_EQ(normalize_origin("https://Cards.Example.org/"), "https://cards.example.org");
  EXPECT_EQ(normalize_origin("cards.example.org"), "");
  EXPECT_EQ(normalize_origin("https://cards.example.org/path"), "");
}

// --- TLS -------------------------------------------------------------------------------------

class TlsTest : public ServerTest {
 protected:
  void SetUp() override {
    Config c = test_config();
    c.tls_cert = cert_.cert();
    c.tls_key = cert_.key();
    start_server(c);
  }
  std::unique_ptr<Connection> connect_tls() {
    return std::make_unique<Connection>("127.0.0.1", port_, true, true);
  }
  test::SelfSignedCert cert_;
};

// A whole game over wss:// with a self-signed certificate.
TEST_F(TlsTest, PlaysAWholeGameOverWss) {
  Player p;
  p.name = "Andrea";
  p.conn = connect_tls();
  ASSERT_EQ(p.request({{"type", "hello"}, {"protocol", 1}, {"name", "Andrea"}})["type"], "welcome");
  Player q;
  q.name = "Bella";
  q.conn = connect_tls();
  ASSERT_EQ(q.request({{"type", "hello"}, {"protocol", 1}, {"name", "Bella"}})["type"], "welcome");
  create(p, {{"game", "pinocchio"}, {"seats", 3}, {"seed", 11}});
  join(q, p.room);
  ASSERT_EQ(p.request({{"type", "add_bot"}, {"room", p.room}})["type"], "ok");
  ASSERT_EQ(p.request({{"type", "start"}, {"room", p.room}})["type"], "ok");
  // Both people play from their own thread until the end.
  int q_actions = 0;
  std::thread other([&] { q_actions = play_to_the_end(q, 2); });
  const int p_actions = play_to_the_end(p, 1);
  other.join();
  EXPECT_GT(p_actions + q_actions, 0);
  const HttpReply metrics = https_get(port_, "/metrics");
  ASSERT_EQ(metrics.status, 200);
  EXPECT_EQ(
      parse_exposition(metrics.body).get("campfire_rooms{game=\"pinocchio\",status=\"over\"}"), 1);
}

TEST_F(TlsTest, ServesHttpsAndRefusesPlainConnections) {
  const HttpReply health = https_get(port_, "/healthz");
  EXPECT_EQ(health.status, 200);
  EXPECT_EQ(json::parse(health.body)["status"], "ok");
  EXPECT_EQ(http(port_, "GET", "/healthz").status, 0);
  EXPECT_THROW(Connection("127.0.0.1", port_), std::runtime_error);
  // A client that checks certificates refuses this self-signed one.
  EXPECT_THROW(Connection("127.0.0.1", port_, true, false), std::runtime_error);
  // The server is still fine after those failed handshakes.
  EXPECT_EQ(https_get(port_, "/healthz").status, 200);
}

TEST(TlsConfig, ABadCertificateOrKeyStopsTheServerFromStarting) {
  test::SelfSignedCert one;
  test::SelfSignedCert other;
  Config c = test_config();
  c.tls_cert = one.cert();
  c.tls_key = other.key();
  EXPECT_THROW(Server{c}, std::runtime_error);  // the key of another certificate
  c.tls_key = one.cert();
  EXPECT_THROW(Server{c}, std::runtime_error);  // not a key at all
  c.tls_key = "";
  EXPECT_THROW(Server{c}, std::runtime_error);  // a certificate without its key
  c.tls_key = one.key();
  EXPECT_NO_THROW(Server{c});
}

}  // namespace
}  // namespace campfire::server::testing
