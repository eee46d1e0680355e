// A game's table as styled lines: the other seats around the top, the middle of the table, and
// your own seat with your hand at the bottom. Each game has its renderer (table_<game>.cpp);
// a game without one gets a readable generic table. Used by the full-screen client and, as
// plain text, by the line mode.
#pragma once

#include <nlohmann/json.hpp>

#include <chrono>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "clients/cli/text.hpp"

namespace campfire::cli {

using json = nlohmann::json;

// What the client remembers beside the state: cards a private event showed for a moment
// (Spider Monkey's peek and Queen look), keyed by (seat, slot id), and the latest claims the
// events told (Pinocchio's view shows only the claim on top of the pile).
struct TableMemory {
  struct Seen {
    std::string card;
    std::chrono::steady_clock::time_point until;
  };
  std::map<std::pair<int, int>, Seen> shown;
  // Pinocchio: the latest claims as the view writes lastClaim, newest last, with what the
  // challenges turned over.
  std::vector<json> claims;
  static constexpr std::size_t kClaimsKept = 8;

  // Takes note of what an event addressed to this seat shows; true when the table changes.
  bool remember(const json& event, int me, std::chrono::steady_clock::time_point now);
  // Forgets what was shown for long enough; true when something was forgotten.
  bool forget(std::chrono::steady_clock::time_point now);
};

struct TableInput {
  const json& state;  // the whole state message
  int width = 80;
  // Rows the table may use; renderers leave out detail when it is small (0: no limit).
  int height = 0;
  const TableMemory* memory = nullptr;
};

// The table for the state's game. Every line is at most `width` columns.
Lines render_table(const TableInput& in);

// --- Pieces the game renderers share -------------------------------------------------------

// A member of a JSON object, or null when there is none (or `object` is no object). A const
// json's operator[] must never be asked for a missing key, and a view may lack any field.
const json& field(const json& object, std::string_view key);

// The seats as the state lists them, with what every table shows about a player.
struct SeatInfo {
  int seat = 0;
  std::string name;
  bool bot = false;
  std::string strategy;  // a server bot's
  bool connected = true;
  bool away = false;
  bool empty = false;
  bool me = false;
  bool to_act = false;
};
std::vector<SeatInfo> seat_infos(const json& state);
int my_seat(const json& state);  // -1 for a spectator
std::string seat_name(const json& state, const json& seat);

// A seat's box: its name line (a marker when it is to act, tags for bots and absent players)
// followed by the game's lines about it.
struct SeatBox {
  SeatInfo who;
  Lines body;
  Line tags;  // short words after the name: "dealer", "monkey hat"
};
Line seat_title(const SeatInfo& who, const std::string& extra = "");

// The table of any game: the other seats in rows across the top (clockwise from your left),
// the middle, then your seat (or, for a spectator, every seat at the top).
Lines arrange(const TableInput& in, const std::vector<SeatBox>& seats, const Lines& middle,
              const Lines& mine);

// Your hand under your seat: large cards when the terminal has the rows and columns for them,
// one line of small ones otherwise.
void add_hand(Lines& mine, const TableInput& in, const std::vector<std::string>& cards);

// Each game's renderer.
Lines table_pinocchio(const TableInput& in, bool compact);
Lines table_naked_gibbon(const TableInput& in, bool compact);
Lines table_fib_fibonacci(const TableInput& in, bool compact);
Lines table_spider_monkey(const TableInput& in, bool compact);
Lines table_tricky_tribes(const TableInput& in, bool compact);
Lines table_generic(const TableInput& in, bool compact);

// A JSON value in words for the generic table: numbers and strings as they are, card codes as
// cards, arrays as lists, objects as "key value" pairs; never JSON syntax.
Line value_words(const json& value);

// Keys of a view object, in a readable form: "handCounts" -> "hand counts".
std::string key_words(const std::string& key);

}  // namespace campfire::cli
