// The terminal itself, through ncurses: full screen, colours, keys, resizing. It copies a
// composed Frame to the screen (curses sends only what changed) and reads keys without blocking.
#pragma once

#include "clients/cli/screen.hpp"

namespace campfire::cli {

struct Key {
  enum Kind {
    none,
    character,  // `ch` is the character typed
    enter,
    backspace,
    del,
    left,
    right,
    home,
    end,
    up,
    down,
    page_up,
    page_down,
    escape,
    tab,
    resize,
    ctrl,  // `ch` is the letter: 'c' for Ctrl-C
  };
  Kind kind = none;
  char32_t ch = 0;
};

class Terminal {
 public:
  Terminal();
  ~Terminal();
  Terminal(const Terminal&) = delete;
  Terminal& operator=(const Terminal&) = delete;

  int width() const;
  int height() const;
  void draw(const Composed& screen);
  // Draws everything again on the next draw (after Ctrl-L, say).
  void invalidate();
  // The next key within `timeout_ms` (0: only one already typed).
  Key read_key(int timeout_ms);

 private:
  int attributes(const Style& style);
  short pair_for(Color fg, Color bg);

  bool colours_ = false;
  short next_pair_ = 1;
  short pairs_[9][9] = {};
};

}  // namespace campfire::cli
