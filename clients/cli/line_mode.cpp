#include "clients/cli/line_mode.hpp"

#include <poll.h>
#include <unistd.h>

#include <deque>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "clients/cli/commands.hpp"
#include "clients/cli/markdown.hpp"
#include "clients/cli/render.hpp"
#include "clients/cli/rules.hpp"
#include "clients/cli/table.hpp"

namespace campfire::cli {

namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

// How long the line mode keeps trying to reach a server that went away before it gives up.
constexpr auto kGiveUpAfter = 60s;

class LineClient {
 public:
  LineClient(Session& session, bool json_mode, bool interactive)
      : s_(session), json_mode_(json_mode), interactive_(interactive) {}

  int run() {
    try {
      s_.connect_now();
    } catch (const std::exception& e) {
      std::cerr << "campfire-cli: cannot connect to " << s_.endpoint().text() << ": " << e.what()
                << "\n";
      return 1;
    }
    if (!json_mode_ && interactive_) std::cout << "type help for the commands\n";
    std::string partial;
    bool stdin_open = true;
    for (;;) {
      if (stdin_open) stdin_open = read_stdin(partial);
      while (!lines_.empty() && !quit_ && ready_for(lines_.front())) {
        const std::string line = lines_.front();
        lines_.pop_front();
        json_mode_ ? send_raw(line) : command(line);
      }
      if (quit_ || (!stdin_open && lines_.empty() && !awaiting_reply())) break;
      if (down_since_ && Clock::now() - *down_since_ > kGiveUpAfter) {
        std::cerr << "campfire-cli: the server at " << s_.endpoint().text()
                  << " cannot be reached: " << s_.link().last_error() << "\n";
        return 1;
      }
      if (auto e = s_.poll(50ms)) deliver(*e);
    }
    s_.link().close();
    return 0;
  }

 private:
  // Session events after the session took note of them.
  void deliver(const Session::Event& e) {
    switch (e.kind) {
      case Link::Kind::connected:
        if (down_since_) {
          if (!json_mode_) std::cout << "connected again to " << s_.endpoint().text() << "\n";
          down_since_.reset();
          // Whatever was asked before the drop may never be answered.
          reply_id_.reset();
          raw_ids_.clear();
          acted_version_ = -1;
        }
        return;
      case Link::Kind::lost:
        if (!down_since_) {
          down_since_ = Clock::now();
          if (!json_mode_) {
            std::cout << "connection to the server lost (" << e.why << "); reconnecting\n";
          }
        }
        return;
      case Link::Kind::failed:
        return;
      case Link::Kind::message:
        try {
          show(e.message, e.own);
        } catch (const json::exception&) {
          std::cout << "(a message from the server this client cannot read)\n";
        }
        return;
    }
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

  // A request is done when its reply came, and for joined or spectating also the state that
  // follows it at once. While the connection is being made again everything waits.
  bool awaiting_reply() const {
    if (s_.settling()) return true;
    return (reply_id_.has_value() || awaiting_state_ || !raw_ids_.empty()) &&
           Clock::now() < reply_deadline_;
  }

  // Whether the next line may run now. Scripted input runs one request at a time, and a move
  // number (or `wait`) holds until there is something to play. Raw JSON lines go out at once.
  bool ready_for(const std::string& line) {
    if (s_.settling()) return false;
    if (json_mode_) return true;
    if (awaiting_reply()) return false;
    if (interactive_) return true;
    const auto w = words(line);
    if (w.empty() || (!all_digits(w[0]) && w[0] != "wait")) return true;
    // The final state says "over" just before game_over arrives; wait for game_over itself.
    if (s_.room().empty() || game_over_) return true;  // the command will say why not
    return can_act();
  }

  bool can_act() const {
    const json& st = s_.state();
    return st.is_object() && st.value("status", "") == "playing" && !field(st, "legal").empty() &&
           st.value("version", 0LL) > acted_version_;
  }

  void expect_reply(const std::string& id) {
    reply_id_ = id;
    reply_deadline_ = Clock::now() + 10s;
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
      raw_ids_.push_back(field(message, "id"));
      reply_deadline_ = Clock::now() + 10s;
    }
    s_.send(message);
  }

