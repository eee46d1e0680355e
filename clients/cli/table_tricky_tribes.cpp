// Tricky Tribes: every tribe's hand size, collected stack and points, exchange progress, team
// and vote; the trick on the table (open or dark, the cards you may see), the last trick with who
// collected what, the round and the target; your hand.
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

std::string tribe(const json& state, const json& t) {
  if (t.is_string() && t.get<std::string>() == "dummy") return "Dummy Tribe";
  return seat_name(state, t);
}

std::string signed_points(const json& p) {
  if (!p.is_number()) return "?";
  const long long n = p.get<long long>();
  return (n > 0 ? "+" : "") + std::to_string(n);
}

// "Bella 7♥  Bot 2 ░░░  Andrea 9♠": who played what, face-down cards as backs.
Line trick(const json& state, const json& by, const json& cards) {
  Line l;
  if (!by.is_array()) return l;
  for (std::size_t i = 0; i < by.size(); ++i) {
    if (i > 0) l.add("  ");
    l.add(tribe(state, by[i]) + " ", styles::dim);
    if (cards.is_array() && i < cards.size() && cards[i].is_string()) {
      l.add(french_card(cards[i].get<std::string>()));
    } else {
      l.add(card_back());
    }
  }
  return l;
}

std::string kind_words(const std::string& kind) {
  if (kind == "open-red") return "open, red";
  if (kind == "open-black") return "open, black";
  if (kind == "open-joker") return "open, joker";
  return kind;
}

}  // namespace

Lines table_tricky_tribes(const TableInput& in, bool compact) {
  const json& v = field(in.state, "view");
  std::vector<SeatBox> seats;
  for (const SeatInfo& who : seat_infos(in.state)) {
    const auto s = static_cast<std::size_t>(who.seat);
    Line stats("hand ", styles::dim);
    const json& counts = v.value("handCounts", json::array());
    stats.add(s < counts.size() ? counts[s].dump() : "?", styles::bold);
    stats.add("  total ", styles::dim);
    const json& totals = v.value("totals", json::array());
    stats.add(s < totals.size() ? totals[s].dump() : "0", styles::bold);
    // The stack collected this round: its points, then its cards.
    Line stack("stack ", styles::dim);
    const json& points = v.value("stackPoints", json::array());
    stack.add(s < points.size() ? signed_points(points[s]) : "0", styles::bold);
    const auto cards =
        codes(field(v, "stacks").is_array() && s < field(v, "stacks").size() ? field(v, "stacks")[s]
                                                                             : json());
    if (!cards.empty() && !compact) {
      stack.add(" ");
      stack.add(french_cards(cards));
    }
    Lines body{stats, stack};
    Line tags;
    if (field(v, "sides").is_array() && s < field(v, "sides").size())
      tags.add("team " + field(v, "sides")[s].dump() + " ", styles::dim);
    if (field(v, "exchange").is_array() && s < field(v, "exchange").size() &&
        field(v, "exchange")[s].is_string() && field(v, "exchange")[s] != "deciding") {
      tags.add(field(v, "exchange")[s].get<std::string>() + " ", styles::dim);
    }
    if (field(v, "voted").is_array() && s < field(v, "voted").size() &&
        field(v, "voted")[s] == true)
      tags.add("voted ", styles::dim);
    if (field(v, "dealer").is_number_integer() && field(v, "dealer").get<int>() == who.seat)
      tags.add("dealer", styles::dim);
    seats.push_back({who, body, tags});
  }

  Lines middle;
  Line head("round ", styles::dim);
  head.add(std::to_string(v.value("round", 1)), styles::bold);
  if (field(v, "currentTrick").is_object()) {
    head.add("   trick ", styles::dim);
    head.add(
        std::to_string(v.value("trick", 0)) + " of " + std::to_string(v.value("tricksPerRound", 0)),
        styles::bold);
  }
  const std::string end = v.value("endMode", "");
  if (end == "target") {
    head.add("   target ", styles::dim);
    head.add(std::to_string(v.value("target", 0)), styles::bold);
  } else if (end == "fixedRounds") {
    head.add("   rounds ", styles::dim);
    head.add(std::to_string(v.value("rounds", 0)), styles::bold);
  } else if (end == "manual") {
    head.add("   ends by vote", styles::dim);
  }
  head.add("   deck ", styles::dim);
  head.add(std::to_string(v.value("deck", 0)), styles::bold);
  middle.push_back(head);
  const std::string phase = v.value("phase", "");
  if (phase == "exchange") {
    middle.push_back(
        Line("exchange: everyone may swap one card for the one set aside for them", styles::warn));
  } else if (phase == "trim") {
    middle.push_back(Line("six tribes: whoever holds nine cards lays one away", styles::warn));
  } else if (phase == "vote") {
    middle.push_back(Line("the round is over: vote to play on or to end the game", styles::warn));
  }
  if (field(v, "currentTrick").is_object()) {
    const json& t = field(v, "currentTrick");
    Line l("trick ", styles::dim);
    if (field(t, "open").is_boolean())
      l.add(field(t, "open").get<bool>() ? "(open)  " : "(dark)  ", styles::dim);
    if (field(t, "by").is_array() && !field(t, "by").empty()) {
      l.add(trick(in.state, field(t, "by"), field(t, "cards")));
    } else {
      l.add(tribe(in.state, field(v, "leader")) + " leads", styles::dim);
      if (v.value("forcedOpen", false))
        l.add(" (face up: they won their own dark trick)", styles::dim);
    }
    middle.push_back(l);
  }
  if (field(v, "lastTrick").is_object()) {
    const json& t = field(v, "lastTrick");
    Line l("last trick (" + kind_words(t.value("kind", "")) + ")  ", styles::dim);
    l.add(trick(in.state, field(t, "by"), field(t, "cards")));
    middle.push_back(l);
    Line who("  → ", styles::dim);
    if (!field(t, "collector").is_null()) {
      who.add(tribe(in.state, field(t, "collector")), styles::bold);
      const auto taken = codes(field(t, "collected"));
      if (taken.empty()) {
        who.add(" collects nothing", styles::dim);
      } else {
        who.add(" collects ");
        who.add(french_cards(taken));
      }
    }
    if (!field(t, "loser").is_null() && t.contains("loser")) {
      who.add("  (penalty for ", styles::dim);
      who.add(tribe(in.state, field(t, "loser")), styles::bold);
      who.add(")", styles::dim);
    }
    middle.push_back(who);
  }
  const auto discards = codes(field(v, "discards"));
  if (!discards.empty() && !compact) {
    Line l("open discards ", styles::dim);
    l.add(french_cards(discards));
    middle.push_back(l);
  }
  if (v.value("dummy", false) && !compact) {
    Line l("Dummy Tribe's stack ", styles::dim);
    l.add(french_cards(codes(field(v, "dummyStack"))));
    middle.push_back(l);
  }

  Lines mine;
  if (field(v, "hand").is_array()) {
    add_hand(mine, in, codes(field(v, "hand")));
  }
  if (field(v, "yourVote").is_string()) {
    mine.push_back(
        Line(std::string("you voted to ") +
                 (field(v, "yourVote") == "end-game" ? "end the game" : "play another round"),
             styles::dim));
  }
  return arrange(in, seats, middle, mine);
}

}  // namespace campfire::cli
