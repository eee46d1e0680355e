// campfire-cli full screen, as a player sees it: each test runs the client in a tmux session of
// a given size against a real server with bots, types keys into it and reads the screen back
// (capture-pane). Every wait is bounded; nothing is timed.
#include <filesystem>
#include <random>

#include "tests/clients/client_test_support.hpp"

namespace campfire::test {
namespace {

// The first room code on the screen: six letters or digits 2-9 after "room ".
std::string room_code_in(const std::string& screen) {
  const auto code_char = [](char c) { return (c >= 'A' && c <= 'Z') || (c >= '2' && c <= '9'); };
  for (std::size_t at = screen.find("room "); at != std::string::npos;
       at = screen.find("room ", at + 1)) {
    const std::size_t begin = at + 5;
    std::size_t end = begin;
    while (end < screen.size() && code_char(screen[end])) ++end;
    if (end - begin == 6 && (end == screen.size() || !code_char(screen[end]))) {
      return screen.substr(begin, 6);
    }
  }
  return "";
}

// The number between `before` and `after` on the screen (the first such), or 0.
int number_before(const std::string& screen, const std::string& before, const std::string& after) {
  for (std::size_t at = screen.find(before); at != std::string::npos;
       at = screen.find(before, at + 1)) {
    const std::size_t begin = at + before.size();
    std::size_t end = begin;
    while (end < screen.size() && screen[end] >= '0' && screen[end] <= '9') ++end;
    if (end > begin && screen.compare(end, after.size(), after) == 0) {
      return std::stoi(screen.substr(begin, end - begin));
    }
  }
  return 0;
}

namespace fs = std::filesystem;

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// A tmux server of its own (its own socket) with one session running one command.
class Tmux {
 public:
  Tmux(const fs::path& dir, int width, int height, const std::vector<std::string>& command)
      : socket_((dir / "tmux.sock").string()) {
    std::vector<std::string> args = {
        "new-session", "-d", "-s", "t", "-x", std::to_string(width), "-y", std::to_string(height)};
    std::string line = "exec env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=screen";
    for (const auto& a : command) line += " '" + a + "'";
    args.push_back(line);
    run(args);
    // The pane stays when the client exits, so its last screen can still be read.
    run({"set-option", "-t", "t", "remain-on-exit", "on"});
  }
  ~Tmux() { run({"kill-server"}); }

  // Keys by tmux's names ("Enter", "Down", "C-c"); `type` sends text as it is.
  void keys(const std::vector<std::string>& names) {
    std::vector<std::string> args = {"send-keys", "-t", "t"};
    args.insert(args.end(), names.begin(), names.end());
    run(args);
  }
  void type(const std::string& text) { run({"send-keys", "-t", "t", "-l", text}); }
  void command(const std::string& text) {
    type(text);
    keys({"Enter"});
  }
  void resize(int width, int height) {
    run({"resize-window", "-t", "t", "-x", std::to_string(width), "-y", std::to_string(height)});
  }
  std::string screen() { return run({"capture-pane", "-p", "-t", "t"}); }
  std::vector<std::string> rows() {
    std::vector<std::string> out;
    const std::string s = screen();
    std::size_t at = 0;
    while (at < s.size()) {
      auto nl = s.find('\n', at);
      if (nl == std::string::npos) nl = s.size();
      out.push_back(s.substr(at, nl - at));
      at = nl + 1;
    }
    return out;
  }
  // Polls the screen until `part` shows, for at most `timeout`; the last screen either way.
  std::string wait_for(const std::string& part, std::chrono::milliseconds timeout = 15s) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    std::string s = screen();
    while (!has(s, part) && std::chrono::steady_clock::now() < deadline) {
      ::usleep(50000);
      s = screen();
    }
    return s;
  }

  // Polls the screen's rows until `done` holds or the time runs out; returns the last rows seen.
  // A resize reaches tmux at once but the client redraws a moment later, so tests wait for the
  // redraw itself, not for the window's new size.
  template <typename Done>
  std::vector<std::string> wait_rows(Done done, std::chrono::milliseconds timeout = 15s) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    auto r = rows();
    while (!done(r) && std::chrono::steady_clock::now() < deadline) {
      ::usleep(50000);
      r = rows();
    }
    return r;
  }

 private:
  std::string run(std::vector<std::string> args) {
    args.insert(args.begin(),
                {"/usr/bin/env", "LANG=C.UTF-8", "LC_ALL=C.UTF-8", "tmux", "-u", "-S", socket_});
    Process p(args);
    p.close_stdin();
    p.wait(10s);
    return p.output();
  }

