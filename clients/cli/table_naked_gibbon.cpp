// Naked Gibbon: every gibbon's three limb slots (table cards over hidden burnmarks), hand size,
// burnmarks and hat; the campfire with its fire number and the latest jumps over it; deck and
// discard; cards waiting to be placed; your hand.
#include "clients/cli/cards.hpp"
#include "clients/cli/table.hpp"

namespace campfire::cli {

namespace {

std::string jump_words(const std::string& code) {
  if (code == "hands-up") return "hands up";
  if (code == "chest-up") return "chest up";
  if (code == "random") return "panic jump";
  if (code == "back-flip") return "back flip";
  if (code == "side-flip") return "side flip";
  return code;
}

// "1 7♠  2 ··✗  3 9♥": the slots by number (as the moves name them), a red ✗ on a burnmark.
Line limbs(const json& v, std::size_t seat) {
  const json& table = field(v, "table").is_array() && seat < field(v, "table").size()
                          ? field(v, "table")[seat]
                          : json();
  const json& burned = field(v, "burned").is_array() && seat < field(v, "burned").size()
                           ? field(v, "burned")[seat]
                           : json();
  Line l;
  if (!table.is_array()) return l;
  for (std::size_t slot = 0; slot < table.size(); ++slot) {
    if (slot > 0) l.add("  ");
    l.add(std::to_string(slot + 1) + " ", styles::dim);
    if (table[slot].is_string()) {
      l.add(french_card(table[slot].get<std::string>()));
    } else {
      l.add("·· ", styles::dim);
    }
    if (burned.is_array() && slot < burned.size() && burned[slot].is_boolean() &&
        burned[slot].get<bool>()) {
      l.add("✗", styles::bad);
    }
  }
  return l;
}

Line marks(long long n, long long limit) {
  Line l("burnmarks ", styles::dim);
  l.add(std::to_string(n) + "/" + std::to_string(limit), n > 0 ? styles::bad : styles::bold);
  return l;
}

Line jump_line(const json& state, const json& p) {
  Line l;
  l.add(seat_name(state, field(p, "by")), styles::bold);
  l.add(" " + jump_words(p.value("jump", "")) + " ");
  if (p.contains("card") && field(p, "card").is_string()) {
    l.add(french_card(field(p, "card").get<std::string>()));
  } else {
    l.add(card_back());
  }
  l.add(" fire " + std::to_string(p.value("before", 0)) + "→" + std::to_string(p.value("after", 0)),
        styles::dim);
  return l;
}

}  // namespace

Lines table_naked_gibbon(const TableInput& in, bool compact) {
  const json& v = field(in.state, "view");
  const long long limit = v.value("burnLimit", 3LL);
  std::vector<SeatBox> seats;
  for (const SeatInfo& who : seat_infos(in.state)) {
    const auto s = static_cast<std::size_t>(who.seat);
    Line stats("hand ", styles::dim);
    const json& counts = v.value("handCounts", json::array());
    stats.add(s < counts.size() ? counts[s].dump() : "?", styles::bold);
    stats.add("  ");
    const json& bm = v.value("burnmarks", json::array());
    stats.add(marks(s < bm.size() && bm[s].is_number() ? bm[s].get<long long>() : 0, limit));
    Line tags;
    if (field(v, "hat").is_number_integer() && field(v, "hat").get<int>() == who.seat) {
      tags.add("monkey hat ", styles::warn);
    }
    const json& out = v.value("out", json::array());
    if (s < out.size() && out[s].is_boolean() && out[s].get<bool>()) tags.add("out ", styles::bad);
    const json& losses = v.value("losses", json::array());
    if (s < losses.size() && losses[s].is_number() && losses[s].get<long long>() > 0) {
      tags.add("lost " + losses[s].dump(), styles::dim);
    }
    seats.push_back({who, {stats, limbs(v, s)}, tags});
  }

  Lines middle;
  Line fire("fire number ", styles::dim);
  fire.add(" " + std::to_string(v.value("fireNumber", 0)) + " ",
           {Color::black, Color::yellow, true});
  fire.add("   deck ", styles::dim);
  fire.add(std::to_string(v.value("deck", 0)), styles::bold);
  fire.add("   discard ", styles::dim);
  fire.add(std::to_string(v.value("discard", 0)), styles::bold);
  fire.add("   round ", styles::dim);
  fire.add(std::to_string(v.value("round", 1)), styles::bold);
  middle.push_back(fire);
  const json& jumps = v.value("fire", json::array());
  const std::size_t shown = compact ? 2 : in.height >= 30 ? 8 : 4;
  if (jumps.empty()) middle.push_back(Line("nobody has jumped over this fire yet", styles::dim));
  for (std::size_t i = jumps.size() > shown ? jumps.size() - shown : 0; i < jumps.size(); ++i) {
    Line l(i + 1 == jumps.size() ? "▸ " : "  ", styles::warn);
    l.add(jump_line(in.state, jumps[i]));
    middle.push_back(l);
  }
  if (field(v, "placing").is_object()) {
    const json& p = field(v, "placing");
    Line l;
    l.add(seat_name(in.state, field(p, "seat")), styles::bold);
    l.add(p.value("why", "") == "naked" ? " is naked and places " : " places after a fire bath ");
    std::vector<std::string> cards;
    for (const json& c : p.value("cards", json::array())) {
      if (c.is_string()) cards.push_back(c.get<std::string>());
    }
    l.add(french_cards(cards));
    middle.push_back(l);
  }
  if (field(v, "lastDoubt").is_object() && !compact) {
    const json& d = field(v, "lastDoubt");
    Line l("last doubt: ", styles::dim);
    l.add(seat_name(in.state, field(d, "doubter")), styles::bold);
    l.add(" doubted ");
    l.add(seat_name(in.state, field(d, "target")), styles::bold);
    l.add("'s " + jump_words(d.value("jump", "")) + ": ");
    if (field(d, "card").is_string()) l.add(french_card(field(d, "card").get<std::string>()));
    middle.push_back(l);
  }
  if (field(v, "warning").is_string())
    middle.push_back(Line(field(v, "warning").get<std::string>(), styles::warn));

  Lines mine;
  if (field(v, "hand").is_array()) {
    std::vector<std::string> hand;
    for (const json& c : field(v, "hand")) {
      if (c.is_string()) hand.push_back(c.get<std::string>());
    }
    add_hand(mine, in, hand);
  }
  return arrange(in, seats, middle, mine);
}

}  // namespace campfire::cli
