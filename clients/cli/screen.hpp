// The full-screen client's picture, built as a grid of styled cells without curses: a bar on
// top (room, game, who you are, the timer), the table on the left with the moves under it, the
// events and the chat on the right, a message line and the input line at the bottom. A page
// (help, rules, games, rooms) may cover the table. Every size from 60x16 up is laid out; the
// terminal code only copies the grid to the screen, and the tests read it as text.
#pragma once

#include <nlohmann/json.hpp>

#include <deque>
#include <string>
#include <vector>

#include "clients/cli/table.hpp"
#include "clients/cli/text.hpp"

namespace campfire::cli {

using json = nlohmann::json;

struct Cell {
  std::string glyph = " ";  // empty for the second column of a wide character
  Style style;
};

class Frame {
 public:
  Frame(int width, int height);

  int width() const { return width_; }
  int height() const { return height_; }
  const Cell& at(int x, int y) const { return cells_[static_cast<std::size_t>(y * width_ + x)]; }

  // Writes `line` from (x, y), at most `max_width` columns (to the right edge when < 0).
  void put(int x, int y, const Line& line, int max_width = -1);
  // Fills a rectangle with spaces of `style`.
  void fill(int x, int y, int w, int h, Style style);
  // The row as plain text, trailing spaces removed.
  std::string row(int y) const;
  std::string text() const;

 private:
  Cell& cell(int x, int y) { return cells_[static_cast<std::size_t>(y * width_ + x)]; }

  int width_;
  int height_;
  std::vector<Cell> cells_;
};

// Everything the picture shows, gathered by the client.
struct ScreenModel {
  // The top bar.
  std::string name;    // yours
  std::string server;  // host:port
  bool connected = true;
  std::string connection;  // "reconnecting in 2 s (connection refused)" while down
  Line timer;              // "your turn 12 s", already styled; empty without one
  // The room; null state in the lobby.
  const json* state = nullptr;
  std::string game_name;
  const TableMemory* memory = nullptr;
  Lines lobby;   // what the table area shows outside a room
  Lines result;  // the end of the game, shown above the moves
  // Moves: the labels of the legal actions and the chosen one.
  std::vector<std::string> moves;
  int selected = 0;
  Line waiting;  // what to say when there is no move ("waiting for Bella")
  // The events and chat panes, oldest first; the events scrolled back by `events_back` lines.
  const std::deque<Line>* events = nullptr;
  int events_back = 0;
  const std::deque<Line>* chat = nullptr;
  // A page over the table (help, rules, games, rooms), scrolled down by `page_top` lines.
  std::string page_title;
  const Lines* page = nullptr;
  int page_top = 0;
  // The message line and the input line.
  Line message;
  std::string input;
  std::size_t cursor = 0;  // in bytes within `input`
};

struct Composed {
  Frame frame;
  int cursor_x = 0;
  int cursor_y = 0;
  // Rows the page shows at once (for PgUp/PgDn), and the most it may be scrolled.
  int page_rows = 0;
  int events_rows = 0;
};

Composed compose(const ScreenModel& model, int width, int height);

}  // namespace campfire::cli
