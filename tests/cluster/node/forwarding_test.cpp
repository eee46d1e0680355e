// Any node serves any client, for real: campfire-server nodes on a real redis-server, and clients
// of one node in rooms another node owns. A client on node B plays a whole game of node A's room
// beside a client on A; spectates and rejoins through B; its connection closing is a disconnect
// on A; and when A is killed with SIGKILL it keeps its connection, is told the room moved, and
// plays to the end on the new owner; when B is killed, A counts its connections as gone. A
// request forwarded to a dead node is answered with an error. A join or leave sent again after
// the bus lost what answered it ends as if it had been sent once.
#include <gtest/gtest.h>

#include <condition_variable>
#include <deque>
#include <mutex>
#include <set>

#include "engine/core/match.hpp"
#include "engine/core/registry.hpp"
#include "server/cluster/bus.hpp"
#include "server/cluster/link.hpp"
#include "tests/cluster/node/node_fixture.hpp"

namespace campfire::server::testing {
namespace {

using Player = ClusterPlayer;

class ClusterForwardingTest : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = fresh_temp_dir("campfire-forward"); }
  void TearDown() override {
    if (!HasFailure()) std::filesystem::remove_all(dir_);
  }

  // Starts node `id` on a free port.
  std::uint16_t start(const std::string& id) {
    const std::uint16_t port = free_tcp_port();
    nodes_[id] = std::make_unique<NodeProcess>(dir_, node_flags(*redis_, id, port));
    if (!nodes_[id]->ready(port)) throw std::runtime_error("node " + id + " did not start");
    return port;
  }
  std::string logs() const {
    std::string all;
    for (const auto& [id, node] : nodes_) all += "---- node " + id + "\n" + node->log();
    return all;
  }

  // A room made on the node at `port` with nobody seated (the players join it from anywhere).
  static std::string make_room(std::uint16_t port, int seats, int seed) {
    auto maker = greet(port, "Maker");
    const auto created = maker->request({{"type", "create_room"},
                                         {"game", "pinocchio"},
                                         {"seats", seats},
                                         {"seed", seed},
                                         {"join", false}});
    if (!created || created->value("type", "") != "created") {
      throw std::runtime_error("no room: " + (created ? created->dump() : "no reply"));
    }
    return created->at("room");
  }

  static void join(Player& p, const std::string& code) {
    const auto joined = p.conn->request({{"type", "join"}, {"room", code}});
    ASSERT_TRUE(joined && joined->value("type", "") == "joined")
        << (joined ? joined->dump() : "no reply");
    p.code = code;
    p.token = joined->at("token");
    p.seat = joined->at("seat");
  }

  // Every move a player saw acknowledged is in the replay at its place, by its seat.
  static void expect_in_replay(const json& log, const Player& p) {
    for (const auto& [index, action] : p.acked) {
      ASSERT_LT(static_cast<std::size_t>(index), log.size());
      EXPECT_EQ(log[static_cast<std::size_t>(index)]["seat"], p.seat) << "#" << index;
      EXPECT_EQ(log[static_cast<std::size_t>(index)]["action"], action) << "#" << index;
    }
  }

  static json replay(std::uint16_t port, const std::string& code) {
    const auto [status, body] = http_get(port, "/api/replays/" + code);
    if (status != 200) throw std::runtime_error("no replay: " + body);
    return json::parse(body);
  }

  std::filesystem::path dir_;
  std::unique_ptr<RedisServer> redis_ = std::make_unique<RedisServer>();
  std::map<std::string, std::unique_ptr<NodeProcess>> nodes_;
};

// Both players play in turn until both have seen the end (or `span` passes).
void play_both(Player& a, Player& b, std::chrono::milliseconds span) {
  const auto until = std::chrono::steady_clock::now() + span;
  while (std::chrono::steady_clock::now() < until && !(a.over && b.over)) {
    if (auto m = a.conn->receive(5ms)) a.on_message(*m);
    if (auto m = b.conn->receive(5ms)) b.on_message(*m);
  }
}

