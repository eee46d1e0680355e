// campfire-cli: the terminal client. One loop polls both stdin and the socket, so pushed states,
// events and chat show while you type. When stdin is not a terminal the commands are run one at a
// time: each waits for its reply, and a move number waits for your turn, so a script can be
// written without watching the screen. --json prints every message as one JSON line and sends
// each JSON line read from stdin.
#include <poll.h>
#include <unistd.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "clients/cli/render.hpp"
#include "clients/common/connection.hpp"
#include "clients/common/pacer.hpp"

namespace {

using campfire::client::Connection;
using json = nlohmann::json;
namespace fs = std::filesystem;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

struct Flags {
  std::string host = "127.0.0.1";
  std::uint16_t port = 8080;
  std::string name;
  bool tls = false;
  bool insecure = false;
  bool json_mode = false;
  std::string token_file;
};

constexpr const char* kHelp =
    "commands:\n"
    "  games                              list the games and their options\n"
    "  rooms                              list the open rooms\n"
    "  create GAME SEATS [key=value ...] [private]\n"
    "                                     create a room and take seat 0 (seed=N in test mode)\n"
    "  join CODE [SEAT]                   take a seat in a room\n"
    "  rejoin CODE [TOKEN]                take your seat back (the token is remembered)\n"
    "  spectate CODE                      watch a room\n"
    "  bot [SEAT]                         fill a free seat with a server bot\n"
    "  start                              start the game once every seat is taken\n"
    "  leave                              leave the room\n"
    "  say TEXT                           chat with the room\n"
    "  sync                               ask for a fresh state\n"
    "  NUMBER                             play that legal action\n"
    "  wait                               wait for your turn or the end of the game\n"
    "  help                               this list\n"
    "  quit                               leave the client\n";

std::vector<std::string> words(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

// "true" and "false" are booleans, whole numbers are integers, anything else a string: enough to
// write every option type (bool, int, choice) without knowing the game.
json option_value(const std::string& text) {
  if (text == "true") return true;
  if (text == "false") return false;
  try {
    std::size_t used = 0;
    const long long n = std::stoll(text, &used);
    if (used == text.size()) return n;
  } catch (const std::exception&) {
  }
  return text;
}

bool all_digits(const std::string& s) {
  return !s.empty() && s.size() < 9 && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isdigit(static_cast<unsigned char>(c));
  });
}

// Seat tokens by room code, kept in a small JSON file so `rejoin CODE` works after a restart.
class TokenStore {
 public:
  explicit TokenStore(fs::path path) : path_(std::move(path)) {}

  void put(const std::string& room, int seat, const std::string& token, const std::string& server) {
    json all = load();
    all[room] = {{"seat", seat}, {"token", token}, {"server", server}};
    std::error_code ec;
    fs::create_directories(path_.parent_path(), ec);
    // Written beside and renamed over, so a crash never leaves half a file.
    const fs::path temp = path_.string() + ".tmp";
    {
      std::ofstream out(temp);
      out << all.dump(2) << "\n";
      if (!out) return;
    }
    fs::permissions(temp, fs::perms::owner_read | fs::perms::owner_write, ec);
    fs::rename(temp, path_, ec);
  }

  std::optional<std::string> get(const std::string& room) const {
    const json all = load();
    std::string upper = room;
    for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    auto it = all.find(upper);
    if (it == all.end() || !it->is_object() || !(*it)["token"].is_string()) return std::nullopt;
    return (*it)["token"].get<std::string>();
  }

 private:
  json load() const {
    std::ifstream in(path_);
    if (!in) return json::object();
    json all = json::parse(in, nullptr, false);
    return all.is_object() ? all : json::object();
  }

  fs::path path_;
};

class Client {
 public:
  Client(Flags flags, Connection& conn, bool interactive)
      : flags_(std::move(flags)),
        conn_(conn),
        interactive_(interactive),
        tokens_(flags_.token_file) {}

  int run() {
    hello();
    if (!flags_.json_mode && interactive_) std::cout << "type help for the commands\n";
    std::string partial;
    bool stdin_open = true;
    for (;;) {
      if (stdin_open) stdin_open = read_stdin(partial);
      while (!lines_.empty() && !quit_ && ready_for(lines_.front())) {
        const std::string line = lines_.front();
        lines_.pop_front();
        flags_.json_mode ? send_raw(line) : command(line);
      }
      if (quit_ || (!stdin_open && lines_.empty() && !awaiting_reply())) break;
      auto message = conn_.receive(50ms);
      if (message) {
        show(*message);
      } else if (conn_.open()) {
        tick_countdown();
      } else {
        std::cerr << "connection closed by the server\n";
        return 1;
      }
    }
    conn_.close();
    return 0;
  }

