// Every move enters a room through one commit, whatever its cause: a player's action, a timed
// window closing, a turn timer running out, a server bot, a bot standing in for an away player.
// Each test drives one cause (no network; the room's own timers on a local io_context) and checks
// the three things a commit does besides applying the move: the journal holds it, the metrics
// count it under its cause, and every member is sent the change.
#include <algorithm>
#include <map>

#include "tests/server/room_harness.hpp"

namespace campfire::server::testing {
namespace {

class CommitTest : public RoomHarness {
 protected:
  // Seat 0 plays its first legal move whenever it may act, while the other seat's moves come
  // from `cause`, until that cause has made three moves.
  void play_until_three_moves_by(MoveCause cause) {
    run_until([&] {
      poll();
      const json st = players_[0]->last_state();
      if (st["status"] == "playing" && !st["legal"].empty()) {
        room_->action(players_[0], nullptr, st["legal"][0], st["version"].get<long long>());
      }
      return moves(cause) >= 3;
    });
    poll();
  }
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
  play_until_three_moves_by(MoveCause::kServerBot);
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
  play_until_three_moves_by(MoveCause::kTakeoverBot);
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
