#include "clients/cli/table.hpp"

#include <algorithm>
#include <cctype>

#include "clients/cli/cards.hpp"

namespace campfire::cli {

namespace {

constexpr int kGap = 2;         // columns between two seat boxes in a row
constexpr int kWantedBox = 24;  // a seat box narrower than this is worth another row

bool contains(const json& list, int seat) {
  if (!list.is_array()) return false;
  return std::any_of(list.begin(), list.end(),
                     [&](const json& s) { return s.is_number_integer() && s.get<int>() == seat; });
}

Line indented(const Line& l) {
  Line out("  ");
  out.add(l);
  return out;
}

Lines box_lines(const SeatBox& box) {
  Line title = seat_title(box.who);
  if (!box.tags.empty()) {
    title.add(" ");
    title.add(box.tags);
  }
  Lines out{title};
  for (const Line& l : box.body) out.push_back(indented(l));
  return out;
}

int widest(const Lines& lines) {
  int w = 0;
  for (const Line& l : lines) w = std::max(w, l.width());
  return w;
}

// Boxes side by side in rows of equal cells.
void lay_out_row_of_boxes(Lines& out, const std::vector<Lines>& boxes, int width) {
  if (boxes.empty()) return;
  int wanted = 0;
  for (const Lines& b : boxes) wanted = std::max(wanted, widest(b));
  wanted = std::min(wanted, kWantedBox);
  int per_row = static_cast<int>(boxes.size());
  while (per_row > 1 && (width - kGap * (per_row - 1)) / per_row < wanted) --per_row;
  const int cell = std::max(1, (width - kGap * (per_row - 1)) / per_row);
  // Every line of a seat, its name and tags included, wraps within the cell, so neither a long
  // line of cards nor a tag ("has looked", "done slapping") is cut off.
  std::vector<Lines> fitted;
  for (const Lines& b : boxes) {
    Lines f;
    for (const Line& l : b) {
      Lines parts = wrap(l, cell, 4);
      if (parts.empty()) parts.emplace_back();
      for (Line& w : parts) f.push_back(clip(w, cell));
    }
    fitted.push_back(std::move(f));
  }
  for (std::size_t first = 0; first < fitted.size(); first += static_cast<std::size_t>(per_row)) {
    const std::size_t last = std::min(fitted.size(), first + static_cast<std::size_t>(per_row));
    std::size_t rows = 0;
    for (std::size_t b = first; b < last; ++b) rows = std::max(rows, fitted[b].size());
    for (std::size_t r = 0; r < rows; ++r) {
      Line row;
      for (std::size_t b = first; b < last; ++b) {
        if (b > first) row.add(std::string(kGap, ' '));
        Line piece = r < fitted[b].size() ? fitted[b][r] : Line();
        if (b + 1 < last) piece.pad_to(cell);
        row.add(piece);
      }
      out.push_back(std::move(row));
    }
  }
}

}  // namespace

const json& field(const json& object, std::string_view key) {
  static const json missing;
  if (!object.is_object()) return missing;
  const auto it = object.find(key);
  return it == object.end() ? missing : *it;
}

bool TableMemory::remember(const json& event, int me, std::chrono::steady_clock::time_point now) {
  if (!event.is_object()) return false;
  const std::string type = event.value("type", "");
  const auto until = now + std::chrono::seconds(5);
  bool changed = false;
  // Spider Monkey: a peek names your own slots' cards, a Queen look one card of any line.
  if (type == "peek" && field(event, "slots").is_array() && field(event, "cards").is_array() &&
      me >= 0) {
    const json& slots = field(event, "slots");
    const json& cards = field(event, "cards");
    for (std::size_t i = 0; i < slots.size() && i < cards.size(); ++i) {
      if (!slots[i].is_number_integer() || !cards[i].is_string()) continue;
      shown[{me, slots[i].get<int>()}] = {cards[i].get<std::string>(), until};
      changed = true;
    }
  } else if (type == "queen-look" && field(event, "card").is_string() &&
             field(event, "target").is_number_integer() &&
             field(event, "slot").is_number_integer()) {
    shown[{field(event, "target").get<int>(), field(event, "slot").get<int>()}] = {
        field(event, "card").get<std::string>(), until};
    changed = true;
  } else if (type == "announce" && field(event, "seat").is_number_integer() &&
             field(event, "claim").is_string()) {
    // Pinocchio: a claim laid on the pile; the oldest kept is forgotten.
    claims.push_back({{"by", field(event, "seat")},
                      {"claim", field(event, "claim")},
                      {"free", event.value("free", false)},
                      {"challengeable", event.value("challengeable", true)}});
    if (claims.size() > kClaimsKept) claims.erase(claims.begin());
    changed = true;
  } else if (type == "challenge" && !claims.empty() && field(event, "card").is_string() &&
             field(event, "seat").is_number_integer()) {
    claims.back()["challenge"] = {{"by", field(event, "seat")},
                                  {"revealed", field(event, "card")},
                                  {"truthful", event.value("truthful", false)}};
    changed = true;
  }
  return changed;
}

bool TableMemory::forget(std::chrono::steady_clock::time_point now) {
  return std::erase_if(shown, [&](const auto& entry) { return entry.second.until <= now; }) > 0;
}

int my_seat(const json& state) {
  const json& seat = state.is_object() && state.contains("seat") ? field(state, "seat") : json();
  return seat.is_number_integer() ? seat.get<int>() : -1;
}

std::string seat_name(const json& state, const json& seat) {
  if (!seat.is_number_integer()) return "?";
  const int s = seat.get<int>();
  const json& players = field(state, "players");
  if (s >= 0 && players.is_array() && static_cast<std::size_t>(s) < players.size() &&
      players[static_cast<std::size_t>(s)].is_object()) {
    return players[static_cast<std::size_t>(s)].value("name", "seat " + std::to_string(s + 1));
  }
  return "seat " + std::to_string(s + 1);
}

std::vector<SeatInfo> seat_infos(const json& state) {
  std::vector<SeatInfo> out;
  const json& players = field(state, "players");
  if (!players.is_array()) return out;
  const int me = my_seat(state);
  for (std::size_t s = 0; s < players.size(); ++s) {
    SeatInfo info;
    info.seat = static_cast<int>(s);
    const json& p = players[s];
    if (p.is_object()) {
      info.name = p.value("name", "seat " + std::to_string(s + 1));
      info.bot = p.value("bot", false);
      info.strategy = p.value("strategy", "");
      info.connected = p.value("connected", true);
      info.away = p.value("away", false);
    } else {
      info.empty = true;
      info.name = "(free seat)";
    }
    info.me = info.seat == me;
    info.to_act =
        state.value("status", "") == "playing" && contains(field(state, "toAct"), info.seat);
    out.push_back(std::move(info));
  }
  return out;
}

Line seat_title(const SeatInfo& who, const std::string& extra) {
  Line out;
  out.add(who.to_act ? "▶ " : "  ", styles::warn);
  Style name = who.me ? styles::accent : styles::bold;
  if (who.empty) name = styles::dim;
  out.add(who.name, name);
  if (who.me) out.add(" (you)", styles::accent);
  if (who.away) {
    out.add(" ·bot plays", styles::dim);
  } else if (who.bot) {
    out.add(" ·bot", styles::dim);
  }
  if (!who.connected && !who.bot && !who.away && !who.empty) out.add(" ·offline", styles::bad);
  if (!extra.empty()) out.add(" " + extra, styles::dim);
  return out;
}

Lines arrange(const TableInput& in, const std::vector<SeatBox>& seats, const Lines& middle,
              const Lines& mine) {
  const int width = std::max(1, in.width);
  const int me = my_seat(in.state);
  const int n = static_cast<int>(seats.size());
  std::vector<Lines> others;
  // Clockwise from your left: seat me+1 first. A spectator sees every seat from seat 1.
  for (int i = 1; i <= n; ++i) {
    const int s = me >= 0 ? (me + i) % n : i - 1;
    if (s == me) continue;
    others.push_back(box_lines(seats[static_cast<std::size_t>(s)]));
  }
  const bool roomy = in.height == 0 || in.height >= 20;
  Lines out;
  lay_out_row_of_boxes(out, others, width);
  if (!middle.empty()) {
    if (roomy && !out.empty()) out.emplace_back();
    // The middle of the table, centred while it fits; long lines wrap under themselves.
    const int block = std::min(width, widest(middle));
    const int indent = std::max(0, std::min((width - block) / 2, width / 6));
    for (const Line& l : middle) {
      for (const Line& part : wrap(l, width - indent, 4)) {
        Line row;
        if (indent > 0) row.add(std::string(static_cast<std::size_t>(indent), ' '));
        row.add(part);
        out.push_back(std::move(row));
      }
    }
  }
  if (me >= 0 && me < n) {
    if (roomy && !out.empty()) out.emplace_back();
    const Lines box = box_lines(seats[static_cast<std::size_t>(me)]);
    for (const Line& l : box) out.push_back(clip(l, width));
    for (const Line& l : mine) {
      for (Line& w : wrap(indented(l), width, 4)) out.push_back(std::move(w));
    }
  }
  return out;
}

void add_hand(Lines& mine, const TableInput& in, const std::vector<std::string>& cards) {
  const bool roomy = in.height >= 30 && static_cast<int>(cards.size()) * 5 + 4 <= in.width;
  if (roomy && !cards.empty()) {
    mine.push_back(Line("your hand", styles::dim));
    for (Line& row : big_french_cards(cards)) mine.push_back(std::move(row));
    return;
  }
  Line l("your hand  ", styles::dim);
  l.add(french_cards(cards));
  mine.push_back(l);
}

std::string key_words(const std::string& key) {
  std::string out;
  for (char c : key) {
    if (std::isupper(static_cast<unsigned char>(c))) {
      out += ' ';
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else {
      out += c;
    }
  }
  return out;
}

namespace {

bool looks_french(const std::string& s) {
  return (s == "X1" || s == "X2") ||
         (s.size() == 2 && std::string("23456789TJQKA").find(s[0]) != std::string::npos &&
          std::string("CDHS").find(s[1]) != std::string::npos);
}

}  // namespace

Line value_words(const json& value) {
  Line out;
  if (value.is_null()) {
    out.add("—", styles::dim);
  } else if (value.is_boolean()) {
    out.add(value.get<bool>() ? "yes" : "no");
  } else if (value.is_string()) {
    const std::string s = value.get<std::string>();
    if (looks_french(s)) {
      out.add(french_card(s));
    } else {
      out.add(s.find('-') != std::string::npos && s.find(' ') == std::string::npos
                  ? pinocchio_words(s)
                  : s);
    }
  } else if (value.is_number()) {
    out.add(value.dump());
  } else if (value.is_array()) {
    if (value.empty()) out.add("none", styles::dim);
    for (std::size_t i = 0; i < value.size(); ++i) {
      if (i > 0) out.add(value[i].is_structured() ? "; " : " ");
      out.add(value_words(value[i]));
    }
  } else if (value.is_object()) {
    bool first = true;
    for (const auto& [k, v] : value.items()) {
      if (!first) out.add(", ");
      first = false;
      out.add(key_words(k) + " ", styles::dim);
      out.add(value_words(v));
    }
  }
  return out;
}

Lines table_generic(const TableInput& in, bool compact) {
  const json& view = field(in.state, "view");
  std::vector<SeatBox> seats;
  for (const SeatInfo& who : seat_infos(in.state)) seats.push_back({who, {}, {}});
  Lines middle;
  if (view.is_object()) {
    for (const auto& [key, value] : view.items()) {
      if (key == "result" || key == "toAct") continue;
      if (compact && value.is_structured() && value.size() > 8) continue;
      Line l;
      l.add(key_words(key) + ": ", styles::dim);
      l.add(value_words(value));
      middle.push_back(std::move(l));
    }
  }
  return arrange(in, seats, middle, {});
}

Lines render_table(const TableInput& in) {
  using Renderer = Lines (*)(const TableInput&, bool);
  const std::string game = in.state.value("game", "");
  Renderer r = table_generic;
  if (game == "pinocchio") r = table_pinocchio;
  if (game == "naked-gibbon") r = table_naked_gibbon;
  if (game == "fib-fibonacci") r = table_fib_fibonacci;
  if (game == "spider-monkey") r = table_spider_monkey;
  if (game == "tricky-tribes") r = table_tricky_tribes;
  if (!field(in.state, "view").is_object()) return {};
  // A view of an unexpected shape must never take the client down: the generic table reads any.
  Lines out;
  try {
    out = r(in, false);
    if (in.height > 0 && static_cast<int>(out.size()) > in.height) out = r(in, true);
  } catch (const json::exception&) {
    out = table_generic(in, in.height > 0);
  }
  for (Line& l : out) l = clip(l, in.width);
  return out;
}

}  // namespace campfire::cli
