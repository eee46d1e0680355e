// campfire-verify and clients/bot/python/verify.py as a user runs them, on the replay of a game
// that campfire-bot played against server bots: "fair" for the replay as served, and the
// difference named for a tampered one.
#include <unistd.h>

#include <fstream>

#include "clients/common/http_get.hpp"
#include "tests/clients/client_test_support.hpp"

namespace campfire::test {
namespace {

constexpr const char* kPython = "/usr/bin/python3";

class Verify : public ClientTest {
 protected:
  void SetUp() override {
    ASSERT_EQ(::access(kPython, X_OK), 0) << kPython << " is missing";
    ClientTest::SetUp();
    Process bot(bot_args({"--seats", "3", "--fill-bots", "--quiet", "--seed", "4"}));
    ASSERT_EQ(bot.wait(60s), 0) << bot.output();
    const auto rooms = lines_starting(bot.output(), "room ");
    ASSERT_FALSE(rooms.empty()) << bot.output();
    const auto got = client::http_get("127.0.0.1", port_, false, false,
                                      "/api/replays/" + rooms.front().substr(0, 6));
    ASSERT_EQ(got.status, 200) << got.body;
    replay_ = json::parse(got.body);
    ASSERT_TRUE(replay_.contains("fairness")) << got.body;
  }
  void TearDown() override {
    for (const auto& f : files_) std::filesystem::remove(f);
    ClientTest::TearDown();
  }

  std::string write(const json& replay) {
    const auto path =
        std::filesystem::temp_directory_path() / ("campfire-replay-" + std::to_string(::getpid()) +
                                                  "-" + std::to_string(files_.size()) + ".json");
    std::ofstream(path) << replay.dump(2);
    files_.push_back(path);
    return path.string();
  }
  // The replay with the first two different neighbouring cards of the deal swapped; `at` is
  // where the deal now differs.
  json tampered_deck(std::size_t& at) const {
    json t = replay_;
    json& deck = t["fairness"]["deck"];
    at = 0;
    while (at + 1 < deck.size() && deck[at] == deck[at + 1]) ++at;
    std::swap(deck[at], deck[at + 1]);
    return t;
  }

  json replay_;
  std::vector<std::filesystem::path> files_;
};

TEST_F(Verify, CampfireVerifySaysFairForAGameAsServed) {
  Process verify({CAMPFIRE_VERIFY_BINARY, write(replay_)});
  EXPECT_EQ(verify.wait(60s), 0) << verify.output();
  EXPECT_EQ(verify.output(), "fair\n");
  Process verbose({CAMPFIRE_VERIFY_BINARY, "--verbose", write(replay_)});
  EXPECT_EQ(verbose.wait(60s), 0) << verbose.output();
  EXPECT_NE(verbose.output().find("checked: the server seed matches the commitment"),
            std::string::npos)
      << verbose.output();
  EXPECT_NE(verbose.output().find("actions is legal when it was played"), std::string::npos);
}

TEST_F(Verify, CampfireVerifyNamesWhatATamperedReplayChanged) {
  std::size_t at = 0;
  Process deck({CAMPFIRE_VERIFY_BINARY, write(tampered_deck(at))});
  EXPECT_EQ(deck.wait(60s), 1) << deck.output();
  EXPECT_NE(deck.output().find("not fair"), std::string::npos) << deck.output();
  EXPECT_NE(deck.output().find("deck order differs at position " + std::to_string(at)),
            std::string::npos)
      << deck.output();

  // The first move (seat 0's, who plays first) said to come from seat 1.
  json t = replay_;
  t["log"][0]["seat"] = 1;
  Process action({CAMPFIRE_VERIFY_BINARY, write(t)});
  EXPECT_EQ(action.wait(60s), 1) << action.output();
  EXPECT_NE(action.output().find("action 0 (seat 1, "), std::string::npos) << action.output();

  Process missing({CAMPFIRE_VERIFY_BINARY, "/nonexistent/replay.json"});
  EXPECT_EQ(missing.wait(60s), 2) << missing.output();
  EXPECT_NE(missing.output().find("cannot read"), std::string::npos) << missing.output();
}

TEST_F(Verify, ThePythonScriptChecksTheCommitmentTheSeedAndTheDeal) {
  const std::string script = CAMPFIRE_SOURCE_DIR "/clients/bot/python/verify.py";
  Process fair({kPython, script, write(replay_)});
  EXPECT_EQ(fair.wait(60s), 0) << fair.output();
  EXPECT_EQ(fair.output().rfind("fair", 0), 0u) << fair.output();

  json seed = replay_;
  std::string s = seed["fairness"]["serverSeed"];
  s[0] = s[0] == 'a' ? 'b' : 'a';
  seed["fairness"]["serverSeed"] = s;
  Process commitment({kPython, script, write(seed)});
  EXPECT_EQ(commitment.wait(60s), 1) << commitment.output();
  EXPECT_NE(commitment.output().find("commitment: the revealed server seed does not match it"),
            std::string::npos)
      << commitment.output();

  json contribution = replay_;
  contribution["fairness"]["contributions"][0] = "0123456789abcdef";
  Process derived({kPython, script, write(contribution)});
  EXPECT_EQ(derived.wait(60s), 1) << derived.output();
  EXPECT_NE(derived.output().find("derived seed: the replay says"), std::string::npos)
      << derived.output();

  std::size_t at = 0;
  Process deck({kPython, script, write(tampered_deck(at))});
  EXPECT_EQ(deck.wait(60s), 1) << deck.output();
  EXPECT_NE(deck.output().find("deck order differs at position " + std::to_string(at)),
            std::string::npos)
      << deck.output();
}

}  // namespace
}  // namespace campfire::test