TEST_F(ClusterForwardingTest, AClientOnAnotherNodePlaysAWholeGameBesideOneOnTheOwner) {
  const std::uint16_t port_a = start("a");
  const std::uint16_t port_b = start("b");
  const std::string code = make_room(port_a, 3, 5);
  EXPECT_EQ(owner_of(*redis_, code), "a");

  Player ann;
  ann.conn = greet(port_a, "Ann");
  ASSERT_NO_FATAL_FAILURE(join(ann, code));
  Player bob;
  bob.conn = greet(port_b, "Bob");
  ASSERT_NO_FATAL_FAILURE(join(bob, code));
  EXPECT_NE(ann.seat, bob.seat);

  // Requests of every kind go through node B as they would on A.
  const auto bot = bob.conn->request({{"type", "add_bot"}, {"room", code}});
  ASSERT_TRUE(bot && bot->value("type", "") == "ok") << (bot ? bot->dump() : "no reply");
  const auto chat = bob.conn->request({{"type", "chat"}, {"room", code}, {"text", "hi from b"}});
  ASSERT_TRUE(chat && chat->value("type", "") == "ok") << (chat ? chat->dump() : "no reply");
  bool heard = false;
  for (int i = 0; i < 50 && !heard; ++i) {
    auto m = ann.conn->receive(200ms);
    if (m && m->value("type", "") == "chat") {
      heard = m->value("text", "") == "hi from b" && m->value("name", "") == "Bob";
    }
  }
  EXPECT_TRUE(heard) << "the player on A did not hear the chat sent through B";
  // A new name in a hello through B renames the seat on A.
  const auto renamed = bob.conn->request({{"type", "hello"}, {"protocol", 1}, {"name", "Bobby"}});
  ASSERT_TRUE(renamed && renamed->value("type", "") == "welcome");
  ASSERT_EQ(
      bob.conn->request({{"type", "chat"}, {"room", code}, {"text", "again"}})->value("type", ""),
      "ok");
  heard = false;
  for (int i = 0; i < 50 && !heard; ++i) {
    auto m = ann.conn->receive(200ms);
    if (m && m->value("type", "") == "chat") {
      heard = m->value("text", "") == "again" && m->value("name", "") == "Bobby";
    }
  }
  EXPECT_TRUE(heard) << "the rename through B did not reach the seat on A";
  const auto sync = bob.conn->request({{"type", "sync"}, {"room", code}});
  ASSERT_TRUE(sync && sync->value("type", "") == "ok") << (sync ? sync->dump() : "no reply");
  const auto started = bob.conn->request({{"type", "start"}, {"room", code}});
  ASSERT_TRUE(started && started->value("type", "") == "ok")
      << (started ? started->dump() : "no reply");

  play_both(ann, bob, 60s);
  ASSERT_TRUE(ann.over && bob.over) << logs();
  EXPECT_FALSE(ann.acked.empty());
  EXPECT_FALSE(bob.acked.empty()) << "the player on B made no move";
  EXPECT_FALSE(bob.went_back);
  EXPECT_EQ(bob.max_version, ann.max_version);

  const auto history = bob.conn->request({{"type", "history"}, {"room", code}});
  ASSERT_TRUE(history && history->value("type", "") == "ok")
      << (history ? history->dump() : "no reply");
  EXPECT_FALSE(history->value("events", json::array()).empty());

  const json r = replay(port_b, code);
  EXPECT_EQ(static_cast<long long>(r["log"].size()), bob.max_moves);
  expect_in_replay(r["log"], ann);
  expect_in_replay(r["log"], bob);
  auto full = Match::restore(Registry::builtin(), r);
  ASSERT_TRUE(full.ok()) << full.error().message;
  EXPECT_TRUE(full->state().over());

  // Leaving through B leaves the room on A.
  const auto left = bob.conn->request({{"type", "leave"}, {"room", code}});
  ASSERT_TRUE(left && left->value("type", "") == "left") << (left ? left->dump() : "no reply");
  const auto after = bob.conn->request({{"type", "sync"}, {"room", code}});
  ASSERT_TRUE(after);
  EXPECT_EQ(after->value("code", ""), "not_in_room") << after->dump();
}

