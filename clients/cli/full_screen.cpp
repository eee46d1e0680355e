#include "clients/cli/full_screen.hpp"

#include <algorithm>
#include <chrono>
#include <deque>
#include <future>
#include <map>
#include <string>
#include <vector>

#include "clients/cli/commands.hpp"
#include "clients/cli/markdown.hpp"
#include "clients/cli/render.hpp"
#include "clients/cli/rules.hpp"
#include "clients/cli/screen.hpp"
#include "clients/cli/terminal.hpp"

namespace campfire::cli {

namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

constexpr std::size_t kLogLimit = 500;  // lines kept in the events and chat panes

std::string utf8(char32_t cp) {
  std::string out;
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
  return out;
}

bool continuation(char c) {
  return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

std::vector<std::string> labels_of(const json& state) {
  std::vector<std::string> out;
  if (!state.is_object() || !field(state, "legal").is_array()) return out;
  const json& labels = field(state, "labels");
  for (std::size_t i = 0; i < field(state, "legal").size(); ++i) {
    out.push_back(labels.is_array() && i < labels.size() && labels[i].is_string()
                      ? labels[i].get<std::string>()
                      : "move " + std::to_string(i + 1));
  }
  return out;
}

bool has_seat(const json& list, int seat) {
  if (!list.is_array()) return false;
  return std::any_of(list.begin(), list.end(),
                     [&](const json& s) { return s.is_number_integer() && s.get<int>() == seat; });
}

class FullScreen {
 public:
  explicit FullScreen(Session& session) : s_(session) {}

  int run() {
    s_.connect_later();
    note("connecting to " + s_.endpoint().text() + "…");
    draw();
    while (!quit_) {
      for (Key k = term_.read_key(0); k.kind != Key::none && !quit_; k = term_.read_key(0)) {
        on_key(k);
      }
      if (quit_) break;
      // Wait for the server a little; then take whatever else has already arrived.
      auto e = s_.poll(30ms);
      for (int burst = 0; e && burst < 200; ++burst) {
        on_event(*e);
        e = s_.poll(1ms);
      }
      tick();
      if (dirty_) draw();
    }
    s_.link().close();
    return 0;
  }

 private:
  // --- What arrives ---------------------------------------------------------------------------

  void on_event(const Session::Event& e) {
    dirty_ = true;
    switch (e.kind) {
      case Link::Kind::connected:
        if (was_down_) note("connected again; taking your place back");
        return;
      case Link::Kind::lost:
        was_down_ = true;
        note("lost the connection to the server (" + e.why + "); reconnecting", styles::bad);
        pending_.clear();
        acted_version_ = -1;
        return;
      case Link::Kind::failed:
        return;
      case Link::Kind::message:
        try {
          on_message(e.message, e.own);
        } catch (const json::exception&) {
          note("a message from the server could not be read", styles::bad);
        }
        return;
    }
  }

  void on_message(const json& m, bool own) {
    const std::string type = m.value("type", "");
    std::string asked;
    if (m.contains("id") && field(m, "id").is_string()) {
      auto it = pending_.find(field(m, "id").get<std::string>());
      if (it != pending_.end()) {
        asked = it->second;
        pending_.erase(it);
      }
    }
    if (type == "welcome") {
      if (!was_down_) note("connected to " + s_.endpoint().text() + " as " + m.value("name", "?"));
      was_down_ = false;
    } else if (type == "games") {
      if (!own) open_page("games", games_lines(field(m, "games")));
    } else if (type == "rooms") {
      rooms_ = field(m, "rooms");
      open_page("rooms",
                rooms_lines(rooms_, s_.seats().on_server(s_.endpoint().text()), s_.games()));
    } else if (type == "joined" || type == "spectating") {
      const std::string room = m.value("room", "");
      if (room != shown_room_) {
        events_.clear();
        chat_.clear();
        memory_ = TableMemory{};
        events_back_ = 0;
        shown_room_ = room;
      }
      close_page();
      acted_version_ = -1;
      if (type == "spectating") {
        note("watching room " + room);
      } else {
        note((own ? "took your seat back: seat " : "you sit in seat ") +
                 std::to_string(m.value("seat", -1) + 1) + " of room " + room +
                 (own ? "" : " (share the code with your friends)"),
             styles::good);
      }
    } else if (type == "state") {
      on_state(m);
    } else if (type == "event") {
      const json& ev = field(m, "event");
      log(events_, decorate("• " + ev.value("text", "something happened")));
      if (memory_.remember(ev, s_.seat(), Clock::now())) dirty_ = true;
    } else if (type == "chat") {
      Line l;
      l.add(m.value("name", "?"), field(m, "seat").is_null() ? styles::dim : styles::bold);
      l.add(": " + m.value("text", ""));
      log(chat_, l);
    } else if (type == "game_over") {
      log(events_, Line("• the game is over", styles::bold));
      note("game over: create a new room to play again, or leave", styles::good);
    } else if (type == "error") {
      const std::string code = m.value("code", "");
      std::string text = m.value("message", code);
      if (code == "replaced")
        text = "your seat was taken over by another connection with your token";
      if (own && (code == "no_such_room" || code == "bad_token")) {
        text = "could not take your seat back: " + text;
      }
      note(text, styles::bad);
      if (asked == "action") acted_version_ = -1;
    } else if (type == "notice") {
      log(events_, Line("• server: " + m.value("text", ""), styles::warn));
      note("the server says: " + m.value("text", ""), styles::warn);
    } else if (type == "room_closed") {
      note("room " + m.value("room", "?") + " was closed: " + m.value("reason", ""), styles::warn);
      shown_room_.clear();
    } else if (type == "left") {
      note("you left room " + m.value("room", "?"));
      shown_room_.clear();
    } else if (type == "created") {
      note("created room " + m.value("room", "?"));
    }
  }

  void on_state(const json& m) {
    // The moves offered: keep the one you were on when it is still there.
    const auto labels = labels_of(m);
    if (labels != labels_) {
      std::size_t keep = 0;
      if (selected_ < static_cast<int>(labels_.size())) {
        const auto it =
            std::find(labels.begin(), labels.end(), labels_[static_cast<std::size_t>(selected_)]);
        if (it != labels.end()) keep = static_cast<std::size_t>(it - labels.begin());
      }
      labels_ = labels;
      selected_ = static_cast<int>(keep);
    }
    if (m.value("status", "") == "playing" && last_status_ == "waiting") {
      note("the game has started", styles::good);
    }
    last_status_ = m.value("status", "");
    // Timers count down from what the server says is left.
    const json& w = field(m, "window");
    const json& t = field(m, "turn");
    timer_what_.clear();
    if (w.is_object()) {
      timer_ends_ = Clock::now() + std::chrono::milliseconds(w.value("remainingMs", 0));
      timer_what_ = w.value("name", "window") + " window";
      timer_mine_ = has_seat(field(w, "seats"), s_.seat()) && !field(m, "legal").empty();
    } else if (t.is_object()) {
      timer_ends_ = Clock::now() + std::chrono::milliseconds(t.value("remainingMs", 0));
      timer_mine_ = has_seat(field(t, "seats"), s_.seat());
      std::string who;
      for (const json& seat : t.value("seats", json::array())) {
        who += (who.empty() ? "" : ", ") + seat_name(m, seat);
      }
      timer_what_ = timer_mine_ ? "your turn" : who;
    }
  }

  // --- What you type ----------------------------------------------------------------------------

  void on_key(const Key& k) {
    dirty_ = true;
    switch (k.kind) {
      case Key::character:
        input_.insert(cursor_, utf8(k.ch));
        cursor_ += utf8(k.ch).size();
        follow_number();
        return;
      case Key::enter:
        submit();
        return;
      case Key::backspace:
        if (cursor_ > 0) {
          std::size_t from = cursor_ - 1;
          while (from > 0 && continuation(input_[from])) --from;
          input_.erase(from, cursor_ - from);
          cursor_ = from;
        }
        follow_number();
        return;
      case Key::del:
        if (cursor_ < input_.size()) {
          std::size_t to = cursor_ + 1;
          while (to < input_.size() && continuation(input_[to])) ++to;
          input_.erase(cursor_, to - cursor_);
        }
        return;
      case Key::left:
        while (cursor_ > 0 && continuation(input_[--cursor_])) {
        }
        return;
      case Key::right:
        if (cursor_ < input_.size()) {
          ++cursor_;
          while (cursor_ < input_.size() && continuation(input_[cursor_])) ++cursor_;
        }
        return;
      case Key::home:
        cursor_ = 0;
        return;
      case Key::end:
        cursor_ = input_.size();
        return;
      case Key::up:
      case Key::down:
        if (page_open_) {
          scroll_page(k.kind == Key::up ? -1 : 1);
        } else if (!labels_.empty()) {
          const int n = static_cast<int>(labels_.size());
          selected_ = (selected_ + (k.kind == Key::up ? n - 1 : 1)) % n;
        } else {
          recall(k.kind == Key::up ? -1 : 1);
        }
        return;
      case Key::page_up:
      case Key::page_down: {
        const int step = k.kind == Key::page_up ? -1 : 1;
        if (page_open_) {
          scroll_page(step * std::max(1, page_rows_ - 1));
        } else {
          events_back_ = std::max(0, events_back_ - step * std::max(1, events_rows_ - 1));
        }
        return;
      }
      case Key::escape:
        if (page_open_) {
          close_page();
        } else {
          input_.clear();
          cursor_ = 0;
        }
        return;
      case Key::resize:
        return;
      case Key::ctrl:
        if (k.ch == 'c' || (k.ch == 'd' && input_.empty())) quit_ = true;
        if (k.ch == 'l') term_.invalidate();
        if (k.ch == 'p') recall(-1);
        if (k.ch == 'n') recall(1);
        if (k.ch == 'u') {
          input_.erase(0, cursor_);
          cursor_ = 0;
        }
        return;
      case Key::tab:
      case Key::none:
        return;
    }
  }

  // While you type a move's number, the move it names is the one chosen.
  void follow_number() {
    if (all_digits(input_)) {
      const int n = std::stoi(input_);
      if (n >= 1 && n <= static_cast<int>(labels_.size())) selected_ = n - 1;
    }
  }

  void recall(int step) {
    if (history_.empty()) return;
    history_pos_ = std::clamp(history_pos_ + step, 0, static_cast<int>(history_.size()));
    input_ = history_pos_ < static_cast<int>(history_.size())
                 ? history_[static_cast<std::size_t>(history_pos_)]
                 : "";
    cursor_ = input_.size();
  }

  void submit() {
    const std::string line = input_;
    input_.clear();
    cursor_ = 0;
    const auto w = words(line);
    if (!line.empty() && (history_.empty() || history_.back() != line)) history_.push_back(line);
    history_pos_ = static_cast<int>(history_.size());
    if (w.empty()) {
      if (!labels_.empty() && !page_open_) play_move(static_cast<std::size_t>(selected_) + 1);
      return;
    }
    if (all_digits(w[0]) && w.size() == 1) {
      play_move(static_cast<std::size_t>(std::stoul(w[0])));
      return;
    }
    const Outcome o = run_command(line, s_);
    if (o.quit) quit_ = true;
    if (o.help) open_page("help", help_lines(true));
    if (o.wait) note("the table updates by itself: nothing to wait for here");
    if (o.rules) fetch(*o.rules);
    if (!o.say.empty()) note(o.say, o.error ? styles::bad : styles::plain);
    if (o.request_id) pending_[*o.request_id] = o.request_type;
    if (o.request_type == "chat" || o.request_type == "add_bot" || o.request_type == "start") {
      close_page();
    }
  }

  void play_move(std::size_t number) {
    const json& st = s_.state();
    if (st.is_object() && st.value("version", 0LL) == acted_version_ &&
        !field(st, "legal").empty()) {
      note("your move is on its way");
      return;
    }
    const Outcome o = play(number, s_, acted_version_);
    if (!o.say.empty()) note(o.say, o.error ? styles::bad : styles::plain);
    if (o.request_id) {
      pending_[*o.request_id] = "action";
      message_ = {};
      close_page();
    }
  }

  void fetch(const std::string& game) {
    if (rules_.valid()) return;
    note("fetching the rules of " + game + "…");
    rules_game_ = game;
    rules_ =
        std::async(std::launch::async, [e = s_.endpoint(), game] { return fetch_rules(e, game); });
  }

  // --- Pages, messages, timers
  // --------------------------------------------------------------------

  void open_page(const std::string& title, Lines lines) {
    page_title_ = title;
    page_ = std::move(lines);
    page_open_ = true;
    page_top_ = 0;
  }

  void close_page() { page_open_ = false; }

  void scroll_page(int step) {
    page_top_ =
        std::clamp(page_top_ + step, 0, std::max(0, static_cast<int>(page_.size()) - page_rows_));
  }

  void note(const std::string& text, Style style = {}) {
    message_ = decorate(text);
    if (!(style == Style{})) message_ = Line(text, style);
    dirty_ = true;
  }

  void log(std::deque<Line>& pane, Line line) {
    pane.push_back(std::move(line));
    while (pane.size() > kLogLimit) pane.pop_front();
    if (&pane == &events_ && events_back_ > 0) ++events_back_;  // keep what you scrolled to
    dirty_ = true;
  }

  void tick() {
    const auto now = Clock::now();
    if (memory_.forget(now)) dirty_ = true;
    // Redraw once a second while something counts down.
    const auto second =
        std::chrono::duration_cast<std::chrono::seconds>(now.time_since_epoch()).count();
    if (second != last_second_) {
      last_second_ = second;
      if (!timer_what_.empty() || !s_.link().connected()) dirty_ = true;
    }
    if (rules_.valid() && rules_.wait_for(0s) == std::future_status::ready) {
      const RulesPage page = rules_.get();
      if (!page.error.empty()) {
        note(page.error, styles::bad);
      } else {
        open_page("rules of " + game_name(s_.games(), rules_game_),
                  render_markdown(page.markdown, rules_width()));
        message_ = {};
      }
      dirty_ = true;
    }
  }

  int rules_width() const { return std::max(40, term_.width() - 32 - 4); }

  Line timer_line() const {
    if (timer_what_.empty()) return {};
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(timer_ends_ - Clock::now()).count();
    if (left <= 0) return {};
    const long long secs = (left + 999) / 1000;
    Style style = timer_mine_ ? styles::warn : styles::dim;
    style.bg = Color::cyan;
    if (timer_mine_) style.fg = secs <= 10 ? Color::red : Color::black;
    return Line("⏱ " + timer_what_ + ": " + std::to_string(secs) + " s", style);
  }

  Lines lobby_lines() const {
    Lines out;
    out.push_back(Line("Welcome to Campfire, " + s_.name() + ".", styles::bold));
    out.emplace_back();
    std::vector<HeldSeat> mine;
    for (const HeldSeat& h : s_.seats().on_server(s_.endpoint().text())) {
      if (!h.over) mine.push_back(h);
    }
    if (!mine.empty()) {
      out.push_back(Line("your seats (rejoin CODE takes one back):", styles::bold));
      for (std::size_t i = 0; i < mine.size() && i < 5; ++i) {
        Line l("  ");
        l.add(mine[i].room, styles::accent);
        l.add("  " +
              (mine[i].game.empty() ? std::string("?") : game_name(s_.games(), mine[i].game)) +
              ", seat " + std::to_string(mine[i].seat + 1));
        out.push_back(l);
      }
      out.emplace_back();
    }
    if (s_.games().is_array()) {
      out.push_back(Line("games:", styles::bold));
      for (const json& g : s_.games()) {
        Line l("  ");
        l.add(g.value("id", "?"), styles::accent);
        l.pad_to(17);
        const int least = g.value("minSeats", 0);
        const int most = g.value("maxSeats", 0);
        l.add(g.value("name", "") + ", " +
              (least == most ? std::to_string(least)
                             : std::to_string(least) + "-" + std::to_string(most)) +
              " seats");
        out.push_back(l);
      }
      out.emplace_back();
    }
    Line start("start a table: ", styles::dim);
    start.add("create pinocchio 3", styles::accent);
    start.add(", then ", styles::dim);
    start.add("bot", styles::accent);
    start.add(" for each seat no friend takes, and ", styles::dim);
    start.add("start", styles::accent);
    out.push_back(start);
    Line more("more: ", styles::dim);
    more.add("rules GAME", styles::accent);
    more.add(" · ", styles::dim);
    more.add("rooms", styles::accent);
    more.add(" · ", styles::dim);
    more.add("join CODE", styles::accent);
    more.add(" · ", styles::dim);
    more.add("spectate CODE", styles::accent);
    more.add(" · ", styles::dim);
    more.add("help", styles::accent);
    out.push_back(more);
    return out;
  }

  // A room before its game starts: who sits where, what is free, and what to do next.
  Lines waiting_lines(const json& st) const {
    Lines out;
    Line head("room ", styles::dim);
    head.add(st.value("room", "?"), styles::accent);
    head.add("  " + game_name(s_.games(), st.value("game", "")) + ", waiting for players",
             styles::bold);
    out.push_back(head);
    out.emplace_back();
    int free = 0;
    for (const SeatInfo& who : seat_infos(st)) {
      Line l("  seat " + std::to_string(who.seat + 1) + "  ", styles::dim);
      if (who.empty) {
        ++free;
        l.add("free", styles::dim);
      } else {
        l.add(seat_title(who));
      }
      out.push_back(l);
    }
    const json& options = field(st, "options");
    if (options.is_object() && !options.empty()) {
      out.emplace_back();
      Line l("options: ", styles::dim);
      bool first = true;
      for (const auto& [k, v] : options.items()) {
        l.add(std::string(first ? "" : ", ") + k + "=" +
              (v.is_string() ? v.get<std::string>() : v.dump()));
        first = false;
      }
      for (Line& w : wrap(l, 70, 4)) out.push_back(w);
    }
    out.emplace_back();
    if (free > 0 && s_.seat() >= 0) {
      Line l("share the code ", styles::dim);
      l.add(st.value("room", "?"), styles::accent);
      l.add(" (join " + st.value("room", "?") + "), or type ", styles::dim);
      l.add("bot", styles::accent);
      l.add(" to give a seat to a bot", styles::dim);
      out.push_back(l);
    } else if (s_.seat() >= 0) {
      Line l("every seat is taken: type ", styles::dim);
      l.add("start", styles::accent);
      out.push_back(l);
    }
    return out;
  }

  Line waiting_for(const json& st) const {
    if (!st.is_object()) return Line("not in a room", styles::dim);
    const std::string status = st.value("status", "");
    if (status == "waiting") {
      return Line(s_.seat() >= 0 ? "bot fills a free seat · start begins the game"
                                 : "the game has not started",
                  styles::dim);
    }
    if (status == "over" || s_.game_over()) return Line("the game is over", styles::dim);
    std::string who;
    for (const json& seat : st.value("toAct", json::array())) {
      who += (who.empty() ? "" : ", ") + seat_name(st, seat);
    }
    if (st.value("version", 0LL) == acted_version_)
      return Line("your move is on its way…", styles::dim);
    if (who.empty()) return Line("", styles::dim);
    return Line("waiting for " + who + "…", styles::dim);
  }

  void draw() {
    dirty_ = false;
    ScreenModel m;
    m.name = s_.name();
    m.server = s_.endpoint().text();
    m.connected = s_.link().connected() && s_.greeted();
    if (!m.connected) {
      const auto wait =
          std::chrono::duration_cast<std::chrono::seconds>(s_.link().next_attempt() - Clock::now())
              .count();
      m.connection = s_.link().failures() == 0
                         ? "connecting…"
                         : "reconnecting" +
                               (wait > 0 ? " in " + std::to_string(wait) + " s" : std::string("…"));
    }
    m.timer = timer_line();
    const json& st = s_.state();
    Lines waiting;
    if (st.is_object() && !s_.room().empty()) {
      m.state = &st;
      m.game_name = game_name(s_.games(), st.value("game", ""));
      if (!field(st, "view").is_object()) {
        waiting = waiting_lines(st);
        m.lobby = waiting;
      }
    } else {
      m.lobby = lobby_lines();
    }
    m.memory = &memory_;
    if (st.is_object() && (st.value("status", "") == "over") && field(st, "view").is_object()) {
      const json& result = field(field(st, "view"), "result").is_object()
                               ? field(field(st, "view"), "result")
                               : field(st, "result");
      if (result.is_object())
        m.result = result_lines(result, field(st, "players"), s_.spectating() ? -1 : s_.seat());
    }
    const bool acted = st.is_object() && st.value("version", 0LL) == acted_version_;
    if (!acted) m.moves = labels_;
    m.selected = std::clamp(selected_, 0, std::max(0, static_cast<int>(labels_.size()) - 1));
    m.waiting = waiting_for(st);
    m.events = &events_;
    m.events_back = events_back_;
    m.chat = &chat_;
    if (page_open_) {
      m.page = &page_;
      m.page_title = page_title_;
      m.page_top = page_top_;
    }
    m.message = message_;
    m.input = input_;
    m.cursor = cursor_;
    const Composed c = compose(m, term_.width(), term_.height());
    page_rows_ = c.page_rows;
    events_rows_ = c.events_rows;
    term_.draw(c);
  }

  Session& s_;
  Terminal term_;
  bool quit_ = false;
  bool dirty_ = true;
  bool was_down_ = false;
  std::deque<Line> events_;
  std::deque<Line> chat_;
  int events_back_ = 0;
  int events_rows_ = 10;
  std::string shown_room_;
  TableMemory memory_;
  std::vector<std::string> labels_;
  int selected_ = 0;
  long long acted_version_ = -1;
  std::string last_status_;
  std::string input_;
  std::size_t cursor_ = 0;
  std::vector<std::string> history_;
  int history_pos_ = 0;
  std::string page_title_;
  Lines page_;
  bool page_open_ = false;
  int page_top_ = 0;
  int page_rows_ = 10;
  Line message_;
  std::map<std::string, std::string> pending_;  // request id -> its type
  json rooms_;
  std::future<RulesPage> rules_;
  std::string rules_game_;
  Clock::time_point timer_ends_{};
  std::string timer_what_;
  bool timer_mine_ = false;
  long long last_second_ = 0;
};

}  // namespace

int run_full_screen(Session& session) {
  return FullScreen(session).run();
}

}  // namespace campfire::cli
