// Pinocchio: every player's stack and nose, the pile's size and the claim on top with its
// outcome, the rule for the next claim, and your top card while you play it.
#include <algorithm>

#include "clients/cli/cards.hpp"
#include "clients/cli/table.hpp"

namespace campfire::cli {

namespace {

Line nose(int length) {
  Line out("nose ", styles::dim);
  out.add(std::to_string(length), styles::bold);
  if (length > 0)
    out.add(" " + std::string("●") +
                [&] {
                  std::string s;
                  for (int i = 0; i < std::min(length, 8); ++i) s += "━";
                  return s;
                }(),
            {Color::yellow});
  return out;
}

Line claim_line(const json& state, const json& c) {
  Line l;
  l.add(seat_name(state, field(c, "by")), styles::bold);
  l.add(" says ");
  l.add(pinocchio_card(c.value("claim", "?")));
  if (c.value("free", false)) l.add(" (free)", styles::dim);
  if (const json& shown = field(c, "challenge");
      shown.is_object() && field(shown, "revealed").is_string()) {
    const bool truthful = shown.value("truthful", false);
    l.add(" · ");
    l.add(seat_name(state, field(shown, "by")));
    l.add(" called it: ");
    l.add(pinocchio_card(field(shown, "revealed").get<std::string>()));
    l.add(truthful ? " true" : " a lie!", truthful ? styles::good : styles::bad);
  } else if (!c.value("challengeable", true)) {
    l.add(" · no challenge", styles::dim);
  }
  return l;
}

}  // namespace

Lines table_pinocchio(const TableInput& in, bool compact) {
  const json& v = field(in.state, "view");
  const json& stacks = v.value("stacks", json::array());
  const json& noses = v.value("noses", json::array());
  std::vector<SeatBox> seats;
  for (const SeatInfo& who : seat_infos(in.state)) {
    const auto s = static_cast<std::size_t>(who.seat);
    Line l("stack ", styles::dim);
    l.add(s < stacks.size() ? stacks[s].dump() : "?", styles::bold);
    l.add("  ");
    l.add(nose(s < noses.size() && noses[s].is_number_integer() ? noses[s].get<int>() : 0));
    seats.push_back({who, {l}, {}});
  }

  Lines middle;
  // The pile lies face down: its size and the claim on top, under it the latest claims this
  // client remembers from the events (when the newest it remembers is the one on top).
  const long long pile_size = v.value("pileSize", 0LL);
  Line head("pile ", styles::dim);
  head.add(count(pile_size, "card", "cards"), styles::bold);
  head.add("   box ", styles::dim);
  head.add(count(v.value("box", 0LL), "card", "cards"), styles::bold);
  middle.push_back(head);
  if (const json& top = field(v, "lastClaim"); top.is_object()) {
    if (in.memory != nullptr && !in.memory->claims.empty()) {
      const std::vector<json>& told = in.memory->claims;
      const json& newest = told.back();
      if (newest.value("by", -1) == top.value("by", -2) &&
          newest.value("claim", "") == top.value("claim", "")) {
        const std::size_t space = compact ? 1 : in.height >= 30 ? 7 : 3;
        const std::size_t under = std::min({space, told.size() - 1,
                                            static_cast<std::size_t>(std::max(0LL, pile_size - 1))});
        for (std::size_t i = told.size() - 1 - under; i + 1 < told.size(); ++i) {
          Line l("  ");
          l.add(claim_line(in.state, told[i]));
          middle.push_back(l);
        }
      }
    }
    Line l("▸ ", styles::warn);
    l.add(claim_line(in.state, top));
    middle.push_back(l);
  }
  const std::string phase = v.value("phase", "");
  if (phase == "play") {
    // The next claim must match the one on top, unless there is none or it was challenged.
    const json& top = field(v, "lastClaim");
    if (top.is_object() && !top.contains("challenge") && field(top, "claim").is_string()) {
      Line l("next claim matches ", styles::dim);
      l.add(pinocchio_card(field(top, "claim").get<std::string>()));
      l.add(" in colour or clothing", styles::dim);
      middle.push_back(l);
    } else {
      middle.push_back(Line("next claim is free: any colour, any clothing", styles::dim));
    }
  } else if (phase == "challenge" || phase == "final-challenge") {
    middle.push_back(Line(phase == "final-challenge"
                              ? "last chance: believe the final claim, or call a lie"
                              : "believe the claim, or call a lie",
                          styles::dim));
  }

  Lines mine;
  if (v.contains("yourCard") && field(v, "yourCard").is_string()) {
    Line l("your top card: ", styles::dim);
    l.add(pinocchio_card(field(v, "yourCard").get<std::string>()));
    mine.push_back(l);
  }
  return arrange(in, seats, middle, mine);
}

}  // namespace campfire::cli