TEST_F(ClusterForwardingTest, SpectatingAndRejoiningGoThroughAnotherNode) {
  const std::uint16_t port_a = start("a");
  const std::uint16_t port_b = start("b");
  const std::string code = make_room(port_a, 3, 9);

  Player ann;
  ann.conn = greet(port_a, "Ann");
  ASSERT_NO_FATAL_FAILURE(join(ann, code));
  for (int s = 0; s < 2; ++s) {
    ASSERT_EQ(ann.conn->request({{"type", "add_bot"}, {"room", code}})->value("type", ""), "ok");
  }
  ASSERT_EQ(ann.conn->request({{"type", "start"}, {"room", code}})->value("type", ""), "ok");

  // A spectator on B (asking for patches) watches the game on A, and so does a program on B
  // that asked for deltas without words: what it asked for reaches the room's node.
  auto watcher = greet(port_b, "Wes", "patch");
  const auto watching = watcher->request({{"type", "spectate"}, {"room", code}});
  ASSERT_TRUE(watching && watching->value("type", "") == "spectating")
      << (watching ? watching->dump() : "no reply");
  auto program = greet(port_b, "Pat", "delta", false);
  const auto programmed = program->request({{"type", "spectate"}, {"room", code}});
  ASSERT_TRUE(programmed && programmed->value("type", "") == "spectating")
      << (programmed ? programmed->dump() : "no reply");
  ann.play(20s, [&] { return ann.acked.size() >= 3 || ann.over; });
  ASSERT_GE(ann.acked.size(), 3u);
  long long watched = 0;
  for (int i = 0; i < 200; ++i) {
    auto m = watcher->receive(100ms);
    if (!m) continue;
    if (m->value("type", "") == "state" || m->value("type", "") == "update") {
      watched = std::max(watched, m->value("version", 0LL));
    }
    if (watched > 0 && watched >= ann.max_version) break;
  }
  EXPECT_GT(watched, 0) << "the spectator on B saw no state";
  int deltas = 0;
  int events = 0;
  for (int i = 0; i < 200 && (deltas == 0 || events == 0); ++i) {
    auto m = program->receive(100ms);
    if (!m || m->value("type", "") != "update") continue;
    if (m->contains("patch")) {
      EXPECT_FALSE(m->contains("base")) << m->dump();
      ++deltas;
    }
    for (const json& e : m->value("events", json::array())) {
      EXPECT_FALSE(e.contains("text")) << e.dump();
      ++events;
    }
  }
  EXPECT_GT(deltas, 0) << "the program on B got no delta";
  EXPECT_GT(events, 0) << "the program on B heard no event";

  // The player moves to node B and rejoins its seat there; its connection on A is replaced.
  ann.pending.clear();
  auto old = std::move(ann.conn);
  ann.conn = greet(port_b, "Ann");
  const auto rejoined =
      ann.conn->request({{"type", "rejoin"}, {"room", code}, {"token", ann.token}});
  ASSERT_TRUE(rejoined && rejoined->value("type", "") == "joined")
      << (rejoined ? rejoined->dump() : "no reply");
  EXPECT_EQ(rejoined->value("seat", -1), ann.seat);
  bool replaced = false;
  for (int i = 0; i < 100 && !replaced; ++i) {
    auto m = old->receive(100ms);
    replaced = m && m->value("code", "") == "replaced";
  }
  EXPECT_TRUE(replaced) << "the old connection on A was not told its seat went elsewhere";
  // A wrong token through B is refused like on A.
  auto stranger = greet(port_b, "Eve");
  const auto wrong =
      stranger->request({{"type", "rejoin"}, {"room", code}, {"token", std::string(32, 'f')}});
  ASSERT_TRUE(wrong);
  EXPECT_EQ(wrong->value("code", ""), "bad_token") << wrong->dump();

  const auto state = ann.next_state();
  ASSERT_TRUE(state);
  ann.on_message(*state);
  const std::size_t before = ann.acked.size();
  ann.play(60s, [&] { return ann.over; });
  ASSERT_TRUE(ann.over) << logs();
  EXPECT_GT(ann.acked.size(), before) << "no move was made through B";
  EXPECT_FALSE(ann.went_back);
  expect_in_replay(replay(port_a, code)["log"], ann);
}

TEST_F(ClusterForwardingTest, AConnectionOrNodeClosingIsADisconnectOnTheOwner) {
  const std::uint16_t port_a = start("a");
  const std::uint16_t port_b = start("b");
  const std::string code = make_room(port_a, 3, 3);

  Player ann;
  ann.conn = greet(port_a, "Ann");
  ASSERT_NO_FATAL_FAILURE(join(ann, code));
  Player bob;
  bob.conn = greet(port_b, "Bob");
  ASSERT_NO_FATAL_FAILURE(join(bob, code));

  // Ann sees Bob's seat connected, then not once Bob's connection to B closes.
  auto bob_connected = [&](bool want) {
    for (int i = 0; i < 100; ++i) {
      auto m = ann.conn->receive(100ms);
      if (!m || m->value("type", "") != "state") continue;
      const json& seat = m->at("players")[static_cast<std::size_t>(bob.seat)];
      if (seat.is_object() && seat.value("connected", !want) == want) return true;
    }
    return false;
  };
  ASSERT_NE(ann.conn->request({{"type", "sync"}, {"room", code}}), std::nullopt);
  EXPECT_TRUE(bob_connected(true));
  bob.conn.reset();
  EXPECT_TRUE(bob_connected(false)) << "node A did not see the connection on B close\n" << logs();
  // The seat waits for its player: Bob comes back through B with the token.
  bob.conn = greet(port_b, "Bob");
  const auto back = bob.conn->request({{"type", "rejoin"}, {"room", code}, {"token", bob.token}});
  ASSERT_TRUE(back && back->value("type", "") == "joined") << (back ? back->dump() : "no reply");
  EXPECT_TRUE(bob_connected(true));
  // Node B dies: once its lease lapses, node A counts its connections as gone.
  nodes_["b"]->kill_now();
  EXPECT_TRUE(bob_connected(false)) << "node A did not see node B's connections go\n" << logs();
}

