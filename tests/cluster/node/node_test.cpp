// campfire-server as a node of a cluster, for real: a redis-server and two campfire-server
// processes on free ports. A room created on node A is listed by node B, which serves it too
// (forwarding to A); A is killed with SIGKILL; B takes the room over once A's lease
// lapses; the player reconnects to B, rejoins with its token and plays on to the end; every move
// the player saw acknowledged is in the replay at its place. Bad cluster settings stop a node at
// start with one clear line.
#include <gtest/gtest.h>

#include "engine/core/match.hpp"
#include "engine/core/registry.hpp"
#include "server/config.hpp"
#include "tests/cluster/node/node_fixture.hpp"

namespace campfire::server::testing {
namespace {

using Player = ClusterPlayer;

class ClusterNodeTest : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = fresh_temp_dir("campfire-node"); }
  void TearDown() override {
    if (!HasFailure()) std::filesystem::remove_all(dir_);
  }
  std::filesystem::path dir_;
};

TEST_F(ClusterNodeTest, MalformedClusterUrlStopsTheNodeWithOneLine) {
  NodeProcess node(
      dir_, {"--port", std::to_string(free_tcp_port()), "--cluster", "http://127.0.0.1:6379"});
  EXPECT_EQ(node.wait_exit(20s), 2);
  const std::string log = node.log();
  EXPECT_NE(log.find("--cluster"), std::string::npos) << log;
  EXPECT_NE(log.find("redis://HOST:PORT"), std::string::npos) << log;
}

TEST_F(ClusterNodeTest, UnreachableRedisStopsTheNodeAtStart) {
  const std::uint16_t nobody = free_tcp_port();
  NodeProcess node(dir_, {"--port", std::to_string(free_tcp_port()), "--cluster",
                          "redis://127.0.0.1:" + std::to_string(nobody), "--node-id", "lonely"});
  EXPECT_EQ(node.wait_exit(30s), 1);
  const std::string log = node.log();
  EXPECT_NE(log.find("cannot be reached"), std::string::npos) << log;
  EXPECT_NE(log.find(std::to_string(nobody)), std::string::npos) << log;
}

