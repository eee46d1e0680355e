// The shape of what a game says and hears, declared once in the game's own code: its view, each
// move a client may send and each event the room passes on, with every field in the game's own
// words. From this one declaration come the JSON Schema (2020-12) the server serves at
// /api/games/<id>/schema and the game's page in protocol/games/; the engine tests validate the
// views, legal moves and events of random games against it.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

#include "engine/core/types.hpp"

namespace campfire {

class Game;

namespace schema {

using json = nlohmann::json;

struct Field;

// The shape of one JSON value.
struct Shape {
  enum class Kind {
    kInteger,
    kText,
    kBoolean,
    kSeat,
    kCard,
    kWords,
    kArray,
    kObject,
    kAnyOf,
    kNull
  };
  Kind kind = Kind::kNull;
  std::optional<int> min;          // integers: the smallest value; arrays: the fewest items
  std::optional<int> max;          // integers: the largest value; arrays: the most items
  std::vector<std::string> words;  // kWords: the strings allowed
  std::vector<Shape> of;           // kArray: the items' shape; kAnyOf: the alternatives
  std::vector<Field> fields;       // kObject: its members
};

// One member of an object.
struct Field {
  std::string name;
  Shape shape;
  std::string meaning;  // in the game's words
  std::string when;     // empty when always present; else when it is ("during the play step")
};

Shape integer(std::optional<int> min = std::nullopt, std::optional<int> max = std::nullopt);
Shape text();
Shape boolean();
Shape seat();  // a seat number, 0 to the game's most seats minus one
Shape card();  // one of the game's card codes
Shape word(std::string exactly);
Shape one_of(std::vector<std::string> allowed);
Shape array(Shape items, std::optional<int> min = std::nullopt,
            std::optional<int> max = std::nullopt);
Shape object(std::vector<Field> fields);
Shape or_null(Shape shape);
Shape either(std::vector<Shape> alternatives);

// A member always present, and one present only sometimes (`when` says when).
Field field(std::string name, Shape shape, std::string meaning);
Field optional(std::string name, Shape shape, std::string meaning, std::string when);

// How a finished game ended (Result): the same for every game.
Shape result_shape();

// A move as a client sends it: {"move": name, ...fields}.
struct Move {
  std::string name;
  std::string meaning;
  std::vector<Field> fields;
};

// An event as the room passes it on: {"type": type, "text": words, ...fields}. Private events
// reach only the seats they concern; spectators hear public events only.
struct EventType {
  std::string type;
  std::string meaning;
  bool is_private = false;
  std::vector<Field> fields;
};

struct CardName {
  std::string code;  // as views, moves and events write it
  std::string name;  // for people
};

// Everything a game declares about its wire format.
struct GameSchema {
  std::string cards_note;  // how the game's cards are written, in a sentence or two
  std::vector<CardName> cards;
  std::string view_note;  // what the view shows, and what it leaves to events
  Shape view;
  std::vector<Move> moves;
  std::vector<EventType> events;
};

// Every card a game may deal, over its seat counts and each option at each of its values, in
// card order: the cards a declaration lists.
std::vector<Card> cards_dealt(const Game& game);

// A move or an event as one object, its "move" or "type" (and an event's "text") included.
Shape move_shape(const Move& move);
Shape event_shape(const EventType& event);

// The JSON Schema document of a game: its $defs hold "view", "action" (any move), "event" (any
// event), one "action-<move>" per move and one "event-<type>" per event, and the shared "seat"
// and "card".
json to_json_schema(const Game& game);

// The schema with `def` as its root, ready for a validator.
json rooted_at(const json& document, const std::string& def);

// Every member path a shape declares ("lastClaim.by", "fire[].card"), for coverage checks.
void member_paths(const Shape& shape, const std::string& prefix, std::vector<std::string>& out);
// The member paths an instance actually has, walking the shape alongside it.
void paths_present(const Shape& shape, const json& instance, const std::string& prefix,
                   std::vector<std::string>& out);

}  // namespace schema
}  // namespace campfire
