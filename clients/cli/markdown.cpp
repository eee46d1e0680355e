#include "clients/cli/markdown.hpp"

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

namespace campfire::cli {

namespace {

std::string trim(std::string_view s) {
  std::size_t a = 0;
  std::size_t b = s.size();
  while (a < b && (s[a] == ' ' || s[a] == '\t')) ++a;
  while (b > a && (s[b - 1] == ' ' || s[b - 1] == '\t' || s[b - 1] == '\r')) --b;
  return std::string(s.substr(a, b - a));
}

int indent_of(std::string_view s) {
  int n = 0;
  for (char c : s) {
    if (c == ' ') {
      ++n;
    } else if (c == '\t') {
      n += 4;
    } else {
      break;
    }
  }
  return n;
}

// **bold**, *emphasis* or _emphasis_, `code`, [text](link) and backslash escapes.
Line inline_spans(std::string_view s, Style base) {
  Line out;
  std::string run;
  Style current = base;
  bool bold = false;
  bool em = false;
  auto flush = [&] {
    out.add(run, current);
    run.clear();
  };
  auto restyle = [&] {
    flush();
    current = base;
    if (bold) current.bold = true;
    if (em) current.underline = true;
  };
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '\\' && i + 1 < s.size() && std::ispunct(static_cast<unsigned char>(s[i + 1]))) {
      run += s[++i];
    } else if (c == '`') {
      const auto end = s.find('`', i + 1);
      if (end == std::string_view::npos) {
        run += c;
        continue;
      }
      flush();
      Style code = current;
      code.fg = Color::cyan;
      out.add(std::string(s.substr(i + 1, end - i - 1)), code);
      i = end;
    } else if (c == '*' && i + 1 < s.size() && s[i + 1] == '*') {
      bold = !bold;
      restyle();
      ++i;
    } else if ((c == '*' || c == '_') && (em || (i + 1 < s.size() && s[i + 1] != ' '))) {
      // An underscore inside a word (snake_case) is a letter, not emphasis.
      const bool inside = c == '_' && i > 0 && std::isalnum(static_cast<unsigned char>(s[i - 1])) &&
                          i + 1 < s.size() && std::isalnum(static_cast<unsigned char>(s[i + 1]));
      if (inside) {
        run += c;
        continue;
      }
      em = !em;
      restyle();
    } else if (c == '[') {
      const auto close = s.find("](", i);
      const auto end = close == std::string_view::npos ? close : s.find(')', close);
      if (end == std::string_view::npos) {
        run += c;
        continue;
      }
      run += s.substr(i + 1, close - i - 1);
      i = end;
    } else {
      run += c;
    }
  }
  flush();
  return out;
}

bool is_table_row(const std::string& t) {
  return t.size() >= 2 && t.front() == '|';
}

std::vector<std::string> table_cells(const std::string& t) {
  std::vector<std::string> cells;
  std::string cell;
  for (std::size_t i = 1; i < t.size(); ++i) {
    if (t[i] == '\\' && i + 1 < t.size() && t[i + 1] == '|') {
      cell += '|';
      ++i;
    } else if (t[i] == '|') {
      cells.push_back(trim(cell));
      cell.clear();
    } else {
      cell += t[i];
    }
  }
  if (!trim(cell).empty()) cells.push_back(trim(cell));
  return cells;
}

bool is_separator_row(const std::vector<std::string>& cells) {
  return !cells.empty() && std::all_of(cells.begin(), cells.end(), [](const std::string& c) {
    return !c.empty() && c.find_first_not_of("-: ") == std::string::npos;
  });
}

void render_table(Lines& out, const std::vector<std::vector<std::string>>& rows, int width) {
  std::vector<int> widths;
  for (const auto& row : rows) {
    widths.resize(std::max(widths.size(), row.size()), 0);
    for (std::size_t c = 0; c < row.size(); ++c) {
      widths[c] = std::max(widths[c], inline_spans(row[c], {}).width());
    }
  }
  int total = 0;
  for (int w : widths) total += w + 2;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const Style style = r == 0 ? styles::bold : Style{};
    if (total <= width) {
      Line line;
      for (std::size_t c = 0; c < rows[r].size(); ++c) {
        Line cell = inline_spans(rows[r][c], style);
        if (c + 1 < rows[r].size()) cell.pad_to(widths[c] + 2);
        line.add(cell);
      }
      out.push_back(std::move(line));
    } else if (r > 0) {
      // Too wide to align: each row becomes its first cell, then "heading: cell" for the rest.
      for (Line& l : wrap(inline_spans(rows[r].empty() ? "" : rows[r][0], styles::bold), width)) {
        out.push_back(std::move(l));
      }
      for (std::size_t c = 1; c < rows[r].size(); ++c) {
        Line line("  ");
        if (c < rows[0].size()) line.add(rows[0][c] + ": ", styles::dim);
        line.add(inline_spans(rows[r][c], {}));
        for (Line& l : wrap(line, width, 4)) out.push_back(std::move(l));
      }
    }
  }
}

}  // namespace