 private:
  void hello() {
    send({{"type", "hello"}, {"id", "hello"}, {"protocol", 1}, {"name", flags_.name}});
    expect_reply("hello");
  }

  void tick_countdown() {
    if (flags_.json_mode || !interactive_ || window_name_.empty() || !can_act()) return;
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                          window_ends_ - std::chrono::steady_clock::now())
                          .count();
    if (left <= 0) return;
    const long long second = (left + 999) / 1000;
    if (second == last_shown_second_) return;
    last_shown_second_ = second;
    // Every five seconds, then each of the last five.
    if (second > 5 && second % 5 != 0) return;
    std::cout << "  " << window_name_ << ": " << second << " s left, type a number to act\n";
    std::cout.flush();
  }

  // Reads whatever stdin has without blocking; false once it reached its end.
  bool read_stdin(std::string& partial) {
    pollfd p{STDIN_FILENO, POLLIN, 0};
    while (::poll(&p, 1, 0) > 0) {
      char buf[4096];
      const ssize_t n = ::read(STDIN_FILENO, buf, sizeof buf);
      if (n <= 0) {
        if (!partial.empty()) lines_.push_back(partial);
        partial.clear();
        return false;
      }
      partial.append(buf, static_cast<std::size_t>(n));
      for (std::size_t nl; (nl = partial.find('\n')) != std::string::npos;) {
        std::string line = partial.substr(0, nl);
        if (!line.empty() && line.back() == '\r') line.pop_back();
        partial.erase(0, nl + 1);
        lines_.push_back(std::move(line));
      }
    }
    return true;
  }

  // Scripts can send faster than the server accepts; wait rather than be refused.
  void send(const json& message) {
    pacer_.wait();
    conn_.send(message);
  }

  // A request is done when its reply came, and for joined or spectating also the state that
  // follows it at once.
  bool awaiting_reply() const {
    return (reply_id_.has_value() || awaiting_state_ || !raw_ids_.empty()) &&
           Clock::now() < reply_deadline_;
  }

  // Whether the next line may run now. Scripted input runs one request at a time, and a move
  // number (or `wait`) holds until there is something to play. Raw JSON lines go out at once.
  bool ready_for(const std::string& line) {
    if (flags_.json_mode) return true;
    if (awaiting_reply()) return false;
    if (interactive_) return true;
    const auto w = words(line);
    if (w.empty() || (!all_digits(w[0]) && w[0] != "wait")) return true;
    // The final state says "over" just before game_over arrives; wait for game_over itself.
    if (room_.empty() || game_over_) return true;  // the command will say why not
    return can_act();
  }

  bool can_act() const {
    return state_.is_object() && state_.value("status", "") == "playing" &&
           !state_["legal"].empty() && state_.value("version", 0LL) > acted_version_;
  }

  void expect_reply(const std::string& id) {
    reply_id_ = id;
    reply_deadline_ = Clock::now() + 10s;
  }

  std::string request(json message) {
    const std::string id = std::to_string(next_id_++);
    message["id"] = id;
    send(message);
    expect_reply(id);
    return id;
  }

  void send_raw(const std::string& line) {
    if (line.empty()) return;
    json message = json::parse(line, nullptr, false);
    if (!message.is_object()) {
      std::cerr << "not a JSON object: " << line << "\n";
      return;
    }
    // Remembered so the client does not quit at the end of the input before the replies came.
    if (message.contains("id")) {
      raw_ids_.push_back(message["id"]);
      reply_deadline_ = Clock::now() + 10s;
    }
    send(message);
  }

  bool need_room() const {
    if (!room_.empty()) return true;
    std::cout << "you are not in a room: create, join or spectate one first\n";
    return false;
  }

  void command(const std::string& line) {
    const auto w = words(line);
    if (w.empty()) return;
    const std::string& verb = w[0];
    if (verb == "help") {
      std::cout << kHelp;
    } else if (verb == "quit" || verb == "exit") {
      quit_ = true;
    } else if (verb == "games") {
      request({{"type", "list_games"}});
    } else if (verb == "rooms") {
      request({{"type", "list_rooms"}});
    } else if (verb == "create") {
      create(w);
    } else if (verb == "join" && w.size() >= 2) {
      json m = {{"type", "join"}, {"room", w[1]}};
      if (w.size() >= 3 && all_digits(w[2])) m["seat"] = std::stoi(w[2]);
      request(m);
    } else if (verb == "rejoin" && w.size() >= 2) {
      const auto token = w.size() >= 3 ? std::optional<std::string>(w[2]) : tokens_.get(w[1]);
      if (!token) {
        std::cout << "no token remembered for room " << w[1] << "; give it: rejoin CODE TOKEN\n";
        return;
      }
      request({{"type", "rejoin"}, {"room", w[1]}, {"token", *token}});
    } else if (verb == "spectate" && w.size() >= 2) {
      request({{"type", "spectate"}, {"room", w[1]}});
    } else if (verb == "bot") {
      if (!need_room()) return;
      json m = {{"type", "add_bot"}, {"room", room_}};
      if (w.size() >= 2 && all_digits(w[1])) m["seat"] = std::stoi(w[1]);
      request(m);
    } else if (verb == "start" || verb == "leave" || verb == "sync") {
      if (!need_room()) return;
      request({{"type", verb}, {"room", room_}});
    } else if (verb == "say") {
      if (!need_room()) return;
      const auto at = line.find("say") + 3;
      const auto text = line.substr(line.find_first_not_of(' ', at) == std::string::npos
                                        ? line.size()
                                        : line.find_first_not_of(' ', at));
      request({{"type", "chat"}, {"room", room_}, {"text", text}});
    } else if (verb == "wait") {
      // Scripted input only gets here when waiting is over; at a terminal there is nothing to do.
    } else if (all_digits(verb)) {
      play(static_cast<std::size_t>(std::stoul(verb)));
    } else {
      std::cout << "unknown command '" << line << "'; type help\n";
    }
  }

  void create(const std::vector<std::string>& w) {
    if (w.size() < 3 || !all_digits(w[2])) {
      std::cout << "usage: create GAME SEATS [key=value ...] [private]\n";
      return;
    }
    json m = {{"type", "create_room"}, {"game", w[1]}, {"seats", std::stoi(w[2])}};
    json options = json::object();
    for (std::size_t i = 3; i < w.size(); ++i) {
      if (w[i] == "private") {
        m["private"] = true;
        continue;
      }
      const auto eq = w[i].find('=');
      if (eq == std::string::npos || eq == 0) {
        std::cout << "options are key=value, not '" << w[i] << "'\n";
        return;
      }
      const std::string key = w[i].substr(0, eq);
      // The shuffle's seed is a field of create_room itself (test-mode servers only).
      (key == "seed" ? m["seed"] : options[key]) = option_value(w[i].substr(eq + 1));
    }
    if (!options.empty()) m["options"] = options;
    request(m);
  }

  void play(std::size_t number) {
    if (!need_room()) return;
    if (game_over_ || state_.value("status", "") == "over") {
      std::cout << "the game is over: nothing to play\n";
      return;
    }
    const json& legal = state_.is_object() ? state_["legal"] : json::array();
    if (legal.empty()) {
      std::cout << "nothing to play now\n";
      return;
    }
    if (number < 1 || number > legal.size()) {
      std::cout << "choose a number from 1 to " << legal.size() << "\n";
      return;
    }
    acted_version_ = state_.value("version", 0LL);
    request({{"type", "action"},
             {"room", room_},
             {"version", acted_version_},
             {"action", legal[number - 1]}});
  }

  void show(const json& m) {
    if (m.contains("id") && reply_id_ && m["id"] == json(*reply_id_)) reply_id_.reset();
    if (m.contains("id")) std::erase(raw_ids_, m["id"]);
    const std::string type = m.value("type", "");
    if (type == "joined" && m["token"].is_string()) {
      tokens_.put(m.value("room", ""), m.value("seat", -1), m["token"].get<std::string>(),
                  flags_.host + ":" + std::to_string(flags_.port));
    }
    if (type == "joined" || type == "spectating") {
      awaiting_state_ = true;
      room_ = m.value("room", "");
      game_over_ = false;
      acted_version_ = -1;
      state_ = nullptr;
    }
    if (type == "left" || type == "room_closed" ||
        (type == "error" && m.value("code", "") == "replaced")) {
      room_.clear();
      state_ = nullptr;
    }
    if (type == "state") {
      state_ = m;
      awaiting_state_ = false;
      const json& w = m["window"];
      window_ends_ = w.is_object() ? std::chrono::steady_clock::now() +
                                         std::chrono::milliseconds(w.value("remainingMs", 0))
                                   : std::chrono::steady_clock::time_point{};
      window_name_ = w.is_object() ? w.value("name", "window") : "";
      // Without a window, the room's turn timer counts down the same way.
      const json& t = m["turn"];
      if (!w.is_object() && t.is_object() && m["seat"].is_number_integer() &&
          t["seats"].is_array() &&
          std::find(t["seats"].begin(), t["seats"].end(), m["seat"]) != t["seats"].end()) {
        window_ends_ = std::chrono::steady_clock::now() +
                       std::chrono::milliseconds(t.value("remainingMs", 0));
        window_name_ = "your turn";
      }
      last_shown_second_ = -1;
    }
    if (type == "game_over") game_over_ = true;
    if (flags_.json_mode) {
      std::cout << m.dump() << std::endl;
      return;
    }
    namespace render = campfire::cli;
    if (type == "welcome") {
      std::cout << "connected to " << m.value("server", "?") << " as " << m.value("name", "?")
                << "\n";
    } else if (type == "games") {
      std::cout << render::render_games(m["games"]);
    } else if (type == "rooms") {
      std::cout << render::render_rooms(m["rooms"]);
    } else if (type == "created") {
      std::cout << "created room " << m.value("room", "?") << "\n";
    } else if (type == "joined") {
      std::cout << "joined room " << room_ << " as seat " << m.value("seat", -1) << "; token "
                << m.value("token", "") << " (saved: rejoin " << room_ << " takes it back)\n";
    } else if (type == "spectating") {
      std::cout << "watching room " << room_ << "\n";
    } else if (type == "left") {
      std::cout << "left room " << m.value("room", "?") << "\n";
    } else if (type == "state") {
      std::cout << render::render_state(m);
    } else if (type == "event") {
      std::cout << "* " << m["event"].value("text", m["event"].dump()) << "\n";
    } else if (type == "chat") {
      std::cout << m.value("name", "?") << ": " << m.value("text", "") << "\n";
    } else if (type == "game_over") {
      const json players = state_.is_object() ? state_["players"] : json::array();
      const int seat =
          state_.is_object() && state_["seat"].is_number_integer() ? state_["seat"].get<int>() : -1;
      std::cout << render::render_result(m["result"], players, seat);
    } else if (type == "error") {
      std::cout << "error " << m.value("code", "?") << ": " << m.value("message", "") << "\n";
    } else if (type == "notice") {
      std::cout << "*** notice from the server: " << m.value("text", "") << "\n";
    } else if (type == "room_closed") {
      std::cout << "room " << m.value("room", "?") << " was closed: " << m.value("reason", "")
                << "\n";
    } else if (type == "ok" || type == "pong") {
      // Nothing to say: what changed arrives as a state.
    } else {
      std::cout << m.dump() << "\n";
    }
    std::cout.flush();
  }

  Flags flags_;
  Connection& conn_;
  const bool interactive_;
  TokenStore tokens_;
  campfire::client::Pacer pacer_;
  std::deque<std::string> lines_;
  std::optional<std::string> reply_id_;
  bool awaiting_state_ = false;
  std::vector<json> raw_ids_;  // ids of raw JSON requests not answered yet
  Clock::time_point reply_deadline_;
  std::int64_t next_id_ = 1;
  std::string room_;
  json state_;
  long long acted_version_ = -1;
  bool game_over_ = false;
  // The open timed window, counted down once a second on a terminal while this seat may act.
  std::chrono::steady_clock::time_point window_ends_{};
  std::string window_name_;
  long long last_shown_second_ = -1;
  bool quit_ = false;
};