TEST_F(ClusterForwardingTest, WhenTheOwnerIsKilledClientsOfOtherNodesFollowTheRoom) {
  const std::uint16_t port_a = start("a");
  const std::uint16_t port_b = start("b");
  start("c");
  // Two rooms on A, each with a player on B and two bots. Once A is gone the survivors share
  // its rooms by a hash of the code (server/cluster/directory.cpp), the node whose share it is
  // claiming first: one room is picked for each of B and C, so that the player follows its room
  // both to its own node and to another one (the other survivor may still claim a room first
  // when the first is slow; every room is played to its end either way).
  std::vector<std::string> codes(2);
  for (int seed = 20; codes[0].empty() || codes[1].empty(); ++seed) {
    ASSERT_LT(seed, 100) << "no room code fell to each survivor";
    const std::string code = make_room(port_a, 3, seed);
    std::string& slot = codes[share_of(code, 2)];
    if (slot.empty()) slot = code;
  }
  std::vector<Player> players(2);
  std::vector<std::unique_ptr<Connection>> watchers;
  for (std::size_t i = 0; i < players.size(); ++i) {
    Player& p = players[i];
    const std::string& code = codes[i];
    p.conn = greet(port_b, "Bea" + std::to_string(i));
    ASSERT_NO_FATAL_FAILURE(join(p, code));
    for (int s = 0; s < 2; ++s) {
      const auto bot = p.conn->request({{"type", "add_bot"}, {"room", code}});
      ASSERT_TRUE(bot && bot->value("type", "") == "ok") << (bot ? bot->dump() : "no reply");
    }
    ASSERT_EQ(p.conn->request({{"type", "start"}, {"room", code}})->value("type", ""), "ok");
    // A spectator on B of each room.
    watchers.push_back(greet(port_b, "Wes" + std::to_string(i)));
    const auto w = watchers.back()->request({{"type", "spectate"}, {"room", code}});
    ASSERT_TRUE(w && w->value("type", "") == "spectating") << (w ? w->dump() : "no reply");
  }
  for (Player& p : players) {
    p.play(20s, [&] { return p.acked.size() >= 3 || p.over; });
    ASSERT_GE(p.acked.size(), 3u) << logs();
    ASSERT_FALSE(p.over) << "the game ended before the node was killed";
  }

  nodes_["a"]->kill_now();
  std::vector<long long> seen(players.size());
  for (std::size_t i = 0; i < players.size(); ++i) {
    seen[i] = players[i].max_version;
    // What A had not answered is not acknowledged.
    players[i].pending.clear();
  }
  // A request to the dead node gets an answer: an error, not silence.
  const auto refused = players[0].conn->request(
      {{"type", "action"}, {"room", players[0].code}, {"action", {{"type", "pass"}}}}, 10s);
  ASSERT_TRUE(refused) << "a request to the dead node went unanswered";
  EXPECT_EQ(refused->value("code", ""), "unavailable") << refused->dump();

  // Each player keeps its connection, is told the room moved, and plays to the end.
  std::set<std::string> new_owners;
  for (std::size_t i = 0; i < players.size(); ++i) {
    Player& p = players[i];
    p.play(std::chrono::milliseconds(kLeaseMs) + 60s, [&] { return p.over; });
    ASSERT_TRUE(p.over) << "room " << p.code << " did not play to its end\n" << logs();
    EXPECT_FALSE(p.went_back) << p.code;
    EXPECT_GT(p.max_version, seen[i]);
    ASSERT_FALSE(p.notices.empty()) << "no notice that the room moved";
    EXPECT_EQ(p.notices.front().value("reason", ""), "moved") << p.notices.front().dump();
    const std::string owner = owner_of(*redis_, p.code);
    EXPECT_TRUE(owner == "b" || owner == "c") << owner;
    new_owners.insert(owner);
    const json r = replay(port_b, p.code);
    EXPECT_EQ(static_cast<long long>(r["log"].size()), p.max_moves);
    expect_in_replay(r["log"], p);
  }
  std::cout << "rooms taken over by node(s):";
  for (const auto& n : new_owners) std::cout << " " << n;
  std::cout << "\n";

  // The spectators were moved too: each saw the room's notice and states after it.
  for (std::size_t i = 0; i < watchers.size(); ++i) {
    bool noticed = false;
    long long after = 0;
    while (auto m = watchers[i]->receive(50ms)) {
      if (m->value("type", "") == "notice") noticed = m->value("reason", "") == "moved";
      if (noticed && (m->value("type", "") == "state" || m->value("type", "") == "update")) {
        after = std::max(after, m->value("version", 0LL));
      }
    }
    EXPECT_TRUE(noticed) << "spectator " << i << " was not told the room moved";
    EXPECT_GT(after, seen[i]) << "spectator " << i << " saw nothing after the move";
  }
}