Lines render_markdown(std::string_view markdown, int width) {
  width = std::max(width, 10);
  std::vector<std::string> lines;
  for (std::size_t at = 0; at <= markdown.size();) {
    auto nl = markdown.find('\n', at);
    if (nl == std::string_view::npos) nl = markdown.size();
    lines.emplace_back(markdown.substr(at, nl - at));
    at = nl + 1;
  }
  Lines out;
  auto blank = [&] {
    if (!out.empty() && !out.back().empty()) out.emplace_back();
  };
  std::size_t i = 0;
  while (i < lines.size()) {
    const std::string t = trim(lines[i]);
    if (t.empty()) {
      ++i;
      continue;
    }
    if (t.rfind("```", 0) == 0) {
      blank();
      for (++i; i < lines.size() && trim(lines[i]).rfind("```", 0) != 0; ++i) {
        out.push_back(Line(clip(std::string_view("  " + lines[i]), width), styles::dim));
      }
      ++i;
      blank();
      continue;
    }
    if (t[0] == '#') {
      const auto level = t.find_first_not_of('#');
      const std::string text =
          trim(std::string_view(t).substr(level == std::string::npos ? t.size() : level));
      blank();
      Style style = styles::bold;
      if (level == 1) style = {Color::cyan, Color::none, true, false, false, true};
      if (level == 2) style = styles::accent;
      for (Line& l : wrap(inline_spans(text, style), width)) out.push_back(std::move(l));
      out.emplace_back();
      ++i;
      continue;
    }
    if (is_table_row(t)) {
      std::vector<std::vector<std::string>> rows;
      for (; i < lines.size() && is_table_row(trim(lines[i])); ++i) {
        auto cells = table_cells(trim(lines[i]));
        if (!is_separator_row(cells)) rows.push_back(std::move(cells));
      }
      blank();
      render_table(out, rows, width);
      blank();
      continue;
    }
    if (t[0] == '>') {
      std::string text;
      for (; i < lines.size() && !trim(lines[i]).empty() && trim(lines[i])[0] == '>'; ++i) {
        text += (text.empty() ? "" : " ") + trim(trim(lines[i]).substr(1));
      }
      for (Line& l : wrap(inline_spans(text, styles::dim), width - 2)) {
        Line row("│ ", styles::dim);
        row.add(l);
        out.push_back(std::move(row));
      }
      blank();
      continue;
    }
    // A list item: "- ", "* ", "+ " or "12. ", continued by the indented lines after it.
    const int depth = indent_of(lines[i]) / 2;
    std::string marker;
    std::string body;
    if ((t[0] == '-' || t[0] == '*' || t[0] == '+') && t.size() > 1 && t[1] == ' ') {
      marker = "• ";
      body = trim(std::string_view(t).substr(2));
    } else {
      const auto dot = t.find(". ");
      if (dot != std::string::npos && dot > 0 && dot < 4 &&
          std::all_of(t.begin(), t.begin() + static_cast<long>(dot),
                      [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) {
        marker = t.substr(0, dot + 2);
        body = trim(std::string_view(t).substr(dot + 2));
      }
    }
    if (!marker.empty()) {
      for (++i; i < lines.size(); ++i) {
        const std::string next = trim(lines[i]);
        if (next.empty() || indent_of(lines[i]) <= depth * 2 || is_table_row(next)) break;
        const bool nested = (next[0] == '-' || next[0] == '*' || next[0] == '+') &&
                            next.size() > 1 && next[1] == ' ';
        if (nested) break;
        body += " " + next;
      }
      const int pad = 2 * depth;
      Line first(std::string(static_cast<std::size_t>(pad), ' '));
      first.add(marker, styles::accent);
      first.add(inline_spans(body, {}));
      const int hang = pad + display_width(marker);
      for (Line& l : wrap(first, width, hang)) out.push_back(std::move(l));
      continue;
    }
    // A paragraph: every line up to a blank line or another kind of block.
    std::string text = t;
    for (++i; i < lines.size(); ++i) {
      const std::string next = trim(lines[i]);
      if (next.empty() || next[0] == '#' || is_table_row(next) || next[0] == '>' ||
          next.rfind("```", 0) == 0 ||
          (next.size() > 1 && (next[0] == '-' || next[0] == '*') && next[1] == ' ')) {
        break;
      }
      text += " " + next;
    }
    blank();
    for (Line& l : wrap(inline_spans(text, {}), width)) out.push_back(std::move(l));
    blank();
  }
  while (!out.empty() && out.back().empty()) out.pop_back();
  return out;
}

}  // namespace campfire::cli
