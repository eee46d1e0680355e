#include "clients/cli/commands.hpp"

#include <algorithm>
#include <cctype>
#include <sstream>

#include "clients/cli/table.hpp"
#include "protocol/requests.hpp"

namespace campfire::cli {

namespace proto = campfire::protocol;

namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::optional<bool> yes_no(const std::string& text) {
  const std::string t = lower(text);
  if (t == "true" || t == "yes" || t == "on" || t == "1") return true;
  if (t == "false" || t == "no" || t == "off" || t == "0") return false;
  return std::nullopt;
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

// An option's value in the type the game declares, where the text allows it.
json typed_value(const json& spec, const std::string& text) {
  const std::string type = spec.value("type", "");
  if (type == "bool") {
    if (auto b = yes_no(text)) return *b;
  } else if (type == "choice" && field(spec, "choices").is_array()) {
    for (const json& c : field(spec, "choices")) {
      if (c.is_string() && lower(c.get<std::string>()) == lower(text)) return c;
    }
    return text;
  }
  return option_value(text);
}

// "45", "45s" or "2m": seconds.
std::optional<long long> seconds(const std::string& text) {
  if (text.empty()) return std::nullopt;
  long long scale = 1;
  std::string digits = text;
  if (digits.back() == 's' || digits.back() == 'm') {
    if (digits.back() == 'm') scale = 60;
    digits.pop_back();
  }
  if (!all_digits(digits)) return std::nullopt;
  return std::stoll(digits) * scale;
}

std::string seat_range(int seats) {
  return seats == 1 ? "this room has one seat"
                    : "this room has seats 1 to " + std::to_string(seats);
}

// The bot strategies the room's game offers (from the games list), or null when not known.
const json& bot_strategies(const Session& s) {
  static const json none;
  const json& id = field(s.state(), "game");
  const std::string game = id.is_string() ? id.get<std::string>() : "";
  const json& games = s.games();
  if (games.is_array()) {
    for (const json& g : games) {
      if (g.value("id", "") == game && g.contains("strategies")) return g["strategies"];
    }
  }
  return none;
}

int seat_count(const Session& s) {
  const json& players = field(s.state(), "players");
  return players.is_array() ? static_cast<int>(players.size()) : 0;
}

Outcome sent(std::optional<std::string> id, std::string type) {
  Outcome o;
  if (!id) {
    o.say = "not connected to the server yet: wait a moment and try again";
    o.error = true;
    return o;
  }
  o.request_id = std::move(id);
  o.request_type = std::move(type);
  return o;
}

Outcome refuse(std::string text) {
  Outcome o;
  o.say = std::move(text);
  o.error = true;
  return o;
}

}  // namespace

std::vector<std::string> words(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

bool all_digits(const std::string& s) {
  return !s.empty() && s.size() < 9 && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isdigit(static_cast<unsigned char>(c));
  });
}

Lines help_lines(bool keys) {
  static const char* const rows[][2] = {
      {"games", "the games and their options"},
      {"rules GAME", "how a game is played"},
      {"rooms", "the rooms you hold a seat in, and the open rooms"},
      {"create GAME SEATS [key=value ...]", "open a room and take its first seat; options as"},
      {"", "games lists them, timers turn=45 timeout=default|bot"},
      {"", "grace=60 takeover=yes|no, and private to stay unlisted"},
      {"join CODE [SEAT]", "take a seat in a room (the first free one)"},
      {"rejoin [CODE] [TOKEN]", "take your seat back (the token is remembered)"},
      {"spectate CODE", "watch a room"},
      {"bot [SEAT] [STRATEGY]", "fill a free seat with a bot: basic (rules of thumb, the"},
      {"", "default), expert (searches) or random; bot 2 expert"},
      {"start", "start the game once every seat is taken"},
      {"NUMBER", "play that move"},
      {"say TEXT", "chat with the room"},
      {"sync", "ask for a fresh copy of the table"},
      {"wait", "wait for your turn or the end of the game"},
      {"leave", "leave the room (a seat in a started game stays yours)"},
      {"help", "this list"},
      {"quit", "leave campfire-cli"},
  };
  Lines out;
  out.push_back(Line("commands", styles::bold));
  for (const auto& row : rows) {
    Line l("  ");
    l.add(row[0], styles::accent);
    l.pad_to(38);
    l.add(row[1]);
    out.push_back(std::move(l));
  }
  if (keys) {
    static const char* const key_rows[][2] = {
        {"Up, Down", "choose a move; Enter plays it"},
        {"a number, Enter", "play that move"},
        {"PgUp, PgDn", "scroll the events (or the page on top)"},
        {"Esc", "close the page on top, clear the input"},
        {"Ctrl-P, Ctrl-N", "earlier and later commands"},
        {"Ctrl-L", "draw the screen again"},
        {"Ctrl-C", "quit"},
    };
    out.emplace_back();
    out.push_back(Line("keys", styles::bold));
    for (const auto& row : key_rows) {
      Line l("  ");
      l.add(row[0], styles::accent);
      l.pad_to(38);
      l.add(row[1]);
      out.push_back(std::move(l));
    }
  }
  return out;
}

