#include "engine/core/game_page.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include "engine/core/match.hpp"

namespace campfire {

namespace {

using schema::Field;
using schema::Shape;

std::string code(const std::string& s) {
  return "`" + s + "`";
}

// JSON for people: an object's members one a line, lists of plain values on one line.
void pretty(const json& j, int indent, std::string& out) {
  const auto plain = [](const json& v) { return !v.is_object() && !v.is_array(); };
  const std::string pad(static_cast<std::size_t>(indent) + 2, ' ');
  if (j.is_object() && !j.empty()) {
    out += "{\n";
    std::size_t i = 0;
    for (const auto& [key, value] : j.items()) {
      out += pad + json(key).dump() + ": ";
      pretty(value, indent + 2, out);
      out += ++i < j.size() ? ",\n" : "\n";
    }
    out += std::string(static_cast<std::size_t>(indent), ' ') + "}";
  } else if (j.is_array() && !j.empty() && !std::all_of(j.begin(), j.end(), plain)) {
    out += "[\n";
    for (std::size_t i = 0; i < j.size(); ++i) {
      out += pad;
      pretty(j[i], indent + 2, out);
      out += i + 1 < j.size() ? ",\n" : "\n";
    }
    out += std::string(static_cast<std::size_t>(indent), ' ') + "]";
  } else {
    out += j.dump();
  }
}

// Event texts name seats as {seat:N}; the room puts the players' names there.
const char* const kNames[] = {"Ann", "Ben", "Cleo", "Dan", "Eve", "Finn", "Gus", "Hana"};

json with_names(json body) {
  if (!body.contains("text") || !body["text"].is_string()) return body;
  std::string text = body["text"].get<std::string>();
  for (std::size_t at = text.find("{seat:"); at != std::string::npos;
       at = text.find("{seat:", at)) {
    const std::size_t end = text.find('}', at);
    const int seat = std::stoi(text.substr(at + 6, end - at - 6));
    const std::string name = seat >= 0 && seat < 8 ? kNames[seat] : "?";
    text.replace(at, end - at + 1, name);
    at += name.size();
  }
  body["text"] = text;
  return body;
}

// A shape in a few words, for the Type column.
std::string type_words(const Shape& s) {
  switch (s.kind) {
    case Shape::Kind::kInteger:
      if (s.min && s.max) return "integer " + std::to_string(*s.min) + "-" + std::to_string(*s.max);
      if (s.min) return "integer ≥ " + std::to_string(*s.min);
      return "integer";
    case Shape::Kind::kText:
      return "string";
    case Shape::Kind::kBoolean:
      return "boolean";
    case Shape::Kind::kNull:
      return "null";
    case Shape::Kind::kSeat:
      return "seat";
    case Shape::Kind::kCard:
      return "card";
    case Shape::Kind::kWords: {
      if (s.words.size() == 1) return code("\"" + s.words.front() + "\"");
      std::string out;
      for (std::size_t i = 0; i < s.words.size(); ++i) {
        out += (i == 0 ? "" : i + 1 == s.words.size() ? " or " : ", ") + code(s.words[i]);
      }
      return out;
    }
    case Shape::Kind::kArray: {
      std::string out = "list of " + type_words(s.of.front());
      if (s.min && s.max && *s.min == *s.max) {
        out += " (" + std::to_string(*s.min) + ")";
      } else if (s.min && s.max) {
        out += " (" + std::to_string(*s.min) + "-" + std::to_string(*s.max) + ")";
      }
      return out;
    }
    case Shape::Kind::kObject:
      return "object";
    case Shape::Kind::kAnyOf: {
      std::string out;
      for (std::size_t i = 0; i < s.of.size(); ++i)
        out += (i == 0 ? "" : " or ") + type_words(s.of[i]);
      return out;
    }
  }
  return "";
}

// The object inside a shape whose members get rows of their own (an object, a list of them, or
// either of those or null).
const Shape* inner_object(const Shape& s) {
  switch (s.kind) {
    case Shape::Kind::kObject:
      return &s;
    case Shape::Kind::kArray:
      return inner_object(s.of.front());
    case Shape::Kind::kAnyOf:
      for (const Shape& alt : s.of) {
        if (const Shape* o = inner_object(alt)) return o;
      }
      return nullptr;
    default:
      return nullptr;
  }
}

// What a member's path gains on the way to that object: "[]" for each list around it.
std::string path_suffix(const Shape& s) {
  if (s.kind == Shape::Kind::kArray) return "[]" + path_suffix(s.of.front());
  if (s.kind == Shape::Kind::kAnyOf) {
    for (const Shape& alt : s.of) {
      if (inner_object(alt) != nullptr) return path_suffix(alt);
    }
  }
  return "";
}

std::string cell(std::string s) {
  std::string out;
  for (char c : s) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

void field_rows(const std::vector<Field>& fields, const std::string& prefix, std::ostream& out) {
  for (const Field& f : fields) {
    const std::string path = prefix + f.name;
    std::string meaning = f.meaning;
    if (!f.when.empty()) meaning += " *Present " + f.when + ".*";
    out << "| " << code(path) << " | " << cell(type_words(f.shape)) << " | " << cell(meaning)
        << " |\n";
    if (const Shape* o = inner_object(f.shape)) {
      field_rows(o->fields, path + path_suffix(f.shape) + ".", out);
    }
  }
}

void field_table(const std::vector<Field>& fields, std::ostream& out) {
  out << "| Field | Type | Meaning |\n|---|---|---|\n";
  field_rows(fields, "", out);
}

std::string option_values(const OptionSpec& o) {
  switch (o.type) {
    case OptionSpec::Type::kBool:
      return "`true`, `false`";
    case OptionSpec::Type::kInt:
      return std::to_string(o.min) + "-" + std::to_string(o.max);
    case OptionSpec::Type::kChoice: {
      std::string out;
      for (std::size_t i = 0; i < o.choices.size(); ++i)
        out += (i ? ", " : "") + code(o.choices[i]);
      return out;
    }
  }
  return "";
}

// Examples of moves and events from seeded games: with the default options, then with each
// option at each of its other values, so moves and events that need a variant show up too.
struct Examples {
  std::map<std::string, json> moves;
  std::map<std::string, json> events;
};

std::vector<json> option_variants(const GameInfo& info) {
  std::vector<json> out = {json::object()};
  for (const OptionSpec& o : info.options) {
    std::vector<json> values;
    switch (o.type) {
      case OptionSpec::Type::kBool:
        values = {!o.default_value.get<bool>()};
        break;
      case OptionSpec::Type::kInt:
        values = {o.min, o.max};
        break;
      case OptionSpec::Type::kChoice:
        for (const auto& c : o.choices) values.push_back(c);
        break;
    }
    for (const json& v : values) {
      if (v != o.default_value) out.push_back({{o.key, v}});
    }
  }
  return out;
}

Examples find_examples(const Game& game, const schema::GameSchema& s) {
  Examples ex;
  const std::size_t wanted = s.moves.size() + s.events.size();
  const GameInfo& info = game.info();
  std::vector<Action> legal;
  for (const json& options : option_variants(info)) {
    for (int seats = info.min_seats; seats <= info.max_seats; ++seats) {
      for (std::uint64_t seed = 1; seed <= 4; ++seed) {
        if (ex.moves.size() + ex.events.size() == wanted) return ex;
        auto created = Match::create(game, seats, options, seed);
        if (!created) break;
        Match& m = *created;
        Rng pick(seed);
        for (int step = 0; step < info.max_actions && !m.state().over(); ++step) {
          const SeatSet acting = m.state().to_act();
          Seat seat = kSystem;
          Action a;
          const auto w = m.state().window();
          if (acting.empty()) {
            if (!w) break;
            a = Action::timeout(w->id);
          } else {
            seat = acting.first();
            m.state().legal_actions(seat, legal);
            for (const Action& l : legal) {
              json j = game.action_to_json(l);
              ex.moves.emplace(j["move"].get<std::string>(), std::move(j));
            }
            a = legal[pick.below(legal.size())];
          }
          Events events;
          if (m.apply(seat, a, events)) break;
          for (const Event& e : events.list()) {
            ex.events.emplace(e.body["type"].get<std::string>(), with_names(e.body));
          }
        }
      }
    }
  }
  return ex;
}

// A game in progress: the view one seat has halfway through a seeded game with the default
// options.
struct MidGame {
  int seats = 0;
  std::uint64_t seed = 0;
  int moves = 0;
  json view;
};

MidGame mid_game(const Game& game) {
  MidGame g;
  g.seats = std::min(std::max(3, game.info().min_seats), game.info().max_seats);
  g.seed = 7;
  auto length = [&](int stop_at) {
    Match m = std::move(*Match::create(game, g.seats, json::object(), g.seed));
    Rng pick(g.seed);
    std::vector<Action> legal;
    int step = 0;
    for (; step < stop_at && !m.state().over(); ++step) {
      const SeatSet acting = m.state().to_act();
      Events silent(false);
      if (acting.empty()) {
        (void)m.apply(kSystem, Action::timeout(m.state().window()->id), silent);
        continue;
      }
      m.state().legal_actions(acting.first(), legal);
      (void)m.apply(acting.first(), legal[pick.below(legal.size())], silent);
    }
    return std::pair<int, json>(step, m.state().view(0));
  };
  const int total = length(game.info().max_actions).first;
  auto [moves, view] = length(total / 2);
  g.moves = moves;
  g.view = std::move(view);
  return g;
}

}  // namespace

std::string game_page(const Game& game) {
  const GameInfo& info = game.info();
  const schema::GameSchema s = game.schema();
  const Examples ex = find_examples(game, s);
  std::ostringstream out;
  out << "# " << info.name << "\n\n";
  std::string folder = info.id;
  std::replace(folder.begin(), folder.end(), '-', '_');
  out << "<!-- Made from the game's declaration, engine/" << folder << "/" << folder
      << "_schema.cpp, by `make game-pages`; a test keeps it equal. Change the declaration, not "
         "this page. -->\n\n";
  out << info.summary << " " << info.min_seats << " to " << info.max_seats << " players; game id "
      << code(info.id) << ".\n\n";
  out << "This page describes what " << info.name
      << " puts in a state's `view`, the moves a client sends in an `action` request and the "
         "events it hears (see [PROTOCOL.md](../PROTOCOL.md) for the messages around them). "
         "The same declaration is served as JSON Schema (2020-12) at "
      << code("GET /api/games/" + info.id + "/schema") << ".\n\n";
  out << "Seats are numbered clockwise from 0; a `seat` is one of those numbers.\n\n";

  out << "## Options\n\n";
  if (info.options.empty()) {
    out << "None.\n\n";
  } else {
    out << "| Option | Values | Default | Meaning |\n|---|---|---|---|\n";
    for (const OptionSpec& o : info.options) {
      out << "| " << code(o.key) << " | " << option_values(o) << " | "
          << code(o.default_value.dump()) << " | " << cell(o.description) << " |\n";
    }
    out << "\n";
  }

  out << "## Cards\n\n" << s.cards_note << "\n\n| Code | Card |\n|---|---|\n";
  for (const schema::CardName& c : s.cards)
    out << "| " << code(c.code) << " | " << c.name << " |\n";
  out << "\n";

  out << "## The view\n\n" << s.view_note << "\n\n";
  field_table(s.view.fields, out);
  out << "\n";

  out << "## Moves\n\nA move is sent as the `action` of an `action` request; every move you "
         "may make now is listed, ready to send, in your state's `legal`.\n\n";
  for (const schema::Move& m : s.moves) {
    out << "### " << code(m.name) << "\n\n" << m.meaning << "\n\n";
    if (!m.fields.empty()) {
      field_table(m.fields, out);
      out << "\n";
    }
    if (auto it = ex.moves.find(m.name); it != ex.moves.end()) {
      out << "```json\n" << it->second.dump() << "\n```\n\n";
    }
  }

  out << "## Events\n\nEvery event has `type` and `text`, the event in words with the players' "
         "names filled in (left out for a connection whose `hello` said `\"texts\": false`). "
         "Private events reach only the seat they concern; spectators hear public events "
         "only.\n\n";
  for (const schema::EventType& e : s.events) {
    out << "### " << code(e.type) << (e.is_private ? " (private)" : "") << "\n\n"
        << e.meaning << "\n\n";
    if (!e.fields.empty()) {
      field_table(e.fields, out);
      out << "\n";
    }
    if (auto it = ex.events.find(e.type); it != ex.events.end()) {
      out << "```json\n" << it->second.dump() << "\n```\n\n";
    }
  }

  const MidGame g = mid_game(game);
  out << "## A game in progress\n\nThe view of seat 0 in a game of " << g.seats
      << " players with the default options (seed " << g.seed << ") after " << g.moves
      << " moves:\n\n```json\n";
  std::string text;
  pretty(g.view, 0, text);
  out << text << "\n```\n";
  return out.str();
}

}  // namespace campfire