std::string default_name() {
  const char* user = std::getenv("USER");
  return user != nullptr && *user != '\0' ? user : "player";
}

fs::path default_token_file() {
  const char* home = std::getenv("HOME");
  return fs::path(home != nullptr ? home : ".") / ".campfire" / "tokens.json";
}

}  // namespace

int main(int argc, char** argv) {
  Flags flags;
  flags.name = default_name();
  flags.token_file = default_token_file().string();
  CLI::App app{"campfire-cli: play Campfire card games in a terminal"};
  app.add_option("--host", flags.host, "server host");
  app.add_option("--port", flags.port, "server port");
  app.add_option("--name", flags.name, "display name");
  app.add_flag("--tls", flags.tls, "connect with wss://");
  app.add_flag("--insecure", flags.insecure, "do not verify the server's certificate");
  app.add_flag("--json", flags.json_mode,
               "print every message as a JSON line; send each JSON line read from stdin");
  app.add_option("--token-file", flags.token_file, "where seat tokens are remembered");
  CLI11_PARSE(app, argc, argv);

  try {
    Connection conn(flags.host, flags.port, flags.tls, flags.insecure);
    Client client(flags, conn, ::isatty(STDIN_FILENO) != 0);
    return client.run();
  } catch (const std::exception& e) {
    std::cerr << "campfire-cli: " << e.what() << "\n";
    return 1;
  }
}