std::string resolve_game(const std::string& text, const json& games) {
  if (!games.is_array()) return text;
  const std::string want = lower(text);
  std::vector<std::string> starts;
  for (const json& g : games) {
    const std::string id = g.value("id", "");
    std::string name = lower(g.value("name", ""));
    if (id == want) return id;
    if (name == want) return id;
    // "naked gibbon" and "nakedgibbon" name naked-gibbon as well.
    std::string bare;
    for (char c : id) {
      if (c != '-') bare += c;
    }
    if (bare == want) return id;
    if (id.rfind(want, 0) == 0 || name.rfind(want, 0) == 0) starts.push_back(id);
  }
  return starts.size() == 1 ? starts.front() : text;
}

CreateParse parse_create(const std::vector<std::string>& w, const json& games) {
  CreateParse out;
  if (w.size() < 3 || !all_digits(w[2])) {
    out.error = "usage: create GAME SEATS [key=value ...] [private]";
    if (w.size() >= 2 && games.is_array()) {
      const std::string id = resolve_game(w[1], games);
      for (const json& g : games) {
        if (g.value("id", "") == id) {
          out.error += " (" + id + " takes " + std::to_string(g.value("minSeats", 0)) + " to " +
                       std::to_string(g.value("maxSeats", 0)) + " seats)";
        }
      }
    }
    return out;
  }
  const std::string game = resolve_game(w[1], games);
  const json* spec = nullptr;
  if (games.is_array()) {
    for (const json& g : games) {
      if (g.value("id", "") == game) spec = &g;
    }
  }
  proto::CreateRoom m;
  m.game = game;
  m.seats = std::stoi(w[2]);
  json options = json::object();
  json timers = json::object();
  for (std::size_t i = 3; i < w.size(); ++i) {
    if (lower(w[i]) == "private") {
      m.is_private = true;
      continue;
    }
    const auto eq = w[i].find('=');
    if (eq == std::string::npos || eq == 0) {
      out.error = "options are key=value, not '" + w[i] + "'";
      return out;
    }
    const std::string key = w[i].substr(0, eq);
    const std::string value = w[i].substr(eq + 1);
    const std::string k = lower(key);
    // The room's timers.
    if (k == "turn" || k == "grace") {
      const auto s = seconds(value);
      if (!s) {
        out.error = key + "= takes seconds (" + key + "=45 or " + key + "=2m), not '" + value + "'";
        return out;
      }
      timers[k == "turn" ? "turnSeconds" : "graceSeconds"] = *s;
      continue;
    }
    if (k == "timeout") {
      if (lower(value) != "default" && lower(value) != "bot") {
        out.error = "timeout= is default (the game's own move) or bot (a bot's choice), not '" +
                    value + "'";
        return out;
      }
      timers["onTimeout"] = lower(value);
      continue;
    }
    if (k == "takeover") {
      const auto b = yes_no(value);
      if (!b) {
        out.error = "takeover= is yes or no, not '" + value + "'";
        return out;
      }
      timers["botTakeover"] = *b;
      continue;
    }
    // The shuffle's seed is a field of create_room itself (test-mode servers only).
    if (k == "seed") {
      m.seed = option_value(value);
      continue;
    }
    const json* option = nullptr;
    std::string name = key;
    if (spec != nullptr && field(*spec, "options").is_array()) {
      for (const json& o : field(*spec, "options")) {
        if (lower(o.value("key", "")) == k) {
          name = o.value("key", key);
          option = &o;
        }
      }
    }
    options[name] = option != nullptr ? typed_value(*option, value) : option_value(value);
  }
  m.options = std::move(options);
  if (!timers.empty()) m.timers = std::move(timers);
  out.message = proto::encode(m);
  return out;
}

