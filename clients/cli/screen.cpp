#include "clients/cli/screen.hpp"

#include <algorithm>

#include "clients/cli/render.hpp"

namespace campfire::cli {

namespace {

constexpr int kMinWidth = 60;
constexpr int kMinHeight = 16;
const Style kBar{Color::black, Color::cyan};
const Style kRule{Color::cyan, Color::none, false, true};

int side_width(int width) {
  if (width >= 150) return 46;
  if (width >= 120) return 38;
  if (width >= 100) return 32;
  return 26;
}

// "── title ─────": a section's heading across `width` columns.
Line rule(const std::string& title, int width, const Line& right = {}) {
  Line l(title.empty() ? "" : "── ", kRule);
  if (!title.empty()) {
    l.add(title, styles::bold);
    l.add(" ", kRule);
  }
  const int used = l.width() + (right.empty() ? 0 : right.width() + 2);
  std::string dashes;
  for (int i = used; i < width; ++i) dashes += "─";
  l.add(dashes, kRule);
  if (!right.empty()) {
    l.add(" ");
    l.add(right);
    l.add(" ");
  }
  return clip(l, width);
}

// A pane of wrapped lines, newest at the bottom, scrolled back by `back` lines.
void draw_log(Frame& f, int x, int y, int w, int h, const std::deque<Line>* log, int back) {
  if (log == nullptr || h <= 0) return;
  Lines wrapped;
  for (const Line& l : *log) {
    for (Line& part : wrap(l, w, 2)) wrapped.push_back(std::move(part));
  }
  const int total = static_cast<int>(wrapped.size());
  back = std::clamp(back, 0, std::max(0, total - h));
  const int first = std::max(0, total - h - back);
  for (int r = 0; r < h && first + r < total; ++r) {
    f.put(x, y + r, wrapped[static_cast<std::size_t>(first + r)], w);
  }
  if (back > 0) f.put(x + w - 9, y + h - 1, Line(" ↓ more ", styles::reverse), 9);
}

// The words every move starts with ("play your card as "), when there are several moves and the
// words are worth saying once: they go in the heading, and each move shows only the rest.
std::string shared_start(const std::vector<std::string>& moves) {
  if (moves.size() < 3) return "";
  std::string prefix = moves.front();
  for (const std::string& m : moves) {
    std::size_t i = 0;
    while (i < prefix.size() && i < m.size() && prefix[i] == m[i]) ++i;
    prefix.resize(i);
  }
  const auto space = prefix.rfind(' ');
  if (space == std::string::npos) return "";
  prefix.resize(space + 1);
  for (const std::string& m : moves) {
    if (m.size() <= prefix.size()) return "";
  }
  return prefix.size() >= 6 ? prefix : "";
}

std::vector<std::string> without_start(const std::vector<std::string>& moves,
                                       const std::string& start) {
  std::vector<std::string> out;
  for (const std::string& m : moves) out.push_back(m.substr(start.size()));
  return out;
}

// The moves as a numbered list, in as many columns as fit; the chosen one stands out and is
// always in view.
int moves_rows_needed(const std::vector<std::string>& moves, int width, int& columns,
                      int& col_width) {
  int widest = 0;
  for (const std::string& m : moves) widest = std::max(widest, display_width(m));
  const int number = static_cast<int>(std::to_string(moves.size()).size());
  col_width = widest + number + 5;
  columns = std::clamp(width / std::max(1, col_width), 1, 4);
  if (columns > 1) col_width = width / columns;
  const int n = static_cast<int>(moves.size());
  return (n + columns - 1) / columns;
}

void draw_moves(Frame& f, int x, int y, int w, int h, const ScreenModel& m,
                const std::vector<std::string>& moves) {
  int columns = 1;
  int col_width = w;
  const int rows = moves_rows_needed(moves, w, columns, col_width);
  const int n = static_cast<int>(moves.size());
  const int digits = static_cast<int>(std::to_string(n).size());
  // Column-major order reads down then across, like a printed list.
  const int sel_row = m.selected % std::max(1, rows);
  const int top = std::clamp(sel_row - h + 1, 0, std::max(0, rows - h));
  for (int i = 0; i < n; ++i) {
    const int r = i % rows;
    const int c = i / rows;
    if (r < top || r >= top + h) continue;
    std::string number = std::to_string(i + 1);
    number = std::string(static_cast<std::size_t>(digits) - number.size(), ' ') + number;
    const bool chosen = i == m.selected;
    Line l(chosen ? "▶ " : "  ", styles::warn);
    l.add(number + ". ", chosen ? styles::warn : styles::dim);
    Line label = decorate(moves[static_cast<std::size_t>(i)]);
    if (chosen) {
      Line bright;
      for (const Span& s : label.spans()) {
        Style st = s.style;
        st.reverse = true;
        bright.add(s.text, st);
      }
      label = bright;
    }
    l.add(label);
    f.put(x + c * col_width, y + r - top, l, columns > 1 ? col_width - 1 : w);
  }
  if (top + h < rows) f.put(x + w - 9, y + h - 1, Line(" ↓ more ", styles::reverse), 9);
  if (top > 0) f.put(x + w - 9, y, Line(" ↑ more ", styles::reverse), 9);
}

Line top_bar(const ScreenModel& m, int width) {
  Line left(" Campfire ", {Color::black, Color::cyan, true});
  const json* st = m.state;
  if (st != nullptr && st->is_object()) {
    left.add("│ ", kBar);
    left.add(m.game_name + " ", {Color::black, Color::cyan, true});
    left.add("│ room ", kBar);
    left.add(st->value("room", "?") + " ", {Color::black, Color::cyan, true});
    const int me = my_seat(*st);
    left.add(me >= 0 ? "│ " + m.name + ", seat " + std::to_string(me + 1) + " " : "│ watching ",
             kBar);
    const std::string status = st->value("status", "");
    if (status == "waiting") left.add("│ not started ", kBar);
    if (status == "over") left.add("│ game over ", kBar);
  } else {
    left.add("│ " + m.name + " │ " + m.server + " ", kBar);
  }
  Line right;
  if (!m.connected) {
    right.add(" " + m.connection + " ", {Color::white, Color::red, true});
  } else if (!m.timer.empty()) {
    right.add(" ");
    right.add(m.timer);
    right.add(" ");
  }
  Line out = clip(left, std::max(0, width - right.width()));
  Line fill;
  fill.add(
      std::string(static_cast<std::size_t>(std::max(0, width - out.width() - right.width())), ' '),
      kBar);
  out.add(fill);
  out.add(right);
  return clip(out, width);
}

}  // namespace

Frame::Frame(int width, int height)
    : width_(std::max(1, width)),
      height_(std::max(1, height)),
      cells_(static_cast<std::size_t>(width_ * height_)) {}

void Frame::put(int x, int y, const Line& line, int max_width) {
  if (y < 0 || y >= height_ || x >= width_) return;
  const int limit = max_width < 0 ? width_ - x : std::min(max_width, width_ - x);
  int col = x;
  for (const Glyph& g : glyphs(clip(line, limit))) {
    if (col + g.width > x + limit || col + g.width > width_) break;
    if (col >= 0) {
      cell(col, y) = {g.text, g.style};
      if (g.width == 2 && col + 1 < width_) cell(col + 1, y) = {"", g.style};
    }
    col += g.width;
  }
}

void Frame::fill(int x, int y, int w, int h, Style style) {
  for (int r = std::max(0, y); r < std::min(height_, y + h); ++r) {
    for (int c = std::max(0, x); c < std::min(width_, x + w); ++c) cell(c, r) = {" ", style};
  }
}

std::string Frame::row(int y) const {
  std::string out;
  for (int x = 0; x < width_; ++x) out += at(x, y).glyph;
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

std::string Frame::text() const {
  std::string out;
  for (int y = 0; y < height_; ++y) out += row(y) + "\n";
  return out;
}

Composed compose(const ScreenModel& m, int width, int height) {
  Composed out{Frame(width, height)};
  Frame& f = out.frame;
  if (width < kMinWidth || height < kMinHeight) {
    f.put(0, 0,
          Line("campfire-cli needs a terminal of at least " + std::to_string(kMinWidth) + "x" +
                   std::to_string(kMinHeight) + " (this one is " + std::to_string(width) + "x" +
                   std::to_string(height) + ")",
               styles::warn));
    f.put(0, height - 1, Line("> " + m.input));
    out.cursor_x = std::min(width - 1, 2 + display_width(m.input.substr(0, m.cursor)));
    out.cursor_y = height - 1;
    return out;
  }
  f.put(0, 0, top_bar(m, width));

  const int side = side_width(width);
  const int left = width - side - 1;
  const int top = 1;
  const int bottom = height - 2;  // the message line; the input is below it
  const int area = bottom - top;

  // The right column: events over chat, a vertical line between the columns.
  for (int y = top; y < bottom; ++y) f.put(left, y, Line("│", kRule));
  const int chat_rows = std::max(3, area / 3);
  const int events_rows = area - chat_rows - 2;
  f.put(left + 1, top, rule("events", side));
  draw_log(f, left + 2, top + 1, side - 2, events_rows, m.events, m.events_back);
  f.put(left + 1, top + 1 + events_rows, rule("chat", side));
  draw_log(f, left + 2, top + 2 + events_rows, side - 2, chat_rows - 1, m.chat, 0);
  out.events_rows = events_rows;

  // The left column: the table, then the moves (or what the table waits for). The moves get
  // the rows they need while the table still fits; when it does not, the table gives up detail
  // first and the moves scroll beyond a third of the screen.
  const std::string start = shared_start(m.moves);
  const std::vector<std::string> moves = without_start(m.moves, start);
  int moves_needed = 1;
  if (!moves.empty()) {
    int columns = 1;
    int col_width = left;
    moves_needed = moves_rows_needed(moves, left - 1, columns, col_width);
  }
  Lines result;
  for (const Line& l : m.result) {
    for (Line& part : wrap(l, left - 2, 2)) result.push_back(std::move(part));
  }
  const int result_rows = std::min(static_cast<int>(result.size()), 4);
  const int avail = area - 1 - result_rows;
  const bool has_table =
      m.state != nullptr && m.state->is_object() && field((*m.state), "view").is_object();
  Lines table;
  if (has_table) {
    table = render_table(TableInput{*m.state, left - 2, avail, m.memory});
  } else {
    for (const Line& l : m.lobby) {
      for (Line& part : wrap(l, left - 2, 2)) table.push_back(std::move(part));
    }
  }
  const int natural = static_cast<int>(table.size());
  int moves_height = moves_needed;
  if (natural + moves_needed > avail) {
    moves_height = std::clamp(moves_needed, 1, std::max({2, area / 3, avail - natural}));
  }
  const int table_rows = std::max(1, avail - moves_height);
  if (has_table && natural > table_rows) {
    table = render_table(TableInput{*m.state, left - 2, table_rows, m.memory});
  }
  if (m.page != nullptr) {
    // A page covers the table and the moves.
    const int rows = area - 1;
    const int total = static_cast<int>(m.page->size());
    const int first = std::clamp(m.page_top, 0, std::max(0, total - rows));
    Line where;
    if (total > rows) {
      where.add(std::to_string(first + 1) + "-" + std::to_string(std::min(total, first + rows)) +
                    " of " + std::to_string(total),
                styles::dim);
    }
    f.put(0, top, rule(m.page_title + "  (Esc closes, PgUp/PgDn scroll)", left, where));
    for (int r = 0; r < rows && first + r < total; ++r) {
      f.put(1, top + 1 + r, (*m.page)[static_cast<std::size_t>(first + r)], left - 2);
    }
    out.page_rows = rows;
  } else {
    for (int r = 0; r < table_rows && r < static_cast<int>(table.size()); ++r) {
      f.put(1, top + r, table[static_cast<std::size_t>(r)], left - 2);
    }
    if (static_cast<int>(table.size()) > table_rows && table_rows > 0) {
      f.put(left - 10, top + table_rows - 1, Line(" ↓ more ", styles::reverse), 9);
    }
    int y = top + table_rows;
    for (int r = 0; r < result_rows; ++r) {
      f.put(1, y++, result[static_cast<std::size_t>(r)], left - 2);
    }
    if (!moves.empty()) {
      Line hint;
      if (!start.empty()) hint.add("↑↓ Enter or number", styles::dim);
      f.put(0, y,
            rule(start.empty() ? "your move: ↑↓ and Enter, or its number"
                               : "your move: " + start + "…",
                 left, hint));
      draw_moves(f, 1, y + 1, left - 1, moves_height, m, moves);
    } else {
      f.put(0, y, rule("", left));
      f.put(1, y + 1, m.waiting, left - 2);
    }
  }

  Line message = m.message;
  // A chosen move too long for its column is spelled out whole on the message line.
  if (message.empty() && !m.moves.empty() && m.page == nullptr) {
    const auto chosen =
        static_cast<std::size_t>(std::clamp(m.selected, 0, static_cast<int>(m.moves.size()) - 1));
    int columns = 1;
    int col_width = left;
    moves_rows_needed(moves, left - 1, columns, col_width);
    if (display_width(moves[chosen]) + 8 > (columns > 1 ? col_width : left - 1)) {
      message = Line("▶ ", styles::warn);
      message.add(decorate(m.moves[chosen]));
    }
  }
  f.put(0, height - 2, clip(message, width));
  Line input("> ", styles::accent);
  const int room_for_input = width - 3;
  // Keep the cursor in view: show the end of a long input.
  std::string shown = m.input;
  std::size_t cursor = std::min(m.cursor, m.input.size());
  while (display_width(shown.substr(0, cursor)) > room_for_input && !shown.empty()) {
    std::size_t cut = 1;
    while (cut < shown.size() && (static_cast<unsigned char>(shown[cut]) & 0xC0) == 0x80) ++cut;
    shown.erase(0, cut);
    cursor -= std::min(cursor, cut);
  }
  if (shown.empty() && m.page == nullptr) {
    input.add(m.moves.empty() ? "type a command (help lists them)"
                              : "a move's number, ↑↓ and Enter, or a command (help lists them)",
              styles::dim);
  } else {
    input.add(shown);
  }
  f.put(0, height - 1, input, width);
  out.cursor_x = std::min(width - 1, 2 + display_width(shown.substr(0, cursor)));
  out.cursor_y = height - 1;
  return out;
}

}  // namespace campfire::cli
