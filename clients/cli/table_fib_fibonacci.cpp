// Fib-Fibonacci: every base (a joker) with its openings A and B, each a row of runs named as the
// moves name them ("run 2 (2-3-5)"), the side area, the draw pile, the series score and your hand.
#include "clients/cli/cards.hpp"
#include "clients/cli/table.hpp"

namespace campfire::cli {

namespace {

std::vector<std::string> codes(const json& list) {
  std::vector<std::string> out;
  if (!list.is_array()) return out;
  for (const json& c : list) {
    if (c.is_string()) out.push_back(c.get<std::string>());
  }
  return out;
}

// One run: "run 3 (2-3-5)  2♣ 3♥ 5♦  next 8", or closed, or empty.
Line run_line(const json& v, int id) {
  const json& runs = field(v, "runs");
  Line l;
  if (!runs.is_array() || id < 0 || static_cast<std::size_t>(id) >= runs.size()) return l;
  const json& r = runs[static_cast<std::size_t>(id)];
  const json& values = r.value("values", json::array());
  std::string seq;
  for (const json& x : values) seq += (seq.empty() ? "" : "-") + x.dump();
  // Runs are numbered from 1 in words, as the moves and events name them; by index in the view.
  l.add("run " + std::to_string(id + 1), styles::accent);
  if (!seq.empty()) l.add(" (" + seq + ")", styles::dim);
  l.add("  ");
  const auto cards = codes(field(r, "cards"));
  if (cards.empty()) {
    l.add("empty: starts with a 2, a 3 or a 6", styles::dim);
    return l;
  }
  l.add(french_cards(cards));
  if (r.value("closed", false)) {
    l.add("  closed", styles::dim);
  } else if (r.contains("next") && field(r, "next").is_number()) {
    l.add("  next " + field(r, "next").dump(), styles::good);
  } else if (cards.size() == 1) {
    l.add("  next a 3 or 5 above", styles::good);
  }
  if (field(r, "cappedBy").is_number_integer()) {
    const json& bases = field(v, "bases");
    const auto b = field(r, "cappedBy").get<std::size_t>();
    if (bases.is_array() && b < bases.size()) {
      l.add("  capped by ", styles::dim);
      l.add(french_card(bases[b].value("card", "?")));
    }
  }
  return l;
}

}  // namespace

Lines table_fib_fibonacci(const TableInput& in, bool compact) {
  const json& v = field(in.state, "view");
  std::vector<SeatBox> seats;
  const json& counts = v.value("handCounts", json::array());
  const json& won = v.value("gamesWon", json::array());
  const bool series = v.value("seriesGames", 1) > 1;
  for (const SeatInfo& who : seat_infos(in.state)) {
    const auto s = static_cast<std::size_t>(who.seat);
    Line l("hand ", styles::dim);
    l.add(s < counts.size() ? counts[s].dump() : "?", styles::bold);
    l.add("  side " + std::string(s == 0 ? "A" : "B"), styles::dim);
    if (series && s < won.size()) {
      l.add("  games won ", styles::dim);
      l.add(won[s].dump(), styles::bold);
    }
    Line tags;
    if (field(v, "dealer").is_number_integer() && field(v, "dealer").get<int>() == who.seat)
      tags.add("dealer", styles::dim);
    seats.push_back({who, {l}, tags});
  }

  Lines middle;
  Line head("draw pile ", styles::dim);
  head.add(std::to_string(v.value("drawPile", 0)), styles::bold);
  head.add("   turn ", styles::dim);
  head.add(std::to_string(v.value("turn", 0)) + "/" + std::to_string(v.value("turnLimit", 0)),
           styles::bold);
  if (series) {
    head.add("   game ", styles::dim);
    head.add(std::to_string(v.value("game", 1)) + "/" + std::to_string(v.value("seriesGames", 1)),
             styles::bold);
  }
  if (v.value("passes", 0) > 0) {
    head.add("   passes ", styles::dim);
    head.add(std::to_string(v.value("passes", 0)), styles::bold);
  }
  middle.push_back(head);
  const json& columns = v.value("columns", json::array());
  const json& bases = v.value("bases", json::array());
  if (columns.empty())
    middle.push_back(Line("the table is empty: the first play starts a base", styles::dim));
  for (const json& col : columns) {
    const bool floating = !(field(col, "base").is_number_integer() &&
                            field(col, "base").get<std::size_t>() < bases.size());
    if (!floating) {
      Line base;
      base.add(french_card(bases[field(col, "base").get<std::size_t>()].value("card", "?")));
      base.add(" base", styles::dim);
      middle.push_back(base);
    }
    for (const char* side : {"A", "B"}) {
      const json& ids = col.value(side, json::array());
      bool first = true;
      for (const json& id : ids) {
        if (!id.is_number_integer()) continue;
        Line l(first ? std::string("  ") + side + "  " : "     ", styles::bold);
        l.add(run_line(v, id.get<int>()));
        if (floating && first) l.add("  floating", styles::dim);
        middle.push_back(l);
        first = false;
      }
    }
  }
  const auto side = codes(field(v, "sideArea"));
  if (!side.empty() || !compact) {
    Line l("side area  ", styles::dim);
    l.add(french_cards(side));
    middle.push_back(l);
  }
  if (field(v, "pairChance").is_object()) {
    const json& p = field(v, "pairChance");
    Line l;
    l.add(seat_name(in.state, field(p, "seat")), styles::bold);
    l.add(" may pair ");
    l.add(french_card(p.value("card", "?")));
    l.add(" with ");
    l.add(french_card(p.value("partner", "?")));
    middle.push_back(l);
  }

  Lines mine;
  if (field(v, "hand").is_array()) {
    add_hand(mine, in, codes(field(v, "hand")));
  }
  return arrange(in, seats, middle, mine);
}

}  // namespace campfire::cli
