// Spider Monkey: every player's line of face-down cards, each showing its slot number (as the
// moves name them, from 1); a card a private event just showed you stays face up for a few seconds.
// The stockpile, the discard pile, the card you drew, the slap window, powers and the call.
#include "clients/cli/cards.hpp"
#include "clients/cli/table.hpp"

namespace campfire::cli {

namespace {

// Players count slots from 1, as the moves and events name them; views by id, from 0. A slot
// keeps its number for the whole round, so a slapped card leaves a gap.
std::string slot_number(int id) {
  return std::to_string(id + 1);
}
std::string slot_number(const json& id) {
  return id.is_number_integer() ? slot_number(id.get<int>()) : "?";
}

bool has(const json& list, int seat) {
  if (!list.is_array()) return false;
  for (const json& s : list) {
    if (s.is_number_integer() && s.get<int>() == seat) return true;
  }
  return false;
}

Line line_of_cards(const TableInput& in, const json& v, int seat) {
  const auto s = static_cast<std::size_t>(seat);
  const json& ids =
      field(v, "lines").is_array() && s < field(v, "lines").size() ? field(v, "lines")[s] : json();
  const json& revealed = field(v, "revealed").is_array() && s < field(v, "revealed").size()
                             ? field(v, "revealed")[s]
                             : json();
  Line l;
  if (!ids.is_array() || ids.empty()) return Line("no cards left", styles::good);
  for (std::size_t k = 0; k < ids.size(); ++k) {
    if (k > 0) l.add(" ");
    const int id = ids[k].is_number_integer() ? ids[k].get<int>() : -1;
    std::string known;
    if (revealed.is_array() && k < revealed.size() && revealed[k].is_string()) {
      known = revealed[k].get<std::string>();
    } else if (in.memory != nullptr) {
      auto it = in.memory->shown.find({seat, id});
      if (it != in.memory->shown.end()) known = it->second.card;
    }
    if (!known.empty()) {
      l.add(slot_number(id) + ":", styles::dim);
      l.add(french_card(known));
    } else {
      l.add(card_back(slot_number(id)));
    }
  }
  return l;
}

std::string ranks(const json& list) {
  std::string out;
  if (!list.is_array()) return out;
  for (std::size_t i = 0; i < list.size(); ++i) {
    std::string r = list[i].is_string() ? list[i].get<std::string>() : list[i].dump();
    if (r == "T") r = "10";
    out += (i == 0 ? "" : i + 1 == list.size() ? " or " : ", ") + r;
  }
  return out;
}

}  // namespace

Lines table_spider_monkey(const TableInput& in, bool compact) {
  const json& v = field(in.state, "view");
  std::vector<SeatBox> seats;
  for (const SeatInfo& who : seat_infos(in.state)) {
    Lines body{line_of_cards(in, v, who.seat)};
    Line tags;
    if (field(v, "dealer").is_number_integer() && field(v, "dealer").get<int>() == who.seat)
      tags.add("dealer ", styles::dim);
    if (field(v, "caller").is_number_integer() && field(v, "caller").get<int>() == who.seat)
      tags.add("called! ", styles::warn);
    if (v.value("phase", "") == "peek" && has(field(v, "peeked"), who.seat))
      tags.add("has looked ", styles::dim);
    if (has(field(v, "slapDone"), who.seat)) tags.add("done slapping ", styles::dim);
    const auto s = static_cast<std::size_t>(who.seat);
    Line scores;
    if (field(v, "totals").is_array() && s < field(v, "totals").size()) {
      scores.add("total ", styles::dim);
      scores.add(field(v, "totals")[s].dump() + "  ", styles::bold);
    }
    if (field(v, "lastRound").is_object() && field(field(v, "lastRound"), "scores").is_array() &&
        s < field(field(v, "lastRound"), "scores").size() && !compact) {
      scores.add("last round ", styles::dim);
      scores.add(field(field(v, "lastRound"), "scores")[s].dump(), styles::bold);
    }
    if (!scores.empty()) body.push_back(scores);
    seats.push_back({who, body, tags});
  }

  Lines middle;
  const json& discard = v.value("discard", json::array());
  Line piles("stock ", styles::dim);
  piles.add(std::to_string(v.value("stock", 0)), styles::bold);
  piles.add("   discard ", styles::dim);
  if (!discard.empty() && discard.back().is_string()) {
    piles.add(french_card(discard.back().get<std::string>()));
    piles.add(" (" + count(static_cast<long long>(discard.size()), "card", "cards") + ")",
              styles::dim);
  } else {
    piles.add("empty", styles::dim);
  }
  piles.add("   round ", styles::dim);
  piles.add(std::to_string(v.value("round", 1)), styles::bold);
  piles.add("  turn ", styles::dim);
  piles.add(std::to_string(v.value("turns", 0)), styles::bold);
  middle.push_back(piles);
  if (field(v, "drawn").is_string()) {
    Line l("you drew ", styles::dim);
    l.add(french_card(field(v, "drawn").get<std::string>()));
    l.add(": keep it in a slot or discard it", styles::dim);
    middle.push_back(l);
  }
  const std::string phase = v.value("phase", "");
  if (phase == "peek") {
    middle.push_back(
        Line("everyone looks at two of their own cards, then remembers them", styles::warn));
  } else if (phase == "slap" || phase == "slap-window") {
    Line l(" SLAP! ", {Color::white, Color::red, true});
    l.add(" cards of rank " + ranks(field(v, "slapRanks")) + " may go onto the pile", styles::warn);
    middle.push_back(l);
  } else if (phase == "power") {
    middle.push_back(Line(v.value("power", "") == "jack"
                              ? "Jack: swap any two cards on the table, unseen"
                              : "Queen: look at any one card",
                          styles::warn));
    if (field(v, "jackFirst").is_object()) {
      Line l("first pick: ", styles::dim);
      l.add(seat_name(in.state, field(field(v, "jackFirst"), "seat")) + "'s slot " +
            slot_number(field(field(v, "jackFirst"), "slot")));
      middle.push_back(l);
    }
  }
  if (field(v, "caller").is_number_integer() && !field(v, "revealed").is_array()) {
    Line l;
    l.add(seat_name(in.state, field(v, "caller")), styles::bold);
    l.add(" called Spider Monkey: " + count(v.value("finalTurnsLeft", 0LL), "turn", "turns") +
              " left",
          styles::warn);
    middle.push_back(l);
  }
  if (field(v, "lastTurn").is_object() && !compact) {
    const json& t = field(v, "lastTurn");
    Line l("last turn: ", styles::dim);
    l.add(seat_name(in.state, field(t, "seat")), styles::bold);
    l.add(t.value("from", "") == "discard" ? " took the discard" : " drew from the stock");
    if (field(t, "replaced").is_number_integer())
      l.add(" into slot " + slot_number(field(t, "replaced")));
    if (field(t, "discarded").is_string()) {
      l.add(", discarded ");
      l.add(french_card(field(t, "discarded").get<std::string>()));
    }
    middle.push_back(l);
  }
  if (field(v, "lastRound").is_object() && !compact && !field(v, "revealed").is_array()) {
    const json& r = field(v, "lastRound");
    std::string winners;
    for (const json& w : r.value("winners", json::array())) {
      winners += (winners.empty() ? "" : ", ") + seat_name(in.state, w);
    }
    middle.push_back(
        Line("round " + r.value("round", json()).dump() + " went to " + winners, styles::dim));
  }
  return arrange(in, seats, middle, {});
}

}  // namespace campfire::cli