Outcome run_command(const std::string& line, Session& s) {
  const auto w = words(line);
  Outcome o;
  if (w.empty()) return o;
  const std::string verb = lower(w[0]);
  const bool in_room = !s.room().empty();
  const auto need_room = [&]() -> std::optional<Outcome> {
    if (in_room) return std::nullopt;
    return refuse("you are not in a room: create, join or spectate one first");
  };
  if (verb == "help" || verb == "?") {
    o.help = true;
  } else if (verb == "quit" || verb == "exit") {
    o.quit = true;
  } else if (verb == "games") {
    return sent(s.request(proto::encode(proto::ListGames{})), "list_games");
  } else if (verb == "rooms") {
    return sent(s.request(proto::encode(proto::ListRooms{})), "list_rooms");
  } else if (verb == "rules") {
    if (w.size() < 2) {
      if (!s.state().is_object()) return refuse("usage: rules GAME (games lists them)");
      o.rules = s.state().value("game", "");
    } else {
      const std::string id = resolve_game(w[1], s.games());
      const json& games = s.games();
      if (games.is_array() && std::none_of(games.begin(), games.end(), [&](const json& g) {
            return g.is_object() && g.value("id", "") == id;
          })) {
        return refuse("there is no game '" + w[1] + "' (games lists them)");
      }
      o.rules = id;
    }
  } else if (verb == "create") {
    auto parsed = parse_create(w, s.games());
    if (!parsed.error.empty()) return refuse(parsed.error);
    return sent(s.request(parsed.message), "create_room");
  } else if (verb == "join") {
    if (w.size() < 2) return refuse("usage: join CODE [SEAT]");
    proto::Join m{room_code(w[1]), std::nullopt};
    if (w.size() >= 3) {
      if (!all_digits(w[2]) || std::stoi(w[2]) < 1) {
        return refuse("seats are numbered from 1, not '" + w[2] + "'");
      }
      m.seat = std::stoi(w[2]) - 1;
    }
    return sent(s.request(proto::encode(m)), "join");
  } else if (verb == "rejoin") {
    std::string room = w.size() >= 2 ? room_code(w[1]) : "";
    if (room.empty()) {
      // Without a code: the one game you hold a seat in on this server, if there is just one.
      std::vector<HeldSeat> open;
      for (const HeldSeat& h : s.seats().on_server(s.endpoint().text())) {
        if (!h.over) open.push_back(h);
      }
      if (open.size() != 1) {
        return refuse(open.empty()
                          ? "you hold no seat on this server: rejoin CODE TOKEN"
                          : "you hold seats in several rooms: rejoin CODE (rooms lists them)");
      }
      room = open.front().room;
    }
    std::optional<std::string> token;
    if (w.size() >= 3) {
      token = w[2];
    } else if (auto held = s.seats().get(room)) {
      token = held->token;
    }
    if (!token)
      return refuse("no token remembered for room " + room + "; give it: rejoin CODE TOKEN");
    return sent(s.request(proto::encode(proto::Rejoin{room, *token})), "rejoin");
  } else if (verb == "spectate" || verb == "watch") {
    if (w.size() < 2) return refuse("usage: spectate CODE");
    return sent(s.request(proto::encode(proto::Spectate{room_code(w[1])})), "spectate");
  } else if (verb == "bot") {
    if (auto r = need_room()) return *r;
    proto::AddBot m{s.room(), std::nullopt, std::nullopt};
    // bot [SEAT] [STRATEGY], in either order: a number is a seat, a word the bot's strategy.
    for (std::size_t i = 1; i < w.size(); ++i) {
      const bool number = std::all_of(w[i].begin(), w[i].end(), [](char c) {
        return std::isdigit(static_cast<unsigned char>(c)) != 0 || c == '-';
      });
      if (number) {
        const int seats = seat_count(s);
        if (m.seat || !all_digits(w[i]) || std::stoi(w[i]) < 1 ||
            (seats > 0 && std::stoi(w[i]) > seats)) {
          return refuse("there is no seat " + w[i] + ": " + seat_range(seats));
        }
        m.seat = std::stoi(w[i]) - 1;
        continue;
      }
      const std::string strategy = lower(w[i]);
      const json& offered = bot_strategies(s);
      if (m.strategy || (offered.is_array() && std::find(offered.begin(), offered.end(),
                                                                     strategy) == offered.end())) {
        std::string names;
        for (const json& n : offered) names += (names.empty() ? "" : ", ") + n.get<std::string>();
        return refuse("a bot plays " +
                      (names.empty() ? std::string("random, basic or expert") : names) + ", not '" +
                      w[i] + "'");
      }
      m.strategy = strategy;
    }
    return sent(s.request(proto::encode(m)), "add_bot");
  } else if (verb == "start" || verb == "leave" || verb == "sync") {
    if (auto r = need_room()) return *r;
    const proto::ClientRequest r = verb == "start"   ? proto::ClientRequest(proto::Start{s.room()})
                                   : verb == "leave" ? proto::ClientRequest(proto::Leave{s.room()})
                                                     : proto::ClientRequest(proto::Sync{s.room()});
    return sent(s.request(proto::encode(r)), verb);
  } else if (verb == "say") {
    if (auto r = need_room()) return *r;
    const auto at = line.find_first_not_of(' ', line.find(w[0]) + w[0].size());
    const std::string text = at == std::string::npos ? "" : line.substr(at);
    if (text.empty()) return refuse("usage: say TEXT");
    return sent(s.request(proto::encode(proto::Chat{s.room(), text})), "chat");
  } else if (verb == "wait") {
    o.wait = true;
  } else {
    return refuse("unknown command '" + line + "'; type help");
  }
  return o;
}

Outcome play(std::size_t number, Session& s, long long& acted_version) {
  if (s.room().empty()) return refuse("you are not in a room: create, join or spectate one first");
  const json& state = s.state();
  if (s.game_over() || (state.is_object() && state.value("status", "") == "over")) {
    return refuse("the game is over: nothing to play");
  }
  const json& legal = field(state, "legal");
  if (!legal.is_array() || legal.empty()) return refuse("nothing to play now");
  if (number < 1 || number > legal.size()) {
    return refuse("choose a number from 1 to " + std::to_string(legal.size()));
  }
  acted_version = state.value("version", 0LL);
  return sent(s.request(proto::encode(proto::Act{s.room(), legal[number - 1], acted_version})),
              "action");
}

}  // namespace campfire::cli
