// Styled text for the terminal client: spans of UTF-8 with a colour, lines of spans, and the
// widths a terminal gives them. Nothing here knows about curses, so tables and layouts can be
// built and checked as plain text.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace campfire::cli {

enum class Color : std::uint8_t { none, black, red, green, yellow, blue, magenta, cyan, white };

struct Style {
  Color fg = Color::none;
  Color bg = Color::none;
  bool bold = false;
  bool dim = false;
  bool reverse = false;
  bool underline = false;

  bool operator==(const Style&) const = default;
};

// A few styles used all over the client.
namespace styles {
inline constexpr Style plain{};
inline constexpr Style bold{Color::none, Color::none, true};
inline constexpr Style dim{Color::none, Color::none, false, true};
inline constexpr Style accent{Color::cyan, Color::none, true};
inline constexpr Style good{Color::green, Color::none, true};
inline constexpr Style warn{Color::yellow, Color::none, true};
inline constexpr Style bad{Color::red, Color::none, true};
inline constexpr Style reverse{Color::none, Color::none, false, false, true};
}  // namespace styles

struct Span {
  std::string text;
  Style style;
};

// One row of styled text.
class Line {
 public:
  Line() = default;
  Line(std::string text, Style style = {}) { add(std::move(text), style); }  // NOLINT: implicit

  Line& add(std::string text, Style style = {});
  Line& add(const Line& other);
  // Pads with spaces up to `width` columns.
  Line& pad_to(int width);
  int width() const;
  std::string plain() const;
  const std::vector<Span>& spans() const { return spans_; }
  bool empty() const { return spans_.empty(); }

 private:
  std::vector<Span> spans_;
};

using Lines = std::vector<Line>;

// Columns a terminal uses for one code point, and for a UTF-8 string. Wide characters (CJK,
// emoji) take two, combining marks none; invalid bytes count as one each.
int codepoint_width(char32_t cp);
int display_width(std::string_view utf8);
// The longest prefix of `utf8` that fits in `width` columns; an ellipsis marks a cut when
// `ellipsis` (and the width allows it).
std::string clip(std::string_view utf8, int width, bool ellipsis = true);
Line clip(const Line& line, int width);
// Words of `text` in lines of at most `width` columns; a word longer than a line is cut.
std::vector<std::string> wrap(std::string_view text, int width);
// A styled line wrapped the same way, keeping each span's style.
Lines wrap(const Line& line, int width, int indent = 0);

// A line cut into what a terminal draws in one or two columns: a code point (with any combining
// marks after it), its style and its width.
struct Glyph {
  std::string text;
  Style style;
  int width = 1;
};
std::vector<Glyph> glyphs(const Line& line);

// "1 card", "3 cards".
std::string count(long long n, std::string_view one, std::string_view many);

}  // namespace campfire::cli
