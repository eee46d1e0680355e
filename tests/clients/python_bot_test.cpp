// clients/bot/python/bot.py, written from PROTOCOL.md alone, against the real server: proof that
// the page is enough to write a bot.
#include <unistd.h>

#include "tests/clients/client_test_support.hpp"

namespace campfire::test {
namespace {

constexpr const char* kPython = "/usr/bin/python3";

class PythonBot : public ClientTest {
 protected:
  void SetUp() override {
    // scripts/install-deps.sh installs both: missing means the set-up is broken, not optional.
    ASSERT_EQ(::access(kPython, X_OK), 0) << kPython << " is missing";
    Process probe({kPython, "-c", "import websockets"});
    ASSERT_EQ(probe.wait(30s), 0) << "python3-websockets is not installed";
    ClientTest::SetUp();
  }

  std::vector<std::string> python_args(std::vector<std::string> extra) const {
    std::vector<std::string> args = {kPython, CAMPFIRE_SOURCE_DIR "/clients/bot/python/bot.py",
                                     "--port", port()};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  }
};

TEST_F(PythonBot, FinishesAGameAgainstServerBots) {
  Process bot(python_args({"--seats", "3", "--fill-bots", "--seed", "1"}));
  ASSERT_EQ(bot.wait(30s), 0) << bot.output();
  EXPECT_NE(bot.output().find("game over: seat 0 placed "), std::string::npos) << bot.output();
  EXPECT_NE(bot.output().find("* "), std::string::npos) << "events are printed";
  EXPECT_EQ(bot.output().find("refused"), std::string::npos) << bot.output();
  // PROTOCOL.md "Writing a bot", step 1: it adds its entropy before the start, and afterwards
  // checks the replay against the commitment it saw and the entropy it gave.
  EXPECT_NE(bot.output().find("contributed to the shuffle"), std::string::npos) << bot.output();
  EXPECT_NE(bot.output().find("shuffle: fair (commitment, our contribution, seed and deck order)"),
            std::string::npos)
      << bot.output();
}

// PROTOCOL.md "Writing a bot": act once per decision and wait for the reply. Tricky Tribes'
// exchange is simultaneous and the server bots answer at once, so the states of their moves reach
// the bot while its own move is on its way; acting on those again used to draw two dozen
// `stale` refusals a game.
TEST_F(PythonBot, ActsOncePerDecisionInSimultaneousPhases) {
  for (const char* seed : {"1", "2", "3"}) {
    Process bot(
        python_args({"--game", "tricky-tribes", "--seats", "4", "--fill-bots", "--seed", seed}));
    ASSERT_EQ(bot.wait(60s), 0) << bot.output();
    EXPECT_NE(bot.output().find("game over: seat 0 placed "), std::string::npos) << bot.output();
    EXPECT_GT(lines_starting(bot.output(), "> ").size(), 20u) << bot.output();
    EXPECT_EQ(bot.output().find("refused"), std::string::npos) << bot.output();
  }
}

TEST_F(PythonBot, PlaysAgainstTheReferenceBot) {
  Process python(python_args({"--seats", "2", "--seed", "2"}));
  std::string room;
  for (int i = 0; i < 10 && room.empty(); ++i) {
    const auto line = python.read_line(10s);
    ASSERT_TRUE(line) << python.output();
    if (line->rfind("room ", 0) == 0) room = line->substr(5, 6);
  }
  Process reference({CAMPFIRE_BOT_BINARY, "--port", port(), "--room", room, "--quiet"});
  ASSERT_EQ(python.wait(30s), 0) << python.output();
  ASSERT_EQ(reference.wait(30s), 0) << reference.output();
  EXPECT_NE(python.output().find("game over: seat 0 placed "), std::string::npos);
  EXPECT_NE(python.output().find("shuffle: fair"), std::string::npos) << python.output();
  EXPECT_NE(reference.output().find("game over in room " + room + ": seat 1"), std::string::npos)
      << reference.output();
}

}  // namespace
}  // namespace campfire::test