  std::string socket_;
};

class CampfireCliScreen : public ClientTest {
 protected:
  void SetUp() override {
    ClientTest::SetUp();
    dir_ = fs::temp_directory_path() /
           ("campfire-cli-screen-" + std::to_string(::getpid()) + "-" + port());
    fs::create_directories(dir_);
  }
  void TearDown() override {
    tmux_.reset();
    std::error_code ec;
    fs::remove_all(dir_, ec);
    ClientTest::TearDown();
  }

  Tmux& start(int width, int height, const std::string& name = "Andrea") {
    tmux_ = std::make_unique<Tmux>(
        dir_, width, height,
        std::vector<std::string>{CAMPFIRE_CLI_BINARY, "--port", port(), "--name", name,
                                 "--token-file", (dir_ / "seats.json").string()});
    const std::string s = tmux_->wait_for("Welcome to Campfire, " + name);
    EXPECT_TRUE(has(s, "Welcome to Campfire, " + name)) << s;
    return *tmux_;
  }

  // Creates a room, fills it with bots and starts it; returns the room code.
  std::string open_table(Tmux& t, const std::string& create, int bots) {
    t.command(create);
    std::string s = t.wait_for("not started");
    const std::string room = room_code_in(s);
    EXPECT_EQ(room.size(), 6u) << s;
    for (int i = 0; i < bots; ++i) t.command("bot");
    s = t.wait_for("every seat is taken");
    EXPECT_TRUE(has(s, "every seat is taken")) << s;
    t.command("start");
    return room;
  }

  // Every screen of a game: no JSON, the input line last, the table's own words.
  static void check_screen(const std::vector<std::string>& rows, int height) {
    ASSERT_EQ(static_cast<int>(rows.size()), height);
    EXPECT_EQ(rows.back().rfind(">", 0), 0u) << rows.back();
    for (const std::string& r : rows) {
      for (const char* json : {"{\"", "[\"", "\":", "null", "[[", "]]"}) {
        EXPECT_FALSE(has(r, json)) << "JSON on the screen: " << r;
      }
    }
  }

  // Plays random moves (arrow keys and Enter, or a number) until the game is over.
  void play_to_the_end(Tmux& t, int height, unsigned seed, std::chrono::seconds budget) {
    std::mt19937 rng(seed);
    const auto deadline = std::chrono::steady_clock::now() + budget;
    int moves = 0;
    std::string last_move_screen;
    for (;;) {
      ASSERT_LT(std::chrono::steady_clock::now(), deadline) << "the game did not end\n"
                                                            << t.screen();
      const auto rows = t.rows();
      check_screen(rows, height);
      std::string s;
      for (const auto& r : rows) s += r + "\n";
      if (has(rows.front(), "game over")) {
        EXPECT_TRUE(has(s, "game over. places:")) << s;
        EXPECT_TRUE(has(s, "winners:")) << s;
        EXPECT_GT(moves, 0);
        return;
      }
      if (has(s, "your move") && s != last_move_screen) {
        last_move_screen = s;
        if (rng() % 3 == 0) {
          t.command("1");
        } else {
          const int downs = static_cast<int>(rng() % 4);
          for (int i = 0; i < downs; ++i) t.keys({"Down"});
          t.keys({"Enter"});
        }
        ++moves;
      }
      ::usleep(60000);
    }
  }

  fs::path dir_;
  std::unique_ptr<Tmux> tmux_;
};

struct GameCase {
  const char* create;
  int bots;
  int width;
  int height;
  const char* title;
};

class EveryGame : public CampfireCliScreen, public ::testing::WithParamInterface<GameCase> {};

// A whole game of every game, at the smallest size the client is made for and at a large one.
TEST_P(EveryGame, PlaysAWholeGameOnTheScreen) {
  const GameCase& g = GetParam();
  Tmux& t = start(g.width, g.height);
  open_table(t, g.create, g.bots);
  const std::string s = t.wait_for("(you)");
  EXPECT_TRUE(has(s, g.title)) << s;
  EXPECT_TRUE(has(s, "events")) << s;
  EXPECT_TRUE(has(s, "chat")) << s;
  play_to_the_end(t, g.height, 7, 150s);
}

