#include "clients/cli/cards.hpp"

#include <cctype>
#include <vector>

namespace campfire::cli {

namespace {

bool is_french(const std::string& code) {
  if (code == "X1" || code == "X2") return true;
  return code.size() == 2 && std::string("23456789TJQKA").find(code[0]) != std::string::npos &&
         std::string("CDHS").find(code[1]) != std::string::npos;
}

}  // namespace

std::string french_words(const std::string& code) {
  if (code == "X1" || code == "X2") return "Joker";
  if (!is_french(code)) return code;
  static const char* signs[] = {"♣", "♦", "♥", "♠"};
  const auto suit = std::string("CDHS").find(code[1]);
  const std::string rank = code[0] == 'T' ? "10" : std::string(1, code[0]);
  return rank + signs[suit];
}

Style french_style(const std::string& code) {
  if (code == "X1" || code == "X2") return {Color::magenta, Color::none, true};
  if (code.size() == 2 && (code[1] == 'H' || code[1] == 'D'))
    return {Color::red, Color::none, true};
  return {Color::none, Color::none, true};
}

Line french_card(const std::string& code) {
  Style face = french_style(code);
  face.bg = Color::white;
  if (face.fg == Color::none) face.fg = Color::black;
  const std::string words = french_words(code);
  return Line(display_width(words) < 3 ? words + " " : words, face);
}

Line french_cards(const std::vector<std::string>& codes) {
  Line out;
  for (std::size_t i = 0; i < codes.size(); ++i) {
    if (i > 0) out.add(" ");
    out.add(french_card(codes[i]));
  }
  if (codes.empty()) out.add("—", styles::dim);
  return out;
}

Lines big_french_cards(const std::vector<std::string>& codes) {
  Lines out(3);
  const Style edge{Color::white};
  for (const std::string& code : codes) {
    std::string face = french_words(code);
    if (code == "X1" || code == "X2") face = "JOK";
    while (display_width(face) < 3) face += " ";
    Style style = french_style(code);
    out[0].add("┌───┐", edge);
    out[1].add("│", edge);
    out[1].add(face, style);
    out[1].add("│", edge);
    out[2].add("└───┘", edge);
  }
  return out;
}

std::string pinocchio_words(const std::string& code) {
  if (code.find('-') == std::string::npos) return code;
  std::string out;
  bool start = true;
  for (char ch : code) {
    if (ch == '-') {
      out += ' ';
      start = true;
    } else {
      out += start ? static_cast<char>(std::toupper(static_cast<unsigned char>(ch))) : ch;
      start = false;
    }
  }
  return out;
}

Line pinocchio_card(const std::string& code) {
  Style s = styles::bold;
  if (code.rfind("red-", 0) == 0) s.fg = Color::red;
  if (code.rfind("yellow-", 0) == 0) s.fg = Color::yellow;
  if (code.rfind("blue-", 0) == 0) s.fg = Color::blue;
  return Line(pinocchio_words(code), s);
}

Line card_back(const std::string& caption) {
  const Style back{Color::white, Color::blue};
  if (caption.empty()) return Line("░░░", back);
  return Line("[" + caption + "]", back);
}

}  // namespace campfire::cli
