// campfire-cli driven through a pipe, as a script would: the interactive commands and --json.
#include <filesystem>
#include <fstream>

#include "clients/common/connection.hpp"
#include "clients/common/pacer.hpp"
#include "tests/clients/client_test_support.hpp"

namespace campfire::test {
namespace {

namespace fs = std::filesystem;

class CampfireCli : public ClientTest {
 protected:
  void SetUp() override {
    ClientTest::SetUp();
    token_file_ = fs::temp_directory_path() /
                  ("campfire-cli-test-" + std::to_string(::getpid()) + "-" + port()) /
                  "tokens.json";
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(token_file_.parent_path(), ec);
    ClientTest::TearDown();
  }

  std::vector<std::string> cli_args(std::vector<std::string> extra) const {
    std::vector<std::string> args = {CAMPFIRE_CLI_BINARY, "--port", port(), "--token-file",
                                     token_file_.string()};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  }

  fs::path token_file_;
};

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST_F(CampfireCli, ScriptedCommandsPlayAGameToTheEnd) {
  Process cli(cli_args({"--name", "Andrea"}));
  std::string script =
      "help\ngames\nrooms\ncreate pinocchio 3 seed=5 startSeat=1\nbot\nbot\nsay hello table\n"
      "rooms\nstart\n";
  // More moves than a three-player game needs: once it is over each is refused in words.
  for (int i = 0; i < 80; ++i) script += i % 3 == 0 ? "2\n" : "1\n";
  script += "quit\n";
  cli.write(script);
  cli.close_stdin();
  ASSERT_EQ(cli.wait(30s), 0) << cli.output();
  const std::string& out = cli.output();
  EXPECT_TRUE(has(out, "connected to campfire")) << out;
  EXPECT_TRUE(has(out, "pinocchio  Pinocchio, 2-6 seats")) << out;
  EXPECT_TRUE(has(out, "startSeat=0  (int 0..5)")) << out;
  EXPECT_TRUE(has(out, "joined room ")) << out;
  EXPECT_TRUE(has(out, "seat 2  Bot 2 [bot]")) << out;
  EXPECT_TRUE(has(out, "3/3 seats, waiting")) << out;
  EXPECT_TRUE(has(out, "Andrea: hello table")) << out;
  EXPECT_TRUE(has(out, "your move (type its number):")) << out;
  EXPECT_TRUE(has(out, "1. play your card as ")) << out;
  EXPECT_TRUE(has(out, "your top card: ")) << out;
  EXPECT_TRUE(has(out, "* Andrea plays a card")) << out;
  EXPECT_TRUE(has(out, "game over. places: Andrea ")) << out;
  EXPECT_TRUE(has(out, "the game is over: nothing to play")) << out;
  EXPECT_FALSE(has(out, "error ")) << out;

  // The token was saved: a new client takes the seat back with the room code alone.
  const auto joined = lines_starting(out, "joined room ");
  ASSERT_FALSE(joined.empty());
  const std::string room = joined.front().substr(0, 6);
  std::ifstream tokens(token_file_);
  const json saved = json::parse(tokens);
  ASSERT_TRUE(saved.contains(room)) << saved.dump();
  Process again(cli_args({"--name", "Andrea"}));
  again.write("rejoin " + room + "\nquit\n");
  again.close_stdin();
  ASSERT_EQ(again.wait(30s), 0) << again.output();
  EXPECT_TRUE(has(again.output(), "joined room " + room + " as seat 1")) << again.output();
  EXPECT_TRUE(has(again.output(), ", over, ")) << again.output();
}

TEST_F(CampfireCli, MistakesAreExplainedNotFatal) {
  Process cli(cli_args({}));
  cli.write(
      "frobnicate\nbot\n3\ncreate pinocchio\ncreate nogame 3\ncreate pinocchio 9\n"
      "create pinocchio 2 startSeat=banana\njoin ZZZZZZ\nrejoin ZZZZZZ\nquit\n");
  cli.close_stdin();
  ASSERT_EQ(cli.wait(30s), 0) << cli.output();
  const std::string& out = cli.output();
  EXPECT_TRUE(has(out, "unknown command 'frobnicate'")) << out;
  EXPECT_TRUE(has(out, "you are not in a room")) << out;
  EXPECT_TRUE(has(out, "usage: create GAME SEATS")) << out;
  EXPECT_TRUE(has(out, "error unknown_game: ")) << out;
  EXPECT_TRUE(has(out, "error bad_seats: ")) << out;
  EXPECT_TRUE(has(out, "error bad_options: ")) << out;
  EXPECT_TRUE(has(out, "error no_such_room: ")) << out;
  EXPECT_TRUE(has(out, "no token remembered for room ZZZZZZ")) << out;
}

// --json: every received message is one JSON line; every JSON line sent is passed on as it is.
TEST_F(CampfireCli, JsonModeSpeaksTheRawProtocol) {
  Process cli(cli_args({"--json", "--name", "Scripter"}));
  auto next = [&]() -> json {
    const auto line = cli.read_line(10s);
    if (!line) return json();
    const json m = json::parse(*line, nullptr, false);
    EXPECT_FALSE(m.is_discarded()) << "not JSON: " << *line;
    return m;
  };
  json m = next();
  ASSERT_EQ(m.value("type", ""), "welcome") << cli.output();
  EXPECT_EQ(m["name"], "Scripter");
  cli.write(R"({"type":"create_room","id":"c","game":"pinocchio","seats":3,"seed":8})"
            "\n");
  std::string room;
  long long acted = -1;
  bool over = false;
  int moves = 0;
  const auto deadline = std::chrono::steady_clock::now() + 25s;
  while (!over && std::chrono::steady_clock::now() < deadline) {
    m = next();
    ASSERT_TRUE(m.is_object()) << cli.output();
    const std::string type = m.value("type", "");
    ASSERT_NE(type, "error") << m.dump();
    if (type == "joined") {
      room = m["room"];
      cli.write(json({{"type", "add_bot"}, {"id", "b1"}, {"room", room}}).dump() + "\n" +
                json({{"type", "add_bot"}, {"id", "b2"}, {"room", room}}).dump() + "\n");
    } else if (type == "ok" && m["id"] == "b2") {
      cli.write(json({{"type", "start"}, {"id", "s"}, {"room", room}}).dump() + "\n");
    } else if (type == "state" && !m["legal"].empty() && m["version"].get<long long>() > acted) {
      acted = m["version"];
      cli.write(json({{"type", "action"},
                      {"room", room},
                      {"version", acted},
                      {"action", m["legal"].back()}})
                    .dump() +
                "\n");
      ++moves;
    } else if (type == "game_over") {
      over = true;
    }
  }
  EXPECT_TRUE(over) << cli.output();
  EXPECT_GT(moves, 5);
  cli.close_stdin();
  EXPECT_EQ(cli.wait(30s), 0) << cli.output();
}

// A script may pipe requests and close its end at once: every reply still arrives before exit.
TEST_F(CampfireCli, JsonModeAnswersEveryRequestBeforeQuitting) {
  Process cli(cli_args({"--json"}));
  cli.write(R"({"type":"list_games","id":1})"
            "\n"
            R"({"type":"ping","id":"p"})"
            "\n"
            "not json\n");
  cli.close_stdin();
  ASSERT_EQ(cli.wait(30s), 0) << cli.output();
  std::vector<std::string> types;
  for (const auto& line : lines_starting(cli.output(), "{")) {
    types.push_back(json::parse("{" + line).value("type", ""));
  }
  EXPECT_EQ(types, (std::vector<std::string>{"welcome", "games", "pong"})) << cli.output();
  EXPECT_TRUE(has(cli.output(), "not a JSON object: not json")) << cli.output();
}

// A spectator sees the public view and the events in words, and is never offered a move.
TEST_F(CampfireCli, SpectatorWatchesAGameToTheEnd) {
  client::Connection player("127.0.0.1", port_);
  ASSERT_TRUE(player.request({{"type", "hello"}, {"protocol", 1}, {"name", "Bella"}}));
  const auto joined =
      player.request({{"type", "create_room"}, {"game", "pinocchio"}, {"seats", 2}, {"seed", 4}});
  ASSERT_TRUE(joined && (*joined)["type"] == "joined");
  const std::string room = (*joined)["room"];
  ASSERT_EQ(player.request({{"type", "add_bot"}, {"room", room}})->value("type", ""), "ok");

  Process cli(cli_args({"--name", "Watcher"}));
  cli.write("spectate " + room + "\nwait\nquit\n");
  cli.close_stdin();
  for (;;) {
    const auto line = cli.read_line(10s);
    ASSERT_TRUE(line) << cli.output();
    if (line->rfind("watching room", 0) == 0) break;
  }
  ASSERT_EQ(player.request({{"type", "start"}, {"room", room}})->value("type", ""), "ok");
  long long acted = -1;
  client::Pacer pacer;  // a two-seat game against a bot that does not think outruns the limit
  const auto deadline = std::chrono::steady_clock::now() + 25s;
  for (bool over = false; !over && std::chrono::steady_clock::now() < deadline;) {
    const auto m = player.receive(5s);
    ASSERT_TRUE(m);
    if ((*m)["type"] == "game_over") over = true;
    if ((*m)["type"] == "state" && !(*m)["legal"].empty() && (*m)["version"] > acted) {
      acted = (*m)["version"];
      pacer.wait();
      player.send({{"type", "action"}, {"room", room}, {"action", (*m)["legal"][0]}});
    }
  }
  ASSERT_EQ(cli.wait(30s), 0) << cli.output();
  const std::string& out = cli.output();
  EXPECT_TRUE(has(out, "spectating")) << out;
  EXPECT_TRUE(has(out, "* Bella plays a card")) << out;
  EXPECT_TRUE(has(out, "waiting for ")) << out;
  EXPECT_TRUE(has(out, "game over. places: Bella ")) << out;
  EXPECT_FALSE(has(out, "your move")) << out;
  EXPECT_FALSE(has(out, "your top card")) << out;
  EXPECT_FALSE(has(out, "you won")) << out;
}

}  // namespace
}  // namespace campfire::test