  void say(const Outcome& o) {
    if (!o.say.empty()) std::cout << o.say << "\n";
    if (o.request_id) expect_reply(*o.request_id);
  }

  void command(const std::string& line) {
    const auto w = words(line);
    if (w.empty()) return;
    if (all_digits(w[0])) {
      say(play(static_cast<std::size_t>(std::stoul(w[0])), s_, acted_version_));
      return;
    }
    const Outcome o = run_command(line, s_);
    if (o.help) std::cout << plain(help_lines(false));
    if (o.quit) quit_ = true;
    if (o.rules) show_rules(*o.rules);
    say(o);
  }

  void show_rules(const std::string& game) {
    const RulesPage page = fetch_rules(s_.endpoint(), game);
    if (!page.error.empty()) {
      std::cout << page.error << "\n";
      return;
    }
    std::cout << plain(render_markdown(page.markdown, 100));
  }

  void show(const json& m, bool own) {
    if (m.contains("id") && reply_id_ && field(m, "id") == json(*reply_id_)) reply_id_.reset();
    if (m.contains("id")) std::erase(raw_ids_, field(m, "id"));
    const std::string type = m.value("type", "");
    if (type == "joined" || type == "spectating") {
      awaiting_state_ = true;
      game_over_ = false;
      acted_version_ = -1;
    }
    if (type == "state") awaiting_state_ = false;
    if (type == "game_over") game_over_ = true;
    if (json_mode_) {
      // The session's own game list and the `ok` of a sync it asked for after a patch it could
      // not apply are not the script's business; its greeting and the state the sync brings are.
      if (!(own && (type == "games" || type == "ok"))) std::cout << m.dump() << std::endl;
      return;
    }
    if (own && type == "games") return;
    if (type == "welcome") {
      std::cout << "connected to " << m.value("server", "?") << " as " << m.value("name", "?")
                << "\n";
    } else if (type == "games") {
      std::cout << render_games(field(m, "games"));
    } else if (type == "rooms") {
      std::cout << render_rooms(field(m, "rooms"), s_.seats().on_server(s_.endpoint().text()),
                                s_.games());
    } else if (type == "created") {
      std::cout << "created room " << m.value("room", "?") << "\n";
    } else if (type == "joined") {
      const std::string room = m.value("room", "?");
      std::cout << (own ? "took your seat back: " : "") << "joined room " << room << " as seat "
                << m.value("seat", -1) + 1 << "; token " << m.value("token", "")
                << " (saved: rejoin " << room << " takes it back)\n";
    } else if (type == "spectating") {
      std::cout << "watching room " << m.value("room", "?") << "\n";
    } else if (type == "left") {
      std::cout << "left room " << m.value("room", "?") << "\n";
    } else if (type == "state") {
      std::cout << render_state(m);
    } else if (type == "event") {
      std::cout << "* " << field(m, "event").value("text", "something happened") << "\n";
    } else if (type == "chat") {
      std::cout << m.value("name", "?") << ": " << m.value("text", "") << "\n";
    } else if (type == "game_over") {
      const json& st = s_.state();
      const json players = st.is_object() ? field(st, "players") : json::array();
      std::cout << render_result(field(m, "result"), players, s_.spectating() ? -1 : s_.seat());
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
      std::cout << "(a '" << type << "' message this client does not know)\n";
    }
    std::cout.flush();
  }

  Session& s_;
  const bool json_mode_;
  const bool interactive_;
  std::deque<std::string> lines_;
  std::optional<std::string> reply_id_;
  bool awaiting_state_ = false;
  std::vector<json> raw_ids_;  // ids of raw JSON requests not answered yet
  Clock::time_point reply_deadline_;
  long long acted_version_ = -1;
  bool game_over_ = false;
  bool quit_ = false;
  std::optional<Clock::time_point> down_since_;
};

}  // namespace

int run_line_mode(Session& session, bool json_mode, bool interactive) {
  return LineClient(session, json_mode, interactive).run();
}

}  // namespace campfire::cli