// A node of the cluster played by the test: it owns rooms as Redis says, or forwards requests of
// connections it makes up to a real node; it hears what other nodes send it on the bus, and
// answers (or leaves out) exactly what the test tells it to, as a real node would if the bus lost
// some of what it sent.
class FakeNode {
 public:
  FakeNode(const RedisServer& redis, const std::string& id) : id_(id) {
    cluster::RedisLink::Options o;
    o.url.host = "127.0.0.1";
    o.url.port = redis.port();
    o.node = id;
    link_ = std::make_unique<cluster::RedisLink>(o);
    bus_ = std::make_unique<cluster::Bus>(*link_, id,
                                          [this](const cluster::BusSender&, cluster::BusItem item) {
                                            std::lock_guard lock(mutex_);
                                            got_.push_back(std::move(item));
                                            arrived_.notify_all();
                                          });
    bus_->set_incarnation(incarnation());
    link_->start(5s);
    // A live lease that never lapses, and no list of rooms for the others to take over.
    redis.command({"SET", "campfire:node:" + id, incarnation()});
  }
  // The link goes first: no message reaches the bus once it is gone.
  ~FakeNode() {
    link_.reset();
    bus_.reset();
  }
  std::string incarnation() const { return "inc-" + id_; }
  void own(const RedisServer& redis, const std::string& code) const {
    redis.command({"HSET", "campfire:room:" + code, "owner", id_ + "/" + incarnation()});
  }
  // The next item of `kind` another node sent here, those of other kinds before it passed over
  // (nullopt if none comes within `patience`).
  std::optional<cluster::BusItem> next(cluster::BusItem::Kind kind,
                                       std::chrono::milliseconds patience = 10s) {
    std::unique_lock lock(mutex_);
    const auto until = std::chrono::steady_clock::now() + patience;
    while (true) {
      while (!got_.empty()) {
        cluster::BusItem item = std::move(got_.front());
        got_.pop_front();
        if (item.kind == kind) return item;
      }
      if (arrived_.wait_until(lock, until) == std::cv_status::timeout && got_.empty()) {
        return std::nullopt;
      }
    }
  }
  // The next request another node forwarded here.
  std::optional<cluster::BusItem> next_request(std::chrono::milliseconds patience = 10s) {
    return next(cluster::BusItem::Kind::kRequest, patience);
  }
  // `player` (seated as `seated`, through node `via`) sends `request`; this node takes it as
  // forwarded and answers with `reply` (whose `id` is the request's). What the player then
  // receives, or nullopt (a failure recorded) when the request or the answer went missing.
  std::optional<json> answer(Connection& player, const std::string& via,
                             const cluster::BusItem& seated, const json& request, json reply) {
    player.send(request);
    auto forwarded = next_request();
    if (!forwarded) {
      ADD_FAILURE() << "node " << via << " did not forward " << request.dump();
      return std::nullopt;
    }
    EXPECT_EQ(forwarded->conn, seated.conn);
    EXPECT_EQ(json::parse(forwarded->text).value("type", ""), request.value("type", ""))
        << forwarded->text;
    reply["id"] = request["id"];
    send_frames(via, forwarded->conn, forwarded->number, {reply.dump()});
    auto got = player.receive(10s);
    if (!got) {
      ADD_FAILURE() << "no answer to " << request.dump();
      return std::nullopt;
    }
    EXPECT_EQ(got->value("type", ""), reply.value("type", "")) << got->dump();
    EXPECT_EQ(got->value("id", 0), request.value("id", 0)) << got->dump();
    return got;
  }
  // `player`, connected to node `via`, joins `room`, which this node serves: it takes the
  // forwarded join and seats the player (seat 1, token "t0k3n") with the reply alone, no
  // kEntered before it. The forwarded join, or nullopt (a failure recorded) when the join or
  // the reply went missing.
  std::optional<cluster::BusItem> seat(Connection& player, const std::string& via,
                                       const std::string& room) {
    player.send({{"type", "join"}, {"id", 1}, {"room", room}});
    auto join = next_request();
    if (!join) {
      ADD_FAILURE() << "node " << via << " did not forward the join";
      return std::nullopt;
    }
    EXPECT_EQ(join->room, room);
    EXPECT_EQ(json::parse(join->text).value("type", ""), "join") << join->text;
    send_frames(
        via, join->conn, join->number,
        {json{{"type", "joined"}, {"id", 1}, {"room", room}, {"seat", 1}, {"token", "t0k3n"}}
             .dump()});
    const auto joined = player.receive(10s);
    if (!joined || joined->value("type", "") != "joined") {
      ADD_FAILURE() << "the player was not seated: " << (joined ? joined->dump() : "no reply");
      return std::nullopt;
    }
    return join;
  }
  // The reply with `id` among the frames `node` sends back to connection `conn` here (nullopt if
  // it does not come within `patience`); every other frame and item before it is passed over.
  std::optional<json> reply(std::uint64_t conn, const json& id,
                            std::chrono::milliseconds patience = 10s) {
    const auto until = std::chrono::steady_clock::now() + patience;
    while (std::chrono::steady_clock::now() < until) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          until - std::chrono::steady_clock::now());
      auto item = next(cluster::BusItem::Kind::kFrames, left);
      if (!item) return std::nullopt;
      if (item->conn != conn) continue;
      for (const std::string& f : item->frames) {
        const json m = json::parse(f, nullptr, false);
        if (m.is_object() && m.contains("id") && m["id"] == id) return m;
      }
    }
    return std::nullopt;
  }
  // Request `request` (number `seq`) of connection `conn` here, player `name`, for `room` on
  // `node`, as a node forwards it.
  void send_request(const std::string& node, std::uint64_t conn, std::int64_t seq,
                    const std::string& room, const json& request, const std::string& name) {
    cluster::BusItem item;
    item.kind = cluster::BusItem::Kind::kRequest;
    item.conn = conn;
    item.number = seq;
    item.room = room;
    item.text = request.dump();
    item.name = name;
    item.address = "127.0.0.1";
    item.frames = {"state"};
    bus_->send(node, std::move(item));
  }
  // Tells `node` that items this node meant for it were lost (its link to Redis failed them).
  void send_lost(const std::string& node) {
    cluster::BusItem item;
    item.kind = cluster::BusItem::Kind::kLost;
    bus_->send(node, std::move(item));
  }
  // Frames for connection `conn` of `node`, with the receipt of its requests up to `received`.
  void send_frames(const std::string& node, std::uint64_t conn, std::int64_t received,
                   std::vector<std::string> frames) {
    cluster::BusItem item;
    item.kind = cluster::BusItem::Kind::kFrames;
    item.conn = conn;
    item.number = received;
    item.frames = std::move(frames);
    bus_->send(node, std::move(item));
  }

 private:
  std::string id_;
  std::unique_ptr<cluster::RedisLink> link_;
  std::unique_ptr<cluster::Bus> bus_;
  std::mutex mutex_;
  std::condition_variable arrived_;
  std::deque<cluster::BusItem> got_;
};

