// Every move enters a room through one commit, whatever its cause: a player's action, a timed
// window closing, a turn timer running out, a server bot, a bot standing in for an away player.
// Each test drives one cause (no network; the room's own timers on a local io_context) and checks
// the three things a commit does besides applying the move: the journal holds it, the metrics
// count it under its cause, and every member is sent the change.
#include <gtest/gtest.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/asio/io_context.hpp>
#include <chrono>
#include <functional>
#include <map>

#include "engine/core/match.hpp"
#include "engine/core/registry.hpp"
#include "server/room.hpp"

namespace campfire::server::testing {
namespace {

using namespace std::chrono_literals;

struct RecordingClient final : Client {
  void send(Frame frame) override { messages.push_back(json::parse(*frame)); }
  void entered(const std::string&) override {}
  void evicted(const std::string&) override {}

  // The messages of one type, oldest first.
  std::vector<json> of_type(const std::string& type) const {
    std::vector<json> out;
    for (const json& m : messages) {
      if (m["type"] == type) out.push_back(m);
    }
    return out;
  }
  json last_state() const {
    const auto states = of_type("state");
    return states.empty() ? json() : states.back();
  }
  std::vector<json> messages;
};

// Keeps every record the room writes (nothing is stored; writes complete at once).
struct RecordingJournal final : NullJournal {
  void write(Record r, Done done) override {
    records.push_back(std::move(r));
    if (done) done(true);
  }
  std::vector<StoredAction> actions() const {
    std::vector<StoredAction> out;
    for (const Record& r : records) {
      if (r.kind == Record::Kind::kAction) out.push_back(r.action);
    }
    return out;
  }
  std::vector<Record> records;
};

class CommitTest : public ::testing::Test {
 protected:
  void SetUp() override {
    spdlog::set_level(spdlog::level::warn);
    config_.test_mode = true;
    config_.window_scale = 0.01;  // a 2 s window or turn becomes 20 ms
    config_.bot_delay_ms = 1;
  }
  void TearDown() override {
    if (room_) room_->shutdown();
    ioc_.restart();
    ioc_.poll();
  }

  // A started room of `seats` players (seat 0 first), `bots` of them server bots at the end.
  void open(const char* game, int seats, RoomSettings settings, int bots = 0,
            std::uint64_t seed = 11) {
    const Game& g = *Registry::builtin().find(game);
    game_ = &g;
    room_ = std::make_shared<Room>(ioc_, config_, journal_, metrics_, "COMMIT",
                                   std::move(*Match::create(g, seats, json::object(), seed)), false,
                                   settings);
    for (int s = 0; s < seats - bots; ++s) {
      players_.push_back(std::make_shared<RecordingClient>());
      room_->join(players_.back(), "P" + std::to_string(s), s + 1, s);
    }
    for (int s = seats - bots; s < seats; ++s)
      room_->add_bot(players_.front(), 50 + s, s, "random");
    spectator_ = std::make_shared<RecordingClient>();
    room_->spectate(spectator_, 98);
    room_->start(players_.front(), 99);
    poll();
    ASSERT_EQ(players_.front()->last_state()["status"], "playing");
  }

  void poll() {
    ioc_.restart();
    ioc_.poll();
  }
  // Runs the room's timers until `done` holds (or a generous limit passes: a failure, not a wait).
  void run_until(const std::function<bool()>& done) {
    const auto limit = std::chrono::steady_clock::now() + 20s;
    while (!done() && std::chrono::steady_clock::now() < limit) {
      ioc_.restart();
      ioc_.run_one_for(5ms);
    }
    ASSERT_TRUE(done()) << "the room never got there";
  }

  // What every member (each seated player, and the spectator) last saw, and that the last change
  // reached each of them.
  void expect_published_to_all(std::size_t moves) {
    for (std::size_t s = 0; s < players_.size(); ++s) {
      SCOPED_TRACE("seat " + std::to_string(s));
      const json st = players_[s]->last_state();
      ASSERT_FALSE(st.is_null());
      EXPECT_EQ(st["moves"], moves);
      EXPECT_EQ(st["seat"], s);
    }
    const json watched = spectator_->last_state();
    ASSERT_FALSE(watched.is_null());
    EXPECT_EQ(watched["moves"], moves);
    EXPECT_TRUE(watched["seat"].is_null());
    EXPECT_EQ(watched["version"], players_.front()->last_state()["version"]);
  }

