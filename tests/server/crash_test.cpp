// The real server process, killed with SIGKILL again and again while rooms of every game are being
// played, then restarted on the same data directory. Nothing any client was told may be lost:
// every move a client saw acknowledged is in the room's log at the place it was acknowledged, every
// state a client saw equals a replay of the log up to that state, and every game still plays to the
// end. SIGTERM drains: the server tells its clients, commits what it accepted and exits 0.
#include <gtest/gtest.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <random>
#include <thread>

#include "clients/common/connection.hpp"
#include "engine/core/match.hpp"
#include "engine/core/registry.hpp"
#include "tests/server/server_fixture.hpp"
#include "tests/support/child_server.hpp"

namespace campfire::server::testing {
namespace {

using client::Connection;
using json = nlohmann::json;
using namespace std::chrono_literals;
namespace asio = boost::asio;

std::uint16_t free_port() {
  asio::io_context ioc;
  asio::ip::tcp::acceptor a(ioc, {asio::ip::make_address("127.0.0.1"), 0});
  return a.local_endpoint().port();
}

// One campfire-server child process, ready when it returns; its log is appended to across
// restarts.
class ServerProcess : public test::ChildServer {
 public:
  ServerProcess(const std::string& data_dir, std::uint16_t port)
      : ChildServer(CAMPFIRE_SERVER_BINARY,
                    {"--bind", "127.0.0.1", "--port", std::to_string(port), "--data-dir", data_dir,
                     "--test-mode", "--bot-delay-ms", "40", "--window-scale", "0.05", "--rate",
                     "5000", "--burst", "10000", "--log-level", "info"},
                    data_dir + "/server.log", Log::kAppend),
        port_(port) {
    if (!ready(port_)) throw std::runtime_error("the server did not start; see " + log_path());
  }
  std::uint16_t port() const { return port_; }

 private:
  std::uint16_t port_;
};

struct Table {
  std::string game;
  int seats = 0;
  std::string code;
  std::string token;
  int seat = -1;
  std::unique_ptr<Connection> conn;
  std::int64_t next_id = 1000;
  std::map<std::int64_t, json> pending;           // action requests in flight, by id
  long long max_moves = 0;                        // the most moves any state it saw contained
  std::vector<std::pair<long long, json>> acked;  // (log index, action) acknowledged by "ok"
  std::vector<std::pair<long long, json>> views;  // (moves, view) of states it saw
  json final_result;
  bool over = false;
  std::size_t states = 0;

  void on_message(const json& m, std::mt19937& rng) {
    const std::string type = m.value("type", "");
    if (m.contains("id") && m["id"].is_number_integer()) {
      auto it = pending.find(m["id"].get<std::int64_t>());
      if (it != pending.end()) {
        if (type == "ok") acked.emplace_back(m.at("move").get<long long>(), it->second);
        pending.erase(it);
      }
    }
    if (type != "state") return;
    ++states;
    const long long moves = m.value("moves", 0LL);
    max_moves = std::max(max_moves, moves);
    if (m.value("status", "") == "waiting") return;
    // Keep a sample of what was seen (every state early on, then every 7th).
    if (views.size() < 40 || states % 7 == 0) views.emplace_back(moves, m["view"]);
    if (m.value("status", "") == "over") {
      over = true;
      final_result = m["result"];
      return;
    }
    const json& legal = m["legal"];
    if (!pending.empty() || !legal.is_array() || legal.empty()) return;
    const json action = legal[std::uniform_int_distribution<std::size_t>(0, legal.size() - 1)(rng)];
    const std::int64_t id = next_id++;
    pending[id] = action;
    conn->send({{"type", "action"}, {"id", id}, {"room", code}, {"action", action}});
  }

