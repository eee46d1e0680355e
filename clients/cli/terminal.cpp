#include "clients/cli/terminal.hpp"

#include <curses.h>

#include <clocale>
#include <cstdlib>

namespace campfire::cli {

namespace {

short curses_colour(Color c) {
  switch (c) {
    case Color::none:
      return -1;
    case Color::black:
      return COLOR_BLACK;
    case Color::red:
      return COLOR_RED;
    case Color::green:
      return COLOR_GREEN;
    case Color::yellow:
      return COLOR_YELLOW;
    case Color::blue:
      return COLOR_BLUE;
    case Color::magenta:
      return COLOR_MAGENTA;
    case Color::cyan:
      return COLOR_CYAN;
    case Color::white:
      return COLOR_WHITE;
  }
  return -1;
}

}  // namespace

Terminal::Terminal() {
  std::setlocale(LC_ALL, "");
  // Escape alone must not wait a second to be told from the start of an arrow key.
  if (std::getenv("ESCDELAY") == nullptr) set_escdelay(25);
  initscr();
  raw();
  noecho();
  nonl();
  keypad(stdscr, TRUE);
  if (has_colors()) {
    start_color();
    use_default_colors();
    colours_ = true;
  }
  curs_set(1);
}

Terminal::~Terminal() {
  endwin();
}

int Terminal::width() const {
  return COLS;
}

int Terminal::height() const {
  return LINES;
}

short Terminal::pair_for(Color fg, Color bg) {
  if (!colours_ || (fg == Color::none && bg == Color::none)) return 0;
  short& p = pairs_[static_cast<int>(fg)][static_cast<int>(bg)];
  if (p == 0 && next_pair_ < COLOR_PAIRS) {
    p = next_pair_++;
    init_pair(p, curses_colour(fg), curses_colour(bg));
  }
  return p;
}

int Terminal::attributes(const Style& style) {
  int a = A_NORMAL;
  if (style.bold) a |= A_BOLD;
  if (style.dim) a |= A_DIM;
  if (style.reverse) a |= A_REVERSE;
  if (style.underline) a |= A_UNDERLINE;
  if (!colours_ && (style.bg != Color::none)) a |= A_REVERSE;  // a coloured band stays visible
  return a | COLOR_PAIR(pair_for(style.fg, style.bg));
}

void Terminal::draw(const Composed& screen) {
  const Frame& f = screen.frame;
  erase();
  for (int y = 0; y < f.height() && y < LINES; ++y) {
    for (int x = 0; x < f.width() && x < COLS; ++x) {
      const Cell& c = f.at(x, y);
      if (c.glyph.empty()) continue;  // the right half of a wide character
      attrset(attributes(c.style));
      // The bottom-right cell cannot be written without scrolling in some terminals; curses
      // reports that as an error after drawing it, which is harmless here.
      mvaddstr(y, x, c.glyph.c_str());
    }
  }
  attrset(A_NORMAL);
  move(screen.cursor_y, screen.cursor_x);
  refresh();
}

void Terminal::invalidate() {
  clearok(curscr, TRUE);
}

Key Terminal::read_key(int timeout_ms) {
  timeout(timeout_ms);
  wint_t ch = 0;
  const int r = get_wch(&ch);
  Key k;
  if (r == ERR) return k;
  if (r == KEY_CODE_YES) {
    switch (ch) {
      case KEY_ENTER:
        k.kind = Key::enter;
        break;
      case KEY_BACKSPACE:
        k.kind = Key::backspace;
        break;
      case KEY_DC:
        k.kind = Key::del;
        break;
      case KEY_LEFT:
        k.kind = Key::left;
        break;
      case KEY_RIGHT:
        k.kind = Key::right;
        break;
      case KEY_HOME:
        k.kind = Key::home;
        break;
      case KEY_END:
        k.kind = Key::end;
        break;
      case KEY_UP:
        k.kind = Key::up;
        break;
      case KEY_DOWN:
        k.kind = Key::down;
        break;
      case KEY_PPAGE:
        k.kind = Key::page_up;
        break;
      case KEY_NPAGE:
        k.kind = Key::page_down;
        break;
      case KEY_RESIZE:
        k.kind = Key::resize;
        break;
      default:
        break;
    }
    return k;
  }
  if (ch == '\r' || ch == '\n') {
    k.kind = Key::enter;
  } else if (ch == 127 || ch == 8) {
    k.kind = Key::backspace;
  } else if (ch == 27) {
    k.kind = Key::escape;
  } else if (ch == '\t') {
    k.kind = Key::tab;
  } else if (ch < 32) {
    k.kind = Key::ctrl;
    k.ch = static_cast<char32_t>('a' + ch - 1);
  } else {
    k.kind = Key::character;
    k.ch = static_cast<char32_t>(ch);
  }
  return k;
}

}  // namespace campfire::cli