  std::uint64_t moves(MoveCause c) const { return metrics_.moves(c); }
  std::uint64_t all_moves() const {
    std::uint64_t n = 0;
    for (std::size_t i = 0; i < kMoveCauses; ++i) n += metrics_.moves(static_cast<MoveCause>(i));
    return n;
  }
  // The acting seat of the last state seat 0 was sent.
  int acting() const { return players_.front()->last_state()["toAct"][0].get<int>(); }

  boost::asio::io_context ioc_;
  Config config_;
  RecordingJournal journal_;
  Metrics metrics_;
  const Game* game_ = nullptr;
  std::shared_ptr<Room> room_;
  std::vector<std::shared_ptr<RecordingClient>> players_;
  std::shared_ptr<RecordingClient> spectator_;
};

TEST_F(CommitTest, APlayersActionIsJournaledCountedRepliedAndPublished) {
  open("pinocchio", 2, RoomSettings{});
  const int s = acting();
  auto& actor = *players_[static_cast<std::size_t>(s)];
  const json action = actor.last_state()["legal"][0];
  const long long version = actor.last_state()["version"];
  actor.messages.clear();
  room_->action(players_[static_cast<std::size_t>(s)], 7, action, version);
  poll();

  const auto logged = journal_.actions();
  ASSERT_EQ(logged.size(), 1u);
  EXPECT_EQ(logged[0].seat, s);
  EXPECT_EQ(logged[0].action, action);
  EXPECT_EQ(moves(MoveCause::kPlayer), 1u);
  EXPECT_EQ(all_moves(), 1u);
  EXPECT_EQ(metrics_.actions(), 1u);  // players' actions, with their latency
  // The reply comes before the change it caused, and names the new version and move.
  ASSERT_GE(actor.messages.size(), 2u);
  EXPECT_EQ(actor.messages.front()["type"], "ok");
  EXPECT_EQ(actor.messages.front()["id"], 7);
  EXPECT_EQ(actor.messages.front()["version"], version + 1);
  EXPECT_EQ(actor.messages.front()["move"], 0);
  EXPECT_EQ(actor.last_state()["version"], version + 1);
  expect_published_to_all(1);
}

TEST_F(CommitTest, ARefusedMoveChangesNothing) {
  open("pinocchio", 2, RoomSettings{});
  const int s = acting();
  const int other = 1 - s;
  const std::size_t records = journal_.records.size();
  const json before = players_[0]->last_state();
  // Out of turn, then a move the game does not know.
  room_->action(players_[static_cast<std::size_t>(other)], 1,
                players_[static_cast<std::size_t>(s)]->last_state()["legal"][0], std::nullopt);
  room_->action(players_[static_cast<std::size_t>(s)], 2, json{{"move", "juggle"}}, std::nullopt);
  poll();
  EXPECT_EQ(journal_.records.size(), records);
  EXPECT_EQ(all_moves(), 0u);
  EXPECT_EQ(metrics_.actions(), 0u);
  EXPECT_EQ(players_[0]->last_state(), before);
  ASSERT_EQ(players_[static_cast<std::size_t>(other)]->of_type("error").size(), 1u);
  EXPECT_EQ(players_[static_cast<std::size_t>(other)]->of_type("error")[0]["code"],
            "not_your_turn");
  ASSERT_EQ(players_[static_cast<std::size_t>(s)]->of_type("error").size(), 1u);
}

TEST_F(CommitTest, AClosingWindowIsJournaledCountedAndPublished) {
  // Spider Monkey opens with a timed peek at two cards; nobody peeks, so the window closes.
  open("spider-monkey", 2, RoomSettings{});
  ASSERT_TRUE(players_[0]->last_state()["window"].is_object());
  run_until([&] { return moves(MoveCause::kWindowTimeout) >= 1; });

  const auto logged = journal_.actions();
  ASSERT_EQ(logged.size(), 1u);
  EXPECT_EQ(logged[0].seat, kSystem);
  const auto decoded = game_->action_from_json(logged[0].action);
  ASSERT_TRUE(decoded);
  EXPECT_TRUE(decoded->is_timeout());
  EXPECT_EQ(all_moves(), 1u);
  EXPECT_EQ(metrics_.actions(), 0u);
  expect_published_to_all(1);
  EXPECT_TRUE(players_[0]->last_state()["window"].is_null());
}

TEST_F(CommitTest, ATurnTimersFallbackIsJournaledCountedAndPublished) {
  RoomSettings settings;
  settings.turn_seconds = 2;
  open("pinocchio", 2, settings);
  const int s = acting();
  ASSERT_TRUE(players_[0]->last_state()["turn"].is_object());
  Match mirror = std::move(*Match::create(*game_, 2, json::object(), 11));
  const json expected = game_->action_to_json(mirror.state().fallback_action(s));
  run_until([&] { return moves(MoveCause::kTurnTimer) >= 1; });

  const auto logged = journal_.actions();
  ASSERT_EQ(logged.size(), 1u);
  EXPECT_EQ(logged[0].seat, s);
  EXPECT_EQ(logged[0].action, expected);
  EXPECT_EQ(all_moves(), 1u);
  EXPECT_EQ(metrics_.actions(), 0u);
  expect_published_to_all(1);
  // Everyone is told why the move was made, before the change it caused.
  auto members = players_;
  members.push_back(spectator_);
  for (const auto& p : members) {
    const auto events = p->of_type("event");
    ASSERT_FALSE(events.empty());
    EXPECT_EQ(events.front()["event"]["type"], "turn_timeout");
    EXPECT_EQ(events.front()["event"]["seat"], s);
  }
}

TEST_F(CommitTest, ATurnTimersBotChoiceIsCountedAsTheTurnTimers) {
  RoomSettings settings;
  settings.turn_seconds = 2;
  settings.timeout_bot = true;
  open("pinocchio", 2, settings);
  const int s = acting();
  const json legal = players_[static_cast<std::size_t>(s)]->last_state()["legal"];
  run_until([&] { return moves(MoveCause::kTurnTimer) >= 1; });

  const auto logged = journal_.actions();
  ASSERT_EQ(logged.size(), 1u);
  EXPECT_EQ(logged[0].seat, s);
  EXPECT_NE(std::find(legal.begin(), legal.end(), logged[0].action), legal.end());
  EXPECT_EQ(all_moves(), 1u);
  expect_published_to_all(1);
}

TEST_F(CommitTest, AServerBotsMovesAreJournaledCountedAndPublished) {
  open("pinocchio", 2, RoomSettings{}, /*bots=*/1);
  // The player plays whenever it is their turn; the bot answers on its own.
  run_until([&] {
    poll();
    const json st = players_[0]->last_state();
    if (st["status"] == "playing" && !st["legal"].empty()) {
      room_->action(players_[0], nullptr, st["legal"][0], st["version"].get<long long>());
    }
    return moves(MoveCause::kServerBot) >= 3;
  });
  poll();
  std::map<int, std::uint64_t> by_seat;
  for (const StoredAction& a : journal_.actions()) ++by_seat[a.seat];
  EXPECT_EQ(by_seat[1], moves(MoveCause::kServerBot));
  EXPECT_EQ(by_seat[0], moves(MoveCause::kPlayer));
  EXPECT_EQ(all_moves(), journal_.actions().size());
  EXPECT_EQ(moves(MoveCause::kTakeoverBot), 0u);
  // The player and the spectator saw every move, the bot's included.
  expect_published_to_all(journal_.actions().size());
}

TEST_F(CommitTest, ATakeoverBotsMovesAreJournaledCountedAndPublished) {
  RoomSettings settings;
  settings.grace_seconds = 2;
  settings.bot_takeover = true;
  open("pinocchio", 2, settings);
  room_->disconnected(players_[1]);
  poll();
  const std::size_t told = players_[1]->messages.size();
  run_until([&] {
    const json st = players_[0]->last_state();
    return st["players"][1].is_object() && st["players"][1]["away"] == true;
  });
  run_until([&] {
    poll();
    const json st = players_[0]->last_state();
    if (st["status"] == "playing" && !st["legal"].empty()) {
      room_->action(players_[0], nullptr, st["legal"][0], st["version"].get<long long>());
    }
    return moves(MoveCause::kTakeoverBot) >= 3;
  });
  poll();
  std::map<int, std::uint64_t> by_seat;
  for (const StoredAction& a : journal_.actions()) ++by_seat[a.seat];
  EXPECT_EQ(by_seat[1], moves(MoveCause::kTakeoverBot));
  EXPECT_EQ(by_seat[0], moves(MoveCause::kPlayer));
  EXPECT_EQ(moves(MoveCause::kServerBot), 0u);
  EXPECT_EQ(all_moves(), journal_.actions().size());
  EXPECT_EQ(players_[0]->last_state()["moves"], journal_.actions().size());
  EXPECT_EQ(spectator_->last_state()["moves"], journal_.actions().size());
  // Publishing reaches members only: the player who left was sent nothing more.
  EXPECT_EQ(players_[1]->messages.size(), told);
}

}  // namespace
}  // namespace campfire::server::testing