  // Reads whatever has arrived; false when the connection is gone.
  bool pump(std::mt19937& rng) {
    if (!conn) return false;
    for (int i = 0; i < 200; ++i) {
      auto m = conn->receive(1ms);
      if (!m) return conn->open();
      on_message(*m, rng);
    }
    return true;
  }
};

std::unique_ptr<Connection> greet(std::uint16_t port) {
  auto c = std::make_unique<Connection>("127.0.0.1", port);
  const auto w = c->request({{"type", "hello"}, {"protocol", 1}, {"name", "Crash tester"}});
  if (!w || w->value("type", "") != "welcome") throw std::runtime_error("no welcome");
  return c;
}

class CrashTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ =
        std::filesystem::temp_directory_path() / ("campfire-crash-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override {
    if (!HasFailure()) std::filesystem::remove_all(dir_);
  }
  std::filesystem::path dir_;
};

int env_int(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v != nullptr ? std::atoi(v) : fallback;
}

TEST_F(CrashTest, KilledAgainAndAgainLosesNothingAcknowledged) {
  const int kills = std::max(1, env_int("CAMPFIRE_CRASH_KILLS", 6));
  const std::uint64_t seed = static_cast<std::uint64_t>(env_int("CAMPFIRE_SEED", 0)) != 0
                                 ? static_cast<std::uint64_t>(env_int("CAMPFIRE_SEED", 0))
                                 : std::random_device{}();
  std::cout << "crash test seed " << seed << " (CAMPFIRE_SEED to replay), " << kills << " kills\n";
  std::mt19937 rng(static_cast<std::uint32_t>(seed));
  const std::uint16_t port = free_port();
  auto server = std::make_unique<ServerProcess>(dir_.string(), port);

  // Two rooms of every game, one player each, bots in the other seats.
  std::vector<Table> tables;
  for (const Game* g : Registry::builtin().games()) {
    for (int copy = 0; copy < 2; ++copy) {
      Table t;
      t.game = g->info().id;
      t.seats = copy == 0 ? g->info().min_seats : std::min(g->info().max_seats, 4);
      t.conn = greet(port);
      const auto j = t.conn->request({{"type", "create_room"},
                                      {"game", t.game},
                                      {"seats", t.seats},
                                      {"seed", static_cast<std::uint64_t>(rng())}});
      ASSERT_TRUE(j && j->value("type", "") == "joined") << (j ? j->dump() : "no reply");
      t.code = (*j)["room"];
      t.token = (*j)["token"];
      t.seat = (*j)["seat"];
      for (int s = 1; s < t.seats; ++s) {
        const auto b = t.conn->request({{"type", "add_bot"}, {"room", t.code}});
        ASSERT_TRUE(b && b->value("type", "") == "ok") << (b ? b->dump() : "no reply");
      }
      const auto st = t.conn->request({{"type", "start"}, {"room", t.code}});
      ASSERT_TRUE(st && st->value("type", "") == "ok") << (st ? st->dump() : "no reply");
      tables.push_back(std::move(t));
    }
  }

  auto play_for = [&](std::chrono::milliseconds span) {
    const auto until = std::chrono::steady_clock::now() + span;
    while (std::chrono::steady_clock::now() < until) {
      bool all_over = true;
      for (Table& t : tables) {
        t.pump(rng);
        all_over &= t.over;
      }
      if (all_over) return;
    }
  };

  auto reconnect_all = [&] {
    for (Table& t : tables) {
      t.conn = greet(port);
      t.pending.clear();
      const auto j = t.conn->request({{"type", "rejoin"}, {"room", t.code}, {"token", t.token}});
      ASSERT_TRUE(j && j->value("type", "") == "joined")
          << t.code << ": " << (j ? j->dump() : "no reply");
      // The first state after the restart holds at least everything seen before.
      const long long before = t.max_moves;
      std::optional<json> state;
      for (int i = 0; i < 50 && !state; ++i) {
        auto m = t.conn->receive(2s);
        ASSERT_TRUE(m) << t.code << ": no state after rejoin";
        if (m->value("type", "") == "state") state = *m;
      }
      ASSERT_GE(state->value("moves", 0LL), before)
          << t.code << " (" << t.game << "): acknowledged moves were lost";
      t.on_message(*state, rng);
    }
  };

  int survived = 0;
  int interrupted = 0;  // games in the middle of play when the server died
  for (int k = 0; k < kills; ++k) {
    play_for(std::chrono::milliseconds(150 + static_cast<int>(rng() % 600)));
    for (const Table& t : tables) interrupted += t.over ? 0 : 1;
    server->kill_now();
    ++survived;
    for (Table& t : tables) t.conn.reset();
    server = std::make_unique<ServerProcess>(dir_.string(), port);
    reconnect_all();
    if (HasFatalFailure()) return;
  }

  // Every game still plays to its end.
  play_for(240s);
  std::size_t replayed = 0;
  std::size_t acknowledged = 0;
  std::size_t compared = 0;
  for (Table& t : tables) {
    ASSERT_TRUE(t.over) << t.code << " (" << t.game << ") did not finish";
    const auto [status, body] = http_get(port, "/api/replays/" + t.code);
    ASSERT_EQ(status, 200) << body;
    const json replay = json::parse(body);
    ASSERT_EQ(replay.value("status", ""), "over") << replay.dump().substr(0, 300);
    const json& log = replay["log"];
    EXPECT_EQ(static_cast<long long>(log.size()), t.max_moves) << t.code;
    for (const auto& [index, action] : t.acked) {
      ASSERT_LT(static_cast<std::size_t>(index), log.size()) << t.code;
      EXPECT_EQ(log[static_cast<std::size_t>(index)]["seat"], t.seat) << t.code << " #" << index;
      EXPECT_EQ(log[static_cast<std::size_t>(index)]["action"], action) << t.code << " #" << index;
      ++acknowledged;
    }
    auto full = Match::restore(Registry::builtin(), replay);
    ASSERT_TRUE(full.ok()) << t.code << ": " << full.error().message;
    EXPECT_TRUE(full->state().over());
    EXPECT_EQ(full->state().result().to_json(), t.final_result) << t.code;
    replayed += log.size();
    // Each sampled state equals the replay of the log up to it.
    for (const auto& [moves, view] : t.views) {
      json prefix = replay;
      prefix["log"] = json(log.begin(), log.begin() + moves);
      auto m = Match::restore(Registry::builtin(), prefix);
      ASSERT_TRUE(m.ok()) << m.error().message;
      EXPECT_EQ(m->state().view(t.seat), view) << t.code << " at move " << moves;
      ++compared;
    }
  }
  EXPECT_GT(interrupted, 0) << "no kill hit a game in progress";
  std::cout << "crash test: " << survived << " SIGKILLs survived (" << interrupted
            << " games interrupted mid-play), " << tables.size() << " games finished, " << replayed
            << " logged actions replayed, " << acknowledged
            << " acknowledged moves found in place, " << compared
            << " seen states equal to replays\n";
}

TEST_F(CrashTest, SigtermDrainsTellsClientsAndExitsCleanly) {
  const std::uint16_t port = free_port();
  auto server = std::make_unique<ServerProcess>(dir_.string(), port);
  auto c = greet(port);
  const auto j = c->request({{"type", "create_room"}, {"game", "pinocchio"}, {"seats", 3}});
  ASSERT_TRUE(j && j->value("type", "") == "joined");
  const std::string code = (*j)["room"];
  const std::string token = (*j)["token"];
  for (int i = 0; i < 2; ++i) {
    ASSERT_EQ(c->request({{"type", "add_bot"}, {"room", code}})->value("type", ""), "ok");
  }
  ASSERT_EQ(c->request({{"type", "start"}, {"room", code}})->value("type", ""), "ok");

  EXPECT_EQ(server->terminate(20s), 0) << "SIGTERM must end the server with status 0";
  // The client was told and the connection closed.
  bool told = false;
  while (auto m = c->receive(2s)) told |= m->value("type", "") == "notice" || m->contains("error");
  EXPECT_FALSE(c->open());
  EXPECT_TRUE(told) << "the client should hear why it is being disconnected";

  // And the room is there after the restart.
  server = std::make_unique<ServerProcess>(dir_.string(), port);
  auto again = greet(port);
  const auto r = again->request({{"type", "rejoin"}, {"room", code}, {"token", token}});
  ASSERT_TRUE(r && r->value("type", "") == "joined") << (r ? r->dump() : "no reply");
}

}  // namespace
}  // namespace campfire::server::testing
