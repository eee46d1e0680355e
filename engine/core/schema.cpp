#include "engine/core/schema.hpp"

#include <algorithm>

#include "engine/core/game.hpp"

namespace campfire::schema {

Shape integer(std::optional<int> min, std::optional<int> max) {
  Shape s;
  s.kind = Shape::Kind::kInteger;
  s.min = min;
  s.max = max;
  return s;
}

Shape text() {
  Shape s;
  s.kind = Shape::Kind::kText;
  return s;
}

Shape boolean() {
  Shape s;
  s.kind = Shape::Kind::kBoolean;
  return s;
}

Shape seat() {
  Shape s;
  s.kind = Shape::Kind::kSeat;
  return s;
}

Shape card() {
  Shape s;
  s.kind = Shape::Kind::kCard;
  return s;
}

Shape word(std::string exactly) {
  return one_of({std::move(exactly)});
}

Shape one_of(std::vector<std::string> allowed) {
  Shape s;
  s.kind = Shape::Kind::kWords;
  s.words = std::move(allowed);
  return s;
}

Shape array(Shape items, std::optional<int> min, std::optional<int> max) {
  Shape s;
  s.kind = Shape::Kind::kArray;
  s.of.push_back(std::move(items));
  s.min = min;
  s.max = max;
  return s;
}

Shape object(std::vector<Field> fields) {
  Shape s;
  s.kind = Shape::Kind::kObject;
  s.fields = std::move(fields);
  return s;
}

Shape or_null(Shape shape) {
  Shape null;
  null.kind = Shape::Kind::kNull;
  return either({std::move(shape), std::move(null)});
}

Shape either(std::vector<Shape> alternatives) {
  Shape s;
  s.kind = Shape::Kind::kAnyOf;
  s.of = std::move(alternatives);
  return s;
}

Field field(std::string name, Shape shape, std::string meaning) {
  return Field{std::move(name), std::move(shape), std::move(meaning), ""};
}

Field optional(std::string name, Shape shape, std::string meaning, std::string when) {
  return Field{std::move(name), std::move(shape), std::move(meaning), std::move(when)};
}

Shape result_shape() {
  return object({
      field("winners", array(seat()), "The seats that won (ties share the win)."),
      field("losers", array(seat()), "The seats that lost."),
      field("places", array(integer(1)),
            "Each seat's place, by seat: 1 is the best; ties share a place."),
      field("scores", array(integer()),
            "Each seat's score, by seat, in the game's own terms; `places` says who did best."),
  });
}

Shape move_shape(const Move& move) {
  std::vector<Field> all = {field("move", word(move.name), move.meaning)};
  all.insert(all.end(), move.fields.begin(), move.fields.end());
  return object(std::move(all));
}

Shape event_shape(const EventType& event) {
  std::vector<Field> all = {
      field("type", word(event.type), event.meaning),
      optional("text", text(), "What happened, in words, with the players' names filled in.",
               "unless the connection asked for no texts (`\"texts\": false` in `hello`)")};
  all.insert(all.end(), event.fields.begin(), event.fields.end());
  return object(std::move(all));
}

std::vector<Card> cards_dealt(const Game& game) {
  const GameInfo& info = game.info();
  std::vector<json> variants = {json::object()};
  for (const OptionSpec& o : info.options) {
    switch (o.type) {
      case OptionSpec::Type::kBool:
        variants.push_back({{o.key, true}});
        variants.push_back({{o.key, false}});
        break;
      case OptionSpec::Type::kInt:
        for (int v = o.min; v <= o.max && v - o.min < 64; ++v) variants.push_back({{o.key, v}});
        break;
      case OptionSpec::Type::kChoice:
        for (const std::string& c : o.choices) variants.push_back({{o.key, c}});
        break;
    }
  }
  std::vector<Card> all;
  for (int seats = info.min_seats; seats <= info.max_seats; ++seats) {
    for (const json& v : variants) {
      const auto options = game.parse_options(v, seats);
      if (!options) continue;
      for (Card c : game.deck(*options, seats)) all.push_back(c);
    }
  }
  std::sort(all.begin(), all.end());
  all.erase(std::unique(all.begin(), all.end()), all.end());
  return all;
}

namespace {

std::string described(const Field& f) {
  return f.when.empty() ? f.meaning : f.meaning + " Present " + f.when + ".";
}

json to_json(const Shape& s) {
  switch (s.kind) {
    case Shape::Kind::kInteger: {
      json j = {{"type", "integer"}};
      if (s.min) j["minimum"] = *s.min;
      if (s.max) j["maximum"] = *s.max;
      return j;
    }
    case Shape::Kind::kText:
      return {{"type", "string"}};
    case Shape::Kind::kBoolean:
      return {{"type", "boolean"}};
    case Shape::Kind::kNull:
      return {{"type", "null"}};
    case Shape::Kind::kSeat:
      return {{"$ref", "#/$defs/seat"}};
    case Shape::Kind::kCard:
      return {{"$ref", "#/$defs/card"}};
    case Shape::Kind::kWords:
      if (s.words.size() == 1) return {{"const", s.words.front()}};
      return {{"enum", s.words}};
    case Shape::Kind::kArray: {
      json j = {{"type", "array"}, {"items", to_json(s.of.front())}};
      if (s.min) j["minItems"] = *s.min;
      if (s.max) j["maxItems"] = *s.max;
      return j;
    }
    case Shape::Kind::kObject: {
      json properties = json::object();
      json required = json::array();
      for (const Field& f : s.fields) {
        json p = to_json(f.shape);
        p["description"] = described(f);
        properties[f.name] = std::move(p);
        if (f.when.empty()) required.push_back(f.name);
      }
      return {{"type", "object"},
              {"properties", std::move(properties)},
              {"required", std::move(required)},
              {"additionalProperties", false}};
    }
    case Shape::Kind::kAnyOf: {
      json any = json::array();
      for (const Shape& alt : s.of) any.push_back(to_json(alt));
      return {{"anyOf", std::move(any)}};
    }
  }
  return json::object();
}

}  // namespace

json to_json_schema(const Game& game) {
  const GameInfo& info = game.info();
  const GameSchema s = game.schema();
  json defs = json::object();
  json codes = json::array();
  for (const CardName& c : s.cards) codes.push_back(c.code);
  defs["seat"] = {{"type", "integer"},
                  {"minimum", 0},
                  {"maximum", info.max_seats - 1},
                  {"description", "A seat, numbered clockwise from 0."}};
  defs["card"] = {{"enum", std::move(codes)}, {"description", s.cards_note}};
  defs["view"] = to_json(s.view);
  defs["view"]["description"] = s.view_note;
  json actions = json::array();
  for (const Move& m : s.moves) {
    const std::string name = "action-" + m.name;
    defs[name] = to_json(move_shape(m));
    defs[name]["description"] = m.meaning;
    actions.push_back({{"$ref", "#/$defs/" + name}});
  }
  defs["action"] = {{"oneOf", std::move(actions)},
                    {"description", "A move as a client sends it in an action request."}};
  json events = json::array();
  for (const EventType& e : s.events) {
    const std::string name = "event-" + e.type;
    defs[name] = to_json(event_shape(e));
    defs[name]["description"] =
        e.meaning + (e.is_private ? " Private: only to the seat it concerns." : "");
    events.push_back({{"$ref", "#/$defs/" + name}});
  }
  defs["event"] = {{"oneOf", std::move(events)},
                   {"description", "An event of the game, as the room passes it on."}};
  return {{"$schema", "https://json-schema.org/draft/2020-12/schema"},
          {"title", info.name},
          {"description", "The view, moves and events of " + info.name +
                              " on the Campfire protocol: validate a view against "
                              "#/$defs/view, a move against #/$defs/action and an event against "
                              "#/$defs/event."},
          {"$defs", std::move(defs)}};
}

json rooted_at(const json& document, const std::string& def) {
  json j = document;
  j["$ref"] = "#/$defs/" + def;
  return j;
}

void member_paths(const Shape& shape, const std::string& prefix, std::vector<std::string>& out) {
  switch (shape.kind) {
    case Shape::Kind::kObject:
      for (const Field& f : shape.fields) {
        const std::string path = prefix.empty() ? f.name : prefix + "." + f.name;
        out.push_back(path);
        member_paths(f.shape, path, out);
      }
      break;
    case Shape::Kind::kArray:
      member_paths(shape.of.front(), prefix + "[]", out);
      break;
    case Shape::Kind::kAnyOf:
      for (const Shape& alt : shape.of) member_paths(alt, prefix, out);
      break;
    default:
      break;
  }
}

void paths_present(const Shape& shape, const json& instance, const std::string& prefix,
                   std::vector<std::string>& out) {
  switch (shape.kind) {
    case Shape::Kind::kObject:
      if (!instance.is_object()) return;
      for (const Field& f : shape.fields) {
        const auto it = instance.find(f.name);
        if (it == instance.end()) continue;
        const std::string path = prefix.empty() ? f.name : prefix + "." + f.name;
        out.push_back(path);
        paths_present(f.shape, *it, path, out);
      }
      break;
    case Shape::Kind::kArray:
      if (!instance.is_array()) return;
      for (const json& item : instance) paths_present(shape.of.front(), item, prefix + "[]", out);
      break;
    case Shape::Kind::kAnyOf:
      for (const Shape& alt : shape.of) paths_present(alt, instance, prefix, out);
      break;
    default:
      break;
  }
}

}  // namespace campfire::schema