TEST_F(ClusterNodeTest, ARoomOfAKilledNodeIsTakenOverAndPlaysOnLosingNothing) {
  RedisServer redis;
  const std::uint16_t port_a = free_tcp_port();
  const std::uint16_t port_b = free_tcp_port();
  auto a = std::make_unique<NodeProcess>(dir_, node_flags(redis, "a", port_a));
  ASSERT_TRUE(a->ready(port_a)) << a->log();
  NodeProcess b(dir_, node_flags(redis, "b", port_b));
  ASSERT_TRUE(b.ready(port_b)) << b.log();

  // /healthz names the node, /metrics labels every sample with it.
  {
    const auto [status, body] = http_get(port_b, "/healthz");
    ASSERT_EQ(status, 200) << body;
    EXPECT_EQ(json::parse(body).value("node", ""), "b");
    const auto [mstatus, metrics] = http_get(port_a, "/metrics");
    ASSERT_EQ(mstatus, 200);
    EXPECT_NE(metrics.find("campfire_connections{node=\"a\"}"), std::string::npos)
        << metrics.substr(0, 400);
  }

  // A room on node A: the player and two server bots.
  Player p;
  p.conn = greet(port_a, "Ann");
  const auto joined =
      p.conn->request({{"type", "create_room"}, {"game", "pinocchio"}, {"seats", 3}, {"seed", 7}});
  ASSERT_TRUE(joined && joined->value("type", "") == "joined")
      << (joined ? joined->dump() : "no reply");
  p.code = (*joined)["room"];
  p.token = (*joined)["token"];
  p.seat = (*joined)["seat"];
  for (int s = 1; s < 3; ++s) {
    const auto bot = p.conn->request({{"type", "add_bot"}, {"room", p.code}});
    ASSERT_TRUE(bot && bot->value("type", "") == "ok") << (bot ? bot->dump() : "no reply");
  }
  const auto started = p.conn->request({{"type", "start"}, {"room", p.code}});
  ASSERT_TRUE(started && started->value("type", "") == "ok");
  p.play(20s, [&] { return p.acked.size() >= 3 || p.over; });
  ASSERT_GE(p.acked.size(), 3u) << "the player could not play on node A";
  ASSERT_FALSE(p.over) << "the game ended before the node was killed";

  // Node B lists the room as node A's, and refuses to serve it while A lives, naming A.
  auto watcher = greet(port_b, "Bea");
  ASSERT_TRUE(eventually(
      [&] {
        const auto rooms = watcher->request({{"type", "list_rooms"}});
        if (!rooms) return false;
        for (const json& r : rooms->value("rooms", json::array())) {
          if (r.value("room", "") == p.code && r.value("node", "") == "a") return true;
        }
        return false;
      },
      10s))
      << "node B does not list node A's room";
  // Node B serves the room too: its requests go to A.
  const auto watching = watcher->request({{"type", "spectate"}, {"room", p.code}});
  ASSERT_TRUE(watching);
  EXPECT_EQ(watching->value("type", ""), "spectating") << watching->dump();

  // Node A dies. Whatever it had not answered is not acknowledged; the player reconnects to B.
  a->kill_now();
  const auto killed_at = std::chrono::steady_clock::now();
  const long long seen_version = p.max_version;
  const long long seen_moves = p.max_moves;
  p.pending.clear();
  p.conn = greet(port_b, "Ann");
  std::optional<json> rejoined;
  while (std::chrono::steady_clock::now() - killed_at < std::chrono::milliseconds(kLeaseMs) + 5s) {
    auto r = p.conn->request({{"type", "rejoin"}, {"room", p.code}, {"token", p.token}});
    ASSERT_TRUE(r) << "no answer from node B";
    if (r->value("type", "") == "joined") {
      rejoined = r;
      break;
    }
    // Until B owns it: A does not answer, or is named as gone.
    EXPECT_EQ(r->value("code", ""), "unavailable") << r->dump();
    std::this_thread::sleep_for(100ms);
  }
  ASSERT_TRUE(rejoined) << "node B did not take the room over within the lease and 5 s\n"
                        << b.log();
  EXPECT_EQ((*rejoined)["seat"], p.seat);

  // Versions never go back and no acknowledged move is missing from the state.
  const std::optional<json> state = p.next_state();
  ASSERT_TRUE(state) << "no state after rejoin";
  EXPECT_GT(state->value("version", 0LL), seen_version);
  EXPECT_GE(state->value("moves", 0LL), seen_moves);
  p.on_message(*state);

  // B lists the room as its own now, and the game (bots included) plays to its end there.
  EXPECT_TRUE(eventually(
      [&] {
        const auto rooms = watcher->request({{"type", "list_rooms"}});
        if (!rooms) return false;
        for (const json& r : rooms->value("rooms", json::array())) {
          if (r.value("room", "") == p.code) return r.value("node", "") == "b";
        }
        return false;
      },
      10s));
  const std::size_t acked_on_a = p.acked.size();
  p.play(45s, [&] { return p.over; });
  ASSERT_TRUE(p.over) << "the game did not finish on node B\n" << b.log();
  EXPECT_GT(p.acked.size(), acked_on_a) << "the player made no move on node B";

  // Every acknowledged move, on A and on B, is in the replay at its place.
  const auto [status, body] = http_get(port_b, "/api/replays/" + p.code);
  ASSERT_EQ(status, 200) << body;
  const json replay = json::parse(body);
  const json& log = replay["log"];
  EXPECT_EQ(static_cast<long long>(log.size()), p.max_moves);
  for (const auto& [index, action] : p.acked) {
    ASSERT_LT(static_cast<std::size_t>(index), log.size());
    EXPECT_EQ(log[static_cast<std::size_t>(index)]["seat"], p.seat) << "#" << index;
    EXPECT_EQ(log[static_cast<std::size_t>(index)]["action"], action) << "#" << index;
  }
  auto full = Match::restore(Registry::builtin(), replay);
  ASSERT_TRUE(full.ok()) << full.error().message;
  EXPECT_TRUE(full->state().over());
}