// The room's node tells the client's node of a new member twice: a kEntered item first, then the
// reply itself, which waits for the journal. Redis restarting between the two loses the first
// (pub/sub delivers at most once) and only delays the second. The reply alone must make the
// connection a member on its node: the player's next requests go to the room, not refused there.
TEST_F(ClusterForwardingTest, AJoinWhoseMembershipNoticeWasLostStillMakesAMember) {
  const std::uint16_t port_b = start("b");
  FakeNode owner(*redis_, "a");
  const std::string code = "R8QDK3";
  owner.own(*redis_, code);

  auto bob = greet(port_b, "Bob");
  // Seated by the reply alone, without the kEntered before it.
  const auto join = owner.seat(*bob, "b", code);
  ASSERT_TRUE(join) << logs();

  // A request for the room goes on to its node, which answers it.
  EXPECT_TRUE(owner.answer(*bob, "b", *join, {{"type", "sync"}, {"id", 2}, {"room", code}},
                           {{"type", "ok"}, {"version", 0}}))
      << logs();
}

// After frames were lost the client's node syncs for its player; that sync may itself reach no one
// (published while the room's node was still subscribing again after Redis came back). It is
// sent again until the room's node takes it, or the player would wait for ever for a state.
TEST_F(ClusterForwardingTest, ASyncForLostFramesThatReachesNoOneIsSentAgain) {
  const std::uint16_t port_b = start("b");
  FakeNode owner(*redis_, "a");
  const std::string code = "R8QDK4";
  owner.own(*redis_, code);

  auto bob = greet(port_b, "Bob");
  const auto join = owner.seat(*bob, "b", code);
  ASSERT_TRUE(join) << logs();

  owner.send_lost("b");
  auto first = owner.next_request();
  ASSERT_TRUE(first) << "node b did not sync after frames were lost\n" << logs();
  EXPECT_EQ(first->conn, join->conn);
  EXPECT_EQ(json::parse(first->text).value("type", ""), "sync") << first->text;
  // Dropped, as if nobody had been subscribed: no receipt comes back.
  auto again = owner.next_request();
  ASSERT_TRUE(again) << "the lost sync was not sent again\n" << logs();
  EXPECT_EQ(again->conn, join->conn);
  EXPECT_GT(again->number, first->number);
  EXPECT_EQ(json::parse(again->text).value("type", ""), "sync") << again->text;
  // Taken this time: its reply is node b's, and the state after it the player's.
  const json state = {{"type", "state"}, {"room", code}, {"version", 7}};
  owner.send_frames(
      "b", again->conn, again->number,
      {json{{"type", "ok"}, {"id", json::parse(again->text)["id"]}, {"version", 7}}.dump(),
       state.dump()});
  const auto seen = bob->receive(10s);
  ASSERT_TRUE(seen) << logs();
  EXPECT_EQ(*seen, state);
}

