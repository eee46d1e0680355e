// campfire-bot as a user runs it: a separate process against a real server on 127.0.0.1.
#include <set>

#include "tests/clients/client_test_support.hpp"

namespace campfire::test {
namespace {

// The bot's machine-readable result line, checked for consistency with its seat count.
json parse_result(const std::string& output, std::size_t seats) {
  const auto lines = lines_starting(output, "result ");
  EXPECT_EQ(lines.size(), 1u) << output;
  if (lines.empty()) return json();
  const json r = json::parse(lines.front());
  const json& places = r["result"]["places"];
  EXPECT_EQ(places.size(), seats);
  const int seat = r["seat"].get<int>();
  EXPECT_EQ(r["place"], places[static_cast<std::size_t>(seat)]);
  int best = 99;
  for (const json& p : places) {
    EXPECT_GE(p.get<int>(), 1);
    EXPECT_LE(p.get<int>(), static_cast<int>(seats));
    best = std::min(best, p.get<int>());
  }
  EXPECT_EQ(best, 1) << "someone is always first";
  bool listed_winner = false;
  for (const json& w : r["result"]["winners"]) {
    EXPECT_EQ(places[w.get<std::size_t>()], 1);
    listed_winner |= w.get<int>() == seat;
  }
  EXPECT_EQ(r["won"].get<bool>(), listed_winner);
  return r;
}

std::string room_of(Process& p) {
  for (int i = 0; i < 20; ++i) {
    const auto line = p.read_line(10s);
    if (!line) break;
    if (line->rfind("room ", 0) == 0) return line->substr(5, 6);
  }
  ADD_FAILURE() << "no room code printed:\n" << p.output();
  return "";
}

class BotSeats : public ClientTest, public ::testing::WithParamInterface<int> {};

TEST_P(BotSeats, FillBotsPlaysPinocchioToTheEnd) {
  const int seats = GetParam();
  Process bot(bot_args({"--game", "pinocchio", "--seats", std::to_string(seats), "--fill-bots",
                        "--seed", "42", "--deal-seed", std::to_string(seats)}));
  ASSERT_EQ(bot.wait(30s), 0) << bot.output();
  parse_result(bot.output(), static_cast<std::size_t>(seats));
  EXPECT_NE(bot.output().find("game over in room"), std::string::npos);
  EXPECT_EQ(bot.output().find("rate_limited"), std::string::npos) << bot.output();
  EXPECT_EQ(bot.output().find("refused"), std::string::npos) << bot.output();
}

// Every seat a campfire-bot process: one creates the room and prints its code, the others join.
TEST_P(BotSeats, SeveralBotProcessesPlayEachOtherInOneRoom) {
  const int seats = GetParam();
  Process creator(
      bot_args({"--seats", std::to_string(seats), "--seed", "1", "--quiet", "--name", "creator"}));
  const std::string room = room_of(creator);
  ASSERT_FALSE(room.empty());
  std::vector<std::unique_ptr<Process>> joiners;
  for (int s = 1; s < seats; ++s) {
    joiners.push_back(
        std::make_unique<Process>(bot_args({"--room", room, "--seed", std::to_string(s + 1),
                                            "--quiet", "--name", "joiner " + std::to_string(s)})));
  }
  std::vector<json> results;
  ASSERT_EQ(creator.wait(30s), 0) << creator.output();
  results.push_back(parse_result(creator.output(), static_cast<std::size_t>(seats)));
  for (auto& j : joiners) {
    ASSERT_EQ(j->wait(30s), 0) << j->output();
    results.push_back(parse_result(j->output(), static_cast<std::size_t>(seats)));
  }
  std::set<int> seen_seats;
  for (const json& r : results) {
    EXPECT_EQ(r["room"], room);
    EXPECT_EQ(r["result"], results.front()["result"]) << "every player sees the same result";
    seen_seats.insert(r["seat"].get<int>());
  }
  EXPECT_EQ(seen_seats.size(), static_cast<std::size_t>(seats)) << "one seat each";
}

INSTANTIATE_TEST_SUITE_P(Pinocchio, BotSeats, ::testing::Range(2, 7),
                         [](const auto& p) { return std::to_string(p.param) + "Seats"; });

using CampfireBot = ClientTest;

TEST_F(CampfireBot, RejoinsWithItsTokenAfterTheConnectionDrops) {
  Process bot(bot_args({"--seats", "3", "--fill-bots", "--seed", "5", "--drop-after", "3"}));
  ASSERT_EQ(bot.wait(30s), 0) << bot.output();
  EXPECT_NE(bot.output().find("connection lost; rejoining"), std::string::npos) << bot.output();
  EXPECT_NE(bot.output().find("rejoined room"), std::string::npos) << bot.output();
  parse_result(bot.output(), 3);
}

TEST_F(CampfireBot, SameSeedsPlayTheSameGame) {
  const auto args = bot_args({"--seats", "4", "--fill-bots", "--seed", "9", "--deal-seed", "3"});
  Process first(args);
  Process second(args);
  ASSERT_EQ(first.wait(30s), 0) << first.output();
  ASSERT_EQ(second.wait(30s), 0) << second.output();
  const auto moves = lines_starting(first.output(), "> ");
  EXPECT_FALSE(moves.empty());
  EXPECT_EQ(moves, lines_starting(second.output(), "> "));
  EXPECT_EQ(parse_result(first.output(), 4)["result"], parse_result(second.output(), 4)["result"]);
}

// PROTOCOL.md "Writing a bot": act once per decision and wait for the reply. Tricky Tribes'
// exchange is simultaneous and the server bots answer at once, so the states their moves bring
// reach the bot while its own move is on its way, still offering the choice it just made; acting
// on every new state drew `stale` refusals.
TEST_F(CampfireBot, ActsOncePerDecisionInSimultaneousPhases) {
  for (const char* deal : {"1", "2", "3"}) {
    Process bot(bot_args({"--game", "tricky-tribes", "--seats", "4", "--fill-bots", "--seed",
                          deal, "--deal-seed", deal}));
    ASSERT_EQ(bot.wait(60s), 0) << bot.output();
    parse_result(bot.output(), 4);
    EXPECT_GT(lines_starting(bot.output(), "> ").size(), 20u) << bot.output();
    EXPECT_EQ(bot.output().find("refused"), std::string::npos) << bot.output();
  }
}

// PROTOCOL.md "Writing a bot": contribute to the shuffle after taking the seat, and check the
// replay after the game against the commitment seen at the start and our own contribution.
TEST_F(CampfireBot, ContributesToTheShuffleAndChecksItAfterTheGame) {
  Process bot(bot_args({"--game", "tricky-tribes", "--seats", "3", "--fill-bots", "--seed", "4"}));
  ASSERT_EQ(bot.wait(30s), 0) << bot.output();
  EXPECT_NE(bot.output().find("contributed to the shuffle"), std::string::npos) << bot.output();
  EXPECT_NE(bot.output().find("shuffle: fair (commitment, our contribution, seed and deck order)"),
            std::string::npos)
      << bot.output();
  parse_result(bot.output(), 3);
}

// A deal the creator fixed (a test-mode seed) takes no contribution and proves nothing: the bot
// says so and plays on; --no-verify leaves the replay alone.
TEST_F(CampfireBot, AFixedDealTakesNoContributionAndIsSaidToBeFixed) {
  Process fixed(bot_args({"--seats", "2", "--fill-bots", "--seed", "4", "--deal-seed", "8"}));
  ASSERT_EQ(fixed.wait(30s), 0) << fixed.output();
  EXPECT_NE(fixed.output().find("no contribution to the shuffle"), std::string::npos)
      << fixed.output();
  EXPECT_NE(fixed.output().find("shuffle: a fixed deal"), std::string::npos) << fixed.output();
  Process unchecked(bot_args({"--seats", "2", "--fill-bots", "--seed", "4", "--no-verify"}));
  ASSERT_EQ(unchecked.wait(30s), 0) << unchecked.output();
  EXPECT_NE(unchecked.output().find("contributed to the shuffle"), std::string::npos)
      << unchecked.output();
  EXPECT_EQ(unchecked.output().find("shuffle:"), std::string::npos) << unchecked.output();
}

TEST_F(CampfireBot, PlaysSeveralGamesInARow) {
  Process bot(bot_args({"--seats", "2", "--fill-bots", "--games", "3", "--quiet"}));
  ASSERT_EQ(bot.wait(30s), 0) << bot.output();
  EXPECT_EQ(lines_starting(bot.output(), "result ").size(), 3u) << bot.output();
  EXPECT_EQ(lines_starting(bot.output(), "won ").size(), 1u) << bot.output();
}

TEST_F(CampfireBot, FailsOnAnUnknownRoom) {
  Process bot(bot_args({"--room", "ZZZZZZ"}));
  EXPECT_NE(bot.wait(30s), 0);
  EXPECT_NE(bot.output().find("no_such_room"), std::string::npos) << bot.output();
}

TEST_F(CampfireBot, FailsOnBadOptions) {
  Process bot(bot_args({"--seats", "3", "--options", R"({"startSeat": 17})"}));
  EXPECT_NE(bot.wait(30s), 0);
  EXPECT_NE(bot.output().find("bad_options"), std::string::npos) << bot.output();
}

TEST_F(CampfireBot, FailsWithoutAServer) {
  const std::string gone = port();
  server_.reset();
  Process bot({CAMPFIRE_BOT_BINARY, "--port", gone, "--seats", "2", "--fill-bots"});
  EXPECT_NE(bot.wait(30s), 0);
}

}  // namespace
}  // namespace campfire::test