INSTANTIATE_TEST_SUITE_P(
    CampfireCliScreen, EveryGame,
    ::testing::Values(GameCase{"create pinocchio 3 seed=3", 2, 80, 24, "Pinocchio"},
                      GameCase{"create naked-gibbon 3 seed=4", 2, 120, 40, "Naked Gibbon"},
                      GameCase{"create fib-fibonacci 2 seed=5 turnLimit=60", 1, 80, 24,
                               "Fib-Fibonacci"},
                      GameCase{"create spider-monkey 3 seed=6 slapWindowMs=1000 peekTimeoutS=10", 2,
                               120, 40, "Spider Monkey"},
                      GameCase{"create tricky-tribes 3 seed=7 endMode=fixedRounds rounds=1", 2, 80,
                               24, "Tricky Tribes"}),
    [](const auto& param_info) {
      std::string name = param_info.param.title;
      std::erase_if(name, [](char c) { return c == ' ' || c == '-'; });
      return name;
    });

// Moves are chosen by number or with the arrow keys; the event pane shows the one played.
TEST_F(CampfireCliScreen, MovesByNumberAndByArrowKeys) {
  Tmux& t = start(120, 40);
  open_table(t, "create pinocchio 2 seed=11", 1);
  std::string s = t.wait_for("your move: play your card as");
  ASSERT_TRUE(has(s, "2. Yellow Hat")) << s;
  t.command("2");
  s = t.wait_for("Andrea says Yellow Hat");
  EXPECT_TRUE(has(s, "Andrea says Yellow Hat")) << s;
  EXPECT_TRUE(has(s, "• Andrea plays a card: \"Yellow Hat\"")) << s;
  // The bot answers and plays; then Andrea believes it or not: one step down, then Enter.
  s = t.wait_for("I believe you");
  ASSERT_TRUE(has(s, "▶ 1. challenge Bot 2's")) << s;
  t.keys({"Down"});
  s = t.wait_for("▶ 2. believe Bot 2's");
  EXPECT_TRUE(has(s, "▶ 2. believe Bot 2's")) << s;
  t.keys({"Enter"});
  s = t.wait_for("• Andrea believes Bot 2.");
  EXPECT_TRUE(has(s, "• Andrea believes Bot 2.")) << s;
}

// What you type stays where you type it, while the table changes and the clock counts down.
TEST_F(CampfireCliScreen, TheInputLineIsNeverOverwritten) {
  Tmux& t = start(80, 24);
  open_table(t, "create tricky-tribes 3 seed=2 turn=30", 2);
  t.type("say hel");
  t.wait_for("> say hel");
  for (int i = 0; i < 20; ++i) {
    const auto rows = t.rows();
    ASSERT_EQ(rows.size(), 24u);
    EXPECT_EQ(rows.back(), "> say hel");
    EXPECT_TRUE(std::none_of(rows.begin(), rows.end() - 1,
                             [](const std::string& r) { return has(r, "say hel"); }));
    ::usleep(100000);
  }
  // The clock counts down in the top bar, never in the input line.
  std::string s = t.wait_for("⏱");
  EXPECT_TRUE(has(t.rows().front(), "⏱")) << s;
  t.type("lo");
  t.keys({"Enter"});
  s = t.wait_for("Andrea: hello");
  EXPECT_TRUE(has(s, "Andrea: hello")) << s;
  EXPECT_EQ(t.rows().back().rfind(">", 0), 0u);
}

// Growing the terminal redraws at the new size; so does shrinking it back.
TEST_F(CampfireCliScreen, ResizingRedraws) {
  Tmux& t = start(80, 24);
  open_table(t, "create naked-gibbon 3 seed=9", 2);
  t.wait_for("(you)");
  // The events and chat columns move to the new right edge, and the input line stays last.
  const auto events_beyond = [](const std::vector<std::string>& rows, std::size_t column) {
    return std::any_of(rows.begin(), rows.end(), [column](const std::string& r) {
      const auto bar = r.find("│── events");
      return bar != std::string::npos && bar > column;
    });
  };
  const auto prompt_last = [](const std::vector<std::string>& rows) {
    return !rows.empty() && rows.back().rfind(">", 0) == 0;
  };
  const auto shows = [](const std::vector<std::string>& rows, const std::string& part) {
    return std::any_of(rows.begin(), rows.end(),
                       [&part](const std::string& r) { return has(r, part); });
  };
  // The client clears and draws the screen in several writes (and the bots keep playing), so a
  // capture can catch a redraw half done: wait for the whole picture (table, panes and prompt)
  // at the new size, and check that one capture.
  const auto joined = [](const std::vector<std::string>& rows) {
    std::string out;
    for (const auto& r : rows) out += r + "\n";
    return out;
  };
  t.resize(132, 43);
  auto rows = t.wait_rows([&](const std::vector<std::string>& r) {
    return r.size() == 43u && prompt_last(r) && events_beyond(r, 80) && shows(r, "(you)") &&
           shows(r, "fire number");
  });
  std::string s = joined(rows);
  ASSERT_EQ(rows.size(), 43u) << s;
  EXPECT_TRUE(prompt_last(rows)) << s;
  EXPECT_TRUE(has(rows.front(), "Naked Gibbon")) << s;
  EXPECT_TRUE(events_beyond(rows, 80)) << s;
  EXPECT_TRUE(has(s, "fire number")) << s;
  t.resize(80, 24);
  rows = t.wait_rows([&](const std::vector<std::string>& r) {
    return r.size() == 24u && prompt_last(r) && shows(r, "│── events") && !events_beyond(r, 80) &&
           shows(r, "(you)");
  });
  s = joined(rows);
  ASSERT_EQ(rows.size(), 24u) << s;
  EXPECT_TRUE(prompt_last(rows)) << s;
  EXPECT_TRUE(shows(rows, "│── events")) << s;
  EXPECT_FALSE(events_beyond(rows, 80)) << s;
  EXPECT_TRUE(has(s, "(you)")) << s;
}