// A join reaches the room's node and takes a seat, but all that node sends back (the membership
// with the seat's token, then the reply) is lost on the bus: the player's node tells it the room's
// node did not answer, and it tries again. The room's node knows the connection's seat and answers
// as the first time: the same seat and the token the player never received, with which it plays
// and rejoins like any player. It holds one seat, not two.
TEST_F(ClusterForwardingTest, AJoinRepeatedAfterItsAnswerWasLostGetsTheSameSeatAndToken) {
  const std::uint16_t port_a = start("a");
  const std::string code = make_room(port_a, 3, 13);
  FakeNode node(*redis_, "c");
  const std::uint64_t conn = 41;

  node.send_request("a", conn, 1, code, {{"type", "join"}, {"id", 1}, {"room", code}}, "Cy");
  const auto first = node.reply(conn, 1);
  ASSERT_TRUE(first) << "node a did not answer the join\n" << logs();
  ASSERT_EQ(first->value("type", ""), "joined") << first->dump();
  // None of it reaches the player, who tries again with a new id.
  node.send_request("a", conn, 2, code, {{"type", "join"}, {"id", 2}, {"room", code}}, "Cy");
  const auto again = node.reply(conn, 2);
  ASSERT_TRUE(again) << "node a did not answer the repeated join\n" << logs();
  ASSERT_EQ(again->value("type", ""), "joined") << again->dump();
  EXPECT_EQ(again->at("seat"), first->at("seat"));
  EXPECT_EQ(again->at("token"), first->at("token"));

  // Two bots fill the other seats and the game starts: the player took one seat.
  for (int i = 3; i <= 4; ++i) {
    node.send_request("a", conn, i, code, {{"type", "add_bot"}, {"id", i}, {"room", code}}, "Cy");
    const auto bot = node.reply(conn, i);
    ASSERT_TRUE(bot && bot->value("type", "") == "ok") << (bot ? bot->dump() : "no reply");
  }
  node.send_request("a", conn, 5, code, {{"type", "start"}, {"id", 5}, {"room", code}}, "Cy");
  const auto started = node.reply(conn, 5);
  ASSERT_TRUE(started && started->value("type", "") == "ok")
      << (started ? started->dump() : "no reply");

  // Later the player comes back on node a with that token and plays its seat.
  Player cy;
  cy.conn = greet(port_a, "Cy");
  const auto back =
      cy.conn->request({{"type", "rejoin"}, {"room", code}, {"token", again->at("token")}});
  ASSERT_TRUE(back && back->value("type", "") == "joined") << (back ? back->dump() : "no reply");
  EXPECT_EQ(back->at("seat"), first->at("seat"));
  cy.code = code;
  cy.seat = back->at("seat");
  const auto state = cy.next_state();
  ASSERT_TRUE(state) << "no state after the rejoin";
  cy.on_message(*state);
  cy.play(30s, [&] { return !cy.acked.empty() || cy.over; });
  EXPECT_FALSE(cy.acked.empty()) << "the player's seat made no move\n" << logs();
}

// The same, when Redis hangs longer than a lease after the join took its seat: the room's node
// stops its rooms and, once Redis is back, builds the room again from its journal, where the
// seat has no connection any more. The join repeated then still finds the seat it took, not a
// second one.
TEST_F(ClusterForwardingTest, AJoinRepeatedAfterRedisHungGetsTheSameSeatNotASecondOne) {
  const std::uint16_t port_a = start("a");
  const std::string code = make_room(port_a, 3, 17);
  FakeNode node(*redis_, "c");
  const std::uint64_t conn = 43;

  node.send_request("a", conn, 1, code, {{"type", "join"}, {"id", 1}, {"room", code}}, "Cy");
  const auto first = node.reply(conn, 1);
  ASSERT_TRUE(first && first->value("type", "") == "joined")
      << (first ? first->dump() : "no reply") << "\n"
      << logs();
  redis_->pause();
  std::this_thread::sleep_for(std::chrono::milliseconds(kLeaseMs) + 2s);
  redis_->resume();

  // The player tries again until the room's node has its room back.
  std::optional<json> again;
  std::int64_t seq = 1;
  const auto until = std::chrono::steady_clock::now() + 20s;
  while (!again && std::chrono::steady_clock::now() < until) {
    ++seq;
    node.send_request("a", conn, seq, code, {{"type", "join"}, {"id", seq}, {"room", code}}, "Cy");
    auto r = node.reply(conn, seq, 3s);
    if (r && r->value("type", "") == "joined") again = r;
    if (!again) std::this_thread::sleep_for(200ms);
  }
  ASSERT_TRUE(again) << "the repeated join was never answered joined\n" << logs();
  EXPECT_EQ(again->at("seat"), first->at("seat")) << again->dump();
  EXPECT_EQ(again->at("token"), first->at("token")) << again->dump();
  // One seat taken, two free: two bots fill them.
  for (int i = 0; i < 2; ++i) {
    ++seq;
    node.send_request("a", conn, seq, code, {{"type", "add_bot"}, {"id", seq}, {"room", code}},
                      "Cy");
    const auto bot = node.reply(conn, seq);
    ASSERT_TRUE(bot && bot->value("type", "") == "ok") << (bot ? bot->dump() : "no reply");
  }
}