TEST_F(ClusterNodeTest, ANodeCutOffFromRedisStopsItsRoomsAndTakesThemBackAfter) {
  RedisServer redis;
  const std::uint16_t port = free_tcp_port();
  NodeProcess a(dir_, node_flags(redis, "a", port));
  ASSERT_TRUE(a.ready(port)) << a.log();

  Player p;
  p.conn = greet(port, "Ann");
  const auto joined =
      p.conn->request({{"type", "create_room"}, {"game", "pinocchio"}, {"seats", 3}, {"seed", 11}});
  ASSERT_TRUE(joined && joined->value("type", "") == "joined");
  p.code = (*joined)["room"];
  p.token = (*joined)["token"];
  p.seat = (*joined)["seat"];
  for (int s = 1; s < 3; ++s) {
    ASSERT_EQ(p.conn->request({{"type", "add_bot"}, {"room", p.code}})->value("type", ""), "ok");
  }
  ASSERT_EQ(p.conn->request({{"type", "start"}, {"room", p.code}})->value("type", ""), "ok");
  p.play(20s, [&] { return p.acked.size() >= 2 || p.over; });
  ASSERT_GE(p.acked.size(), 2u);
  ASSERT_FALSE(p.over);

  // Redis hangs: the node cannot renew its lease, so it stops the room and tells the player.
  redis.pause();
  bool told = false;
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(kLeaseMs) + 5s;
  while (!told && std::chrono::steady_clock::now() < until) {
    auto m = p.conn->receive(50ms);
    if (!m) continue;
    told = m->value("type", "") == "error" && m->value("code", "") == "unavailable" &&
           !m->contains("id");
    if (!told) p.on_message(*m);
  }
  ASSERT_TRUE(told) << "the player was not told the room stopped\n" << a.log();
  p.pending.clear();
  const long long seen_version = p.max_version;
  const long long seen_moves = p.max_moves;
  // An action now is refused, with a reason.
  const auto refused =
      p.conn->request({{"type", "action"}, {"room", p.code}, {"action", {{"type", "pass"}}}}, 10s);
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->value("code", ""), "unavailable") << refused->dump();

  // Redis is back: the node takes its room back and the player rejoins where it was.
  redis.resume();
  std::optional<json> rejoined;
  const auto back_until = std::chrono::steady_clock::now() + 15s;
  while (!rejoined && std::chrono::steady_clock::now() < back_until) {
    auto r = p.conn->request({{"type", "rejoin"}, {"room", p.code}, {"token", p.token}}, 5s);
    if (r && r->value("type", "") == "joined") rejoined = r;
    if (!rejoined) std::this_thread::sleep_for(100ms);
  }
  ASSERT_TRUE(rejoined) << "the node did not take its room back\n" << a.log();
  const std::optional<json> state = p.next_state();
  ASSERT_TRUE(state) << "no state after rejoin";
  EXPECT_GT(state->value("version", 0LL), seen_version);
  EXPECT_GE(state->value("moves", 0LL), seen_moves);
  p.on_message(*state);
  p.play(45s, [&] { return p.over; });
  ASSERT_TRUE(p.over) << "the game did not finish after the node took the room back";
  const auto [status, body] = http_get(port, "/api/replays/" + p.code);
  ASSERT_EQ(status, 200) << body;
  const json log = json::parse(body)["log"];
  for (const auto& [index, action] : p.acked) {
    ASSERT_LT(static_cast<std::size_t>(index), log.size());
    EXPECT_EQ(log[static_cast<std::size_t>(index)]["action"], action) << "#" << index;
  }
}

// The settings a node checks before it starts.
TEST(ClusterConfig, AMalformedUrlIsRefusedInOneLine) {
  Config c;
  c.cluster = "redis:/127.0.0.1";
  const std::string why = check_cluster(c);
  EXPECT_NE(why.find("--cluster"), std::string::npos) << why;
  EXPECT_EQ(why.find('\n'), std::string::npos) << why;
}

TEST(ClusterConfig, ANodeWithoutAnIdGetsARandomOne) {
  Config c;
  c.cluster = "redis://127.0.0.1:6379/2";
  EXPECT_EQ(check_cluster(c), "");
  EXPECT_FALSE(c.node_id.empty());
  Config d;
  d.cluster = c.cluster;
  EXPECT_EQ(check_cluster(d), "");
  EXPECT_NE(c.node_id, d.node_id);
}

TEST(ClusterConfig, ABadNodeIdOrAddressIsRefused) {
  Config c;
  c.cluster = "redis://127.0.0.1:6379";
  c.node_id = "a/b";
  EXPECT_NE(check_cluster(c).find("--node-id"), std::string::npos);
  c.node_id = "a";
  c.advertise = "nohostport";
  EXPECT_NE(check_cluster(c).find("--advertise"), std::string::npos);
  c.advertise = "10.0.0.2:8080";
  EXPECT_EQ(check_cluster(c), "");
}

TEST(ClusterConfig, WithoutAClusterNothingChanges) {
  Config c;
  EXPECT_EQ(check_cluster(c), "");
  EXPECT_TRUE(c.node_id.empty());
  c.node_id = "a";
  EXPECT_NE(check_cluster(c).find("need --cluster"), std::string::npos);
}

}  // namespace
}  // namespace campfire::server::testing
