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

  // Runs campfire-cli as a script would: `script` on its standard input, then end of input.
  // Returns everything it printed; a non-zero exit fails the test.
  std::string run_script(std::vector<std::string> extra, const std::string& script) const {
    Process cli(cli_args(std::move(extra)));
    cli.write(script);
    cli.close_stdin();
    EXPECT_EQ(cli.wait(30s), 0) << cli.output();
    return cli.output();
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
  const std::string again_out = run_script({"--name", "Andrea"}, "rejoin " + room + "\nquit\n");
  EXPECT_TRUE(has(again_out, "joined room " + room + " as seat 1")) << again_out;
  EXPECT_TRUE(has(again_out, ", over, ")) << again_out;
}

TEST_F(CampfireCli, MistakesAreExplainedNotFatal) {
  const std::string out =
      run_script({},
                 "frobnicate\nbot\n3\ncreate pinocchio\ncreate nogame 3\ncreate pinocchio 9\n"
                 "create pinocchio 2 startSeat=banana\njoin ZZZZZZ\nrejoin ZZZZZZ\nquit\n");
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
  const std::string out = run_script({"--json"}, R"({"type":"list_games","id":1})"
                                                 "\n"
                                                 R"({"type":"ping","id":"p"})"
                                                 "\n"
                                                 "not json\n");
  std::vector<std::string> types;
  for (const auto& line : lines_starting(out, "{")) {
    types.push_back(json::parse("{" + line).value("type", ""));
  }
  EXPECT_EQ(types, (std::vector<std::string>{"welcome", "games", "pong"})) << out;
  EXPECT_TRUE(has(out, "not a JSON object: not json")) << out;
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

namespace campfire::test {
namespace {

class CampfireCliMore : public CampfireCli {
 protected:
  // Reads lines until one contains `part`; false when the output ends or 15 s pass first.
  static bool read_until(Process& p, const std::string& part) {
    const auto deadline = std::chrono::steady_clock::now() + 15s;
    while (std::chrono::steady_clock::now() < deadline) {
      const auto line = p.read_line(1s);
      if (line && has(*line, part)) return true;
    }
    return false;
  }
};

// Seats are named from 1, and a seat the room does not have is refused in those words.
TEST_F(CampfireCliMore, SeatsCountFromOneAndAMissingSeatIsNamed) {
  const std::string out =
      run_script({"--name", "Andrea"}, "create naked-gibbon 2\nbot 5\nbot 0\nbot 2\nbot 2\nquit\n");
  EXPECT_TRUE(has(out, "joined room ")) << out;
  EXPECT_TRUE(has(out, " as seat 1;")) << out;
  EXPECT_TRUE(has(out, "there is no seat 5: this room has seats 1 to 2")) << out;
  EXPECT_TRUE(has(out, "there is no seat 0: this room has seats 1 to 2")) << out;
  EXPECT_TRUE(has(out, "seat 2  Bot 2 [bot]")) << out;
  EXPECT_TRUE(has(out, "error room_full: that seat is taken")) << out;
}

// `bot` takes a seat and a strategy in either order; the table names each bot's strategy, and a
// strategy the server does not have is refused in words.
TEST_F(CampfireCliMore, BotTakesAStrategy) {
  Process cli(cli_args({"--name", "Andrea"}));
  // `sync` before `quit`: its answer comes after the last bot's state, so that state is printed.
  cli.write("games\ncreate pinocchio 4\nbot 2 expert\nbot Basic 4\nbot wizard\nbot\nsync\nquit\n");
  cli.close_stdin();
  ASSERT_EQ(cli.wait(30s), 0) << cli.output();
  const std::string& out = cli.output();
  EXPECT_TRUE(has(out, "seat 2  Bot 2 [bot] expert")) << out;
  EXPECT_TRUE(has(out, "seat 4  Bot 4 [bot] basic")) << out;
  EXPECT_TRUE(has(out, "seat 3  Bot 3 [bot] basic")) << out;
  // Refused by campfire-cli from the games list, or by the server if that list came late.
  EXPECT_TRUE(has(out, "a bot plays random, basic, expert, not 'wizard'") ||
              has(out, "unknown bot strategy 'wizard'"))
      << out;
}

// `create` takes the game's options (any case, yes/no for switches) and the room's timers.
TEST_F(CampfireCliMore, CreateTakesOptionsAndTimers) {
  const std::string out = run_script(
      {"--name", "Andrea"},
      "create pinocchio 3 STARTSEAT=0 turn=45 grace=90 takeover=no\nbot\nbot\nstart\nwait\nquit\n");
  EXPECT_TRUE(has(out, ", pinocchio, playing")) << out;
  EXPECT_TRUE(has(out, "turn timer: Andrea has 4")) << out;
  EXPECT_TRUE(has(out, " s to act")) << out;
  EXPECT_FALSE(has(out, "error")) << out;
  const std::string tribes_out =
      run_script({"--name", "Andrea"}, "create tricky 3 jokers=2 CUTDECK=yes\nquit\n");
  EXPECT_TRUE(has(tribes_out, ", tricky-tribes, waiting")) << tribes_out;
  // The options arrived as the game declares them.
  client::Connection watcher("127.0.0.1", port_);
  ASSERT_TRUE(watcher.request({{"type", "hello"}, {"protocol", 1}, {"name", "W"}}));
  const auto rooms = watcher.request({{"type", "list_rooms"}});
  ASSERT_TRUE(rooms);
  const json& listed = (*rooms)["rooms"];
  const auto it = std::find_if(listed.begin(), listed.end(),
                               [](const json& r) { return r["game"] == "tricky-tribes"; });
  ASSERT_NE(it, listed.end()) << rooms->dump();
  EXPECT_EQ((*it)["options"]["jokers"], 2);
  EXPECT_EQ((*it)["options"]["cutDeck"], true);
}

// `rooms` lists the seats you hold on this server, `rejoin` without a code takes the only one.
TEST_F(CampfireCliMore, RoomsListsYourSeatsAndRejoinFindsThem) {
  const std::string first_out =
      run_script({"--name", "Andrea"}, "create pinocchio 2\nbot\nstart\nquit\n");
  const auto joined = lines_starting(first_out, "joined room ");
  ASSERT_FALSE(joined.empty()) << first_out;
  const std::string room = joined.front().substr(0, 6);
  const std::string out = run_script({"--name", "Andrea"}, "rooms\nrejoin\nquit\n");
  EXPECT_TRUE(has(out, "your seats (rejoin CODE takes one back):")) << out;
  EXPECT_TRUE(has(out, room + "  Pinocchio  seat 1 as Andrea, playing")) << out;
  EXPECT_TRUE(has(out, "joined room " + room + " as seat 1")) << out;
}

// A server restart in the middle of a script: the client says so, reconnects by itself, takes
// its seat back and the script plays on to the end of the game.
TEST_F(CampfireCliMore, AScriptSurvivesAServerRestart) {
  Process cli(cli_args({"--name", "Andrea"}));
  cli.write("create pinocchio 2 seed=3\nbot\nstart\n1\n1\n");
  ASSERT_TRUE(read_until(cli, "your move (type its number):")) << cli.output();
  ASSERT_TRUE(read_until(cli, "your move (type its number):")) << cli.output();
  restart_server();
  ASSERT_TRUE(read_until(cli, "reconnecting")) << cli.output();
  ASSERT_TRUE(read_until(cli, "took your seat back: joined room ")) << cli.output();
  std::string moves;
  for (int i = 0; i < 80; ++i) moves += "1\n";
  cli.write(moves + "quit\n");
  cli.close_stdin();
  ASSERT_EQ(cli.wait(60s), 0) << cli.output();
  EXPECT_TRUE(has(cli.output(), "game over. places: ")) << cli.output();
}

// rules names a game the server does not have in words, without asking the server for it.
TEST_F(CampfireCliMore, RulesOfAnUnknownGameAreRefusedInWords) {
  const std::string out = run_script({"--name", "Andrea"}, "rules hopscotch\nrules\nquit\n");
  EXPECT_TRUE(has(out, "there is no game 'hopscotch' (games lists them)")) << out;
  EXPECT_TRUE(has(out, "usage: rules GAME (games lists them)")) << out;
  EXPECT_FALSE(has(out, "HTTP")) << out;
}

// rules GAME prints the server's rules page as text (no Markdown marks); a game the server
// does not have is named in words, and the game's name works as well as its id.
TEST_F(CampfireCliMore, RulesShowsTheServersRulesPage) {
  const std::string out = run_script(
      {"--name", "Andrea"}, "rules pinocchio\nrules Tricky Tribes\nrules hopscotch\nquit\n");
  EXPECT_TRUE(has(out, "Pinocchio\n")) << out;
  EXPECT_TRUE(has(out, "The aim")) << out;
  EXPECT_TRUE(has(out, "Help Pinocchio sort out his clothes")) << out;
  EXPECT_TRUE(has(out, "Tricky Tribes\n")) << out;
  EXPECT_TRUE(has(out, "there is no game 'hopscotch'")) << out;
  EXPECT_FALSE(has(out, "## ")) << out;
  EXPECT_FALSE(has(out, "**")) << out;
}

}  // namespace
}  // namespace campfire::test