// A move or a bot that goes unanswered may have been made all the same (its receipt may be what
// was lost), and asked for again it would be made twice: its player is told to look first.
TEST_F(ClusterForwardingTest, AnUnansweredBotRequestSaysToSyncBeforeAskingAgain) {
  const std::uint16_t port_b = start("b");
  FakeNode owner(*redis_, "a");
  const std::string code = "R8QDK6";
  owner.own(*redis_, code);

  auto bob = greet(port_b, "Bob");
  const auto join = owner.seat(*bob, "b", code);
  ASSERT_TRUE(join) << logs();

  bob->send({{"type", "add_bot"}, {"id", 2}, {"room", code}});
  ASSERT_TRUE(owner.next_request()) << "node b did not forward add_bot\n" << logs();
  const auto unanswered = bob->receive(10s);
  ASSERT_TRUE(unanswered) << logs();
  EXPECT_EQ(unanswered->value("code", ""), "unavailable") << unanswered->dump();
  const std::string message = unanswered->value("message", "");
  EXPECT_NE(message.find("send sync"), std::string::npos) << message;
  EXPECT_EQ(message.find("try again"), std::string::npos) << message;
}

// A join reaches the room's node, which says so, but its answer never comes back: the membership
// notice may have been lost with it, and a sync would then be refused as not_in_room. The player
// is told to join again, which the room's node answers as the first time.
TEST_F(ClusterForwardingTest, AJoinWhoseAnswerWasLostIsToBeSentAgain) {
  const std::uint16_t port_b = start("b");
  FakeNode owner(*redis_, "a");
  const std::string code = "R8QDK8";
  owner.own(*redis_, code);

  auto bob = greet(port_b, "Bob");
  bob->send({{"type", "join"}, {"id", 1}, {"room", code}});
  auto join = owner.next_request();
  ASSERT_TRUE(join) << "node b did not forward the join\n" << logs();
  // The receipt alone.
  owner.send_frames("b", join->conn, join->number, {});
  const auto lost = bob->receive(20s);
  ASSERT_TRUE(lost) << logs();
  EXPECT_EQ(lost->value("code", ""), "unavailable") << lost->dump();
  EXPECT_EQ(lost->value("id", 0), 1) << lost->dump();
  const std::string message = lost->value("message", "");
  EXPECT_NE(message.find("send the request again"), std::string::npos) << message;
}

// A leave that goes unanswered (it may never have reached the room's node) is answered with
// `unavailable`, and the player leaves again. The second leave goes to the room's node as well,
// not refused by the player's own node as being for a room it has already left: else the seat
// would stay taken there by a connection whose player believes it is out.
TEST_F(ClusterForwardingTest, ALeaveRepeatedAfterNoAnswerGoesToTheRoomsNode) {
  const std::uint16_t port_b = start("b");
  FakeNode owner(*redis_, "a");
  const std::string code = "R8QDK5";
  owner.own(*redis_, code);

  auto bob = greet(port_b, "Bob");
  const auto join = owner.seat(*bob, "b", code);
  ASSERT_TRUE(join) << logs();

  bob->send({{"type", "leave"}, {"id", 2}, {"room", code}});
  auto leave = owner.next_request();
  ASSERT_TRUE(leave) << "node b did not forward the leave\n" << logs();
  EXPECT_EQ(json::parse(leave->text).value("type", ""), "leave") << leave->text;
  // Nothing comes back, as if the leave had been lost on its way.
  const auto unanswered = bob->receive(10s);
  ASSERT_TRUE(unanswered) << logs();
  EXPECT_EQ(unanswered->value("code", ""), "unavailable") << unanswered->dump();
  EXPECT_EQ(unanswered->value("id", 0), 2) << unanswered->dump();

  // The repeated leave reaches the room's node, which answers it.
  EXPECT_TRUE(owner.answer(*bob, "b", *join, {{"type", "leave"}, {"id", 3}, {"room", code}},
                           {{"type", "left"}, {"room", code}}))
      << logs();
}

// A player told its leave went unanswered may not leave again but go to another room: the room's
// node, which may never have had the leave, then hears that the connection left, or the seat
// would stay taken there by a connection that is still open.
TEST_F(ClusterForwardingTest, AnUnansweredLeaveIsMadeGoodWhenThePlayerEntersAnotherRoom) {
  const std::uint16_t port_b = start("b");
  FakeNode owner(*redis_, "a");
  const std::string code = "R8QDK7";
  owner.own(*redis_, code);

  auto bob = greet(port_b, "Bob");
  const auto join = owner.seat(*bob, "b", code);
  ASSERT_TRUE(join) << logs();
  bob->send({{"type", "leave"}, {"id", 2}, {"room", code}});
  ASSERT_TRUE(owner.next_request()) << "node b did not forward the leave\n" << logs();
  const auto unanswered = bob->receive(10s);
  ASSERT_TRUE(unanswered && unanswered->value("code", "") == "unavailable") << logs();

  // A room of node b's own.
  const auto created = bob->request({{"type", "create_room"}, {"game", "pinocchio"}, {"seats", 3}});
  ASSERT_TRUE(created && created->value("type", "") == "joined")
      << (created ? created->dump() : "no reply");
  const auto gone = owner.next(cluster::BusItem::Kind::kGone);
  ASSERT_TRUE(gone) << "the room's node was not told the connection left\n" << logs();
  EXPECT_EQ(gone->conn, join->conn);
  EXPECT_EQ(gone->room, code);
}

}  // namespace
}  // namespace campfire::server::testing
