#include "clients/cli/text.hpp"

#include <algorithm>

namespace campfire::cli {

namespace {

// Decodes one code point at `at` and moves past it; an invalid byte decodes as itself.
char32_t next_codepoint(std::string_view s, std::size_t& at) {
  const auto b0 = static_cast<unsigned char>(s[at]);
  std::size_t extra = 0;
  char32_t cp = b0;
  if (b0 >= 0xF0 && b0 < 0xF8) {
    extra = 3;
    cp = b0 & 0x07;
  } else if (b0 >= 0xE0 && b0 < 0xF0) {
    extra = 2;
    cp = b0 & 0x0F;
  } else if (b0 >= 0xC0 && b0 < 0xE0) {
    extra = 1;
    cp = b0 & 0x1F;
  }
  if (extra == 0 || at + extra >= s.size()) {
    ++at;
    return b0;
  }
  for (std::size_t i = 1; i <= extra; ++i) {
    const auto b = static_cast<unsigned char>(s[at + i]);
    if ((b & 0xC0) != 0x80) {
      ++at;
      return b0;
    }
    cp = (cp << 6) | (b & 0x3F);
  }
  at += extra + 1;
  return cp;
}

using Cell = Glyph;

std::vector<Cell> cells_of(const Line& line) {
  std::vector<Cell> out;
  for (const Span& span : line.spans()) {
    std::size_t at = 0;
    while (at < span.text.size()) {
      const std::size_t start = at;
      const char32_t cp = next_codepoint(span.text, at);
      const int w = codepoint_width(cp);
      if (w == 0 && !out.empty() && out.back().style == span.style) {
        out.back().text.append(span.text, start, at - start);  // a combining mark joins its base
        continue;
      }
      out.push_back({span.text.substr(start, at - start), span.style, w});
    }
  }
  return out;
}

Line line_of(const std::vector<Cell>& cells, std::size_t from, std::size_t to) {
  Line out;
  for (std::size_t i = from; i < to; ++i) out.add(cells[i].text, cells[i].style);
  return out;
}

}  // namespace

std::vector<Glyph> glyphs(const Line& line) {
  return cells_of(line);
}

Line& Line::add(std::string text, Style style) {
  if (text.empty()) return *this;
  if (!spans_.empty() && spans_.back().style == style) {
    spans_.back().text += text;
  } else {
    spans_.push_back({std::move(text), style});
  }
  return *this;
}

Line& Line::add(const Line& other) {
  for (const Span& s : other.spans_) add(s.text, s.style);
  return *this;
}

Line& Line::pad_to(int width) {
  const int w = this->width();
  if (w < width) add(std::string(static_cast<std::size_t>(width - w), ' '));
  return *this;
}

int Line::width() const {
  int w = 0;
  for (const Span& s : spans_) w += display_width(s.text);
  return w;
}

std::string Line::plain() const {
  std::string out;
  for (const Span& s : spans_) out += s.text;
  return out;
}

int codepoint_width(char32_t cp) {
  if (cp == 0) return 0;
  if (cp < 0x20 || (cp >= 0x7F && cp < 0xA0)) return 1;  // shown as something, never nothing
  if ((cp >= 0x0300 && cp <= 0x036F) || (cp >= 0x1AB0 && cp <= 0x1AFF) ||
      (cp >= 0x1DC0 && cp <= 0x1DFF) || (cp >= 0x20D0 && cp <= 0x20FF) ||
      (cp >= 0xFE00 && cp <= 0xFE0F) || (cp >= 0xFE20 && cp <= 0xFE2F) || cp == 0x200B ||
      cp == 0x200C || cp == 0x200D) {
    return 0;
  }
  const bool wide = (cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0x303E) ||
                    (cp >= 0x3041 && cp <= 0x33FF) || (cp >= 0x3400 && cp <= 0x4DBF) ||
                    (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0xA000 && cp <= 0xA4CF) ||
                    (cp >= 0xAC00 && cp <= 0xD7A3) || (cp >= 0xF900 && cp <= 0xFAFF) ||
                    (cp >= 0xFE30 && cp <= 0xFE4F) || (cp >= 0xFF00 && cp <= 0xFF60) ||
                    (cp >= 0xFFE0 && cp <= 0xFFE6) || (cp >= 0x1F300 && cp <= 0x1F64F) ||
                    (cp >= 0x1F900 && cp <= 0x1F9FF) || (cp >= 0x20000 && cp <= 0x3FFFD);
  return wide ? 2 : 1;
}

int display_width(std::string_view utf8) {
  int w = 0;
  for (std::size_t at = 0; at < utf8.size();) w += codepoint_width(next_codepoint(utf8, at));
  return w;
}

std::string clip(std::string_view utf8, int width, bool ellipsis) {
  if (display_width(utf8) <= width) return std::string(utf8);
  if (ellipsis) return clip(Line(std::string(utf8)), width).plain();
  std::string out;
  int used = 0;
  for (const Cell& c : cells_of(Line(std::string(utf8)))) {
    if (used + c.width > width) break;
    out += c.text;
    used += c.width;
  }
  return out;
}

Line clip(const Line& line, int width) {
  if (width <= 0) return {};
  if (line.width() <= width) return line;
  const auto cells = cells_of(line);
  const int room = width >= 2 ? width - 1 : width;
  Line out;
  int used = 0;
  std::size_t i = 0;
  for (; i < cells.size() && used + cells[i].width <= room; ++i) {
    out.add(cells[i].text, cells[i].style);
    used += cells[i].width;
  }
  if (width >= 2) out.add("…", i < cells.size() ? cells[i].style : Style{});
  return out;
}

Lines wrap(const Line& line, int width, int indent) {
  Lines out;
  if (width <= 0) return out;
  const auto cells = cells_of(line);
  std::size_t at = 0;
  bool first = true;
  while (at < cells.size()) {
    const int room = std::max(1, first ? width : width - indent);
    // Skip the spaces a line would start with (not on the first line: indentation is kept).
    if (!first) {
      while (at < cells.size() && cells[at].text == " ") ++at;
      if (at == cells.size()) break;
    }
    int used = 0;
    std::size_t end = at;
    std::size_t last_space = std::string::npos;
    while (end < cells.size() && used + cells[end].width <= room) {
      if (cells[end].text == " ") last_space = end;
      used += cells[end].width;
      ++end;
    }
    if (end < cells.size() && cells[end].text != " " && last_space != std::string::npos &&
        last_space > at) {
      end = last_space;  // break at the last space that fits
    }
    if (end == at) end = at + 1;  // a single cell wider than the line
    Line row;
    if (!first && indent > 0) row.add(std::string(static_cast<std::size_t>(indent), ' '));
    row.add(line_of(cells, at, end));
    out.push_back(std::move(row));
    at = end;
    first = false;
  }
  if (out.empty()) out.emplace_back();
  return out;
}

std::vector<std::string> wrap(std::string_view text, int width) {
  std::vector<std::string> out;
  for (const Line& l : wrap(Line(std::string(text)), width)) out.push_back(l.plain());
  return out;
}

std::string count(long long n, std::string_view one, std::string_view many) {
  return std::to_string(n) + " " + std::string(n == 1 ? one : many);
}

}  // namespace campfire::cli