// A server restart: the client says it lost the connection, comes back by itself, takes its
// seat back and the game goes on.
TEST_F(CampfireCliScreen, ReconnectsAfterAServerRestartAndTakesItsSeatBack) {
  Tmux& t = start(80, 24);
  const std::string room = open_table(t, "create pinocchio 2 seed=12", 1);
  std::string s = t.wait_for("your move");
  ASSERT_TRUE(has(s, "your move")) << s;
  t.command("1");
  t.wait_for("pile 2 cards");
  restart_server();
  s = t.wait_for("took your seat back", 30s);
  EXPECT_TRUE(has(s, "took your seat back: seat 1 of room " + room)) << s;
  EXPECT_TRUE(has(s, "(you)")) << s;
  // The game goes on: Andrea answers Bot 2's claim and plays her next card.
  const auto pile = [](const std::string& screen) {
    return number_before(screen, "pile ", " cards");
  };
  const auto deadline = std::chrono::steady_clock::now() + 20s;
  while (pile(s) < 3 && std::chrono::steady_clock::now() < deadline) {
    if (has(s, "your move")) t.keys({"Enter"});
    ::usleep(200000);
    s = t.screen();
  }
  EXPECT_GE(pile(s), 3) << s;
}

// help and the lobby list every command; rooms lists the seats you hold.
TEST_F(CampfireCliScreen, HelpRoomsAndCreateWithTimers) {
  Tmux& t = start(100, 30);
  t.command("help");
  std::string s = t.wait_for("Esc closes");
  for (const char* cmd :
       {"games", "rules GAME", "rooms", "create GAME SEATS", "join CODE", "rejoin", "spectate CODE",
        "bot [SEAT]", "start", "say TEXT", "leave", "quit"}) {
    EXPECT_TRUE(has(s, cmd)) << cmd << "\n" << s;
  }
  t.keys({"Escape"});
  const std::string room = open_table(t, "create pinocchio 3 seed=1 turn=45 startSeat=0", 2);
  s = t.wait_for("⏱ your turn:");
  EXPECT_TRUE(has(t.rows().front(), "⏱ your turn: 4")) << s;
  t.command("rooms");
  s = t.wait_for("your seats");
  EXPECT_TRUE(has(s, room + "  Pinocchio  seat 1 as Andrea, playing")) << s;
  EXPECT_TRUE(has(s, room + "  pinocchio  3/3 seats, playing")) << s;
}

// rules GAME covers the table with the game's rules page; Esc gives the table back.
TEST_F(CampfireCliScreen, RulesCoverTheTableUntilEsc) {
  Tmux& t = start(80, 24);
  open_table(t, "create tricky-tribes 3 seed=2", 2);
  t.wait_for("(you)");
  t.command("rules");
  std::string s = t.wait_for("Esc closes");
  EXPECT_TRUE(has(s, "Tricky Tribes")) << s;
  EXPECT_FALSE(has(s, "(you)")) << s;
  EXPECT_FALSE(has(s, "## ")) << s;
  check_screen(t.rows(), 24);
  t.keys({"Escape"});
  s = t.wait_for("(you)");
  EXPECT_TRUE(has(s, "(you)")) << s;
  t.command("rules hopscotch");
  s = t.wait_for("no game");
  EXPECT_TRUE(has(s, "there is no game 'hopscotch'")) << s;
}

}  // namespace
}  // namespace campfire::test
