// Pinocchio: every player's stack and nose, the claims on the pile with their outcomes, the rule
// for the next claim, and your top card while you play it.
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
  if (c.contains("revealed") && field(c, "revealed").is_string()) {
    const bool truthful = c.value("truthful", false);
    l.add(" · ");
    l.add(seat_name(state, field(c, "challenger")));
    l.add(" called it: ");
    l.add(pinocchio_card(field(c, "revealed").get<std::string>()));
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
  const json& pile = v.value("pile", json::array());
  const long long pile_size = v.value("pileSize", static_cast<long long>(pile.size()));
  Line head("pile ", styles::dim);
  head.add(count(pile_size, "card", "cards"), styles::bold);
  head.add("   box ", styles::dim);
  head.add(count(v.value("box", 0LL), "card", "cards"), styles::bold);
  middle.push_back(head);
  const std::size_t shown = compact ? 2 : in.height >= 30 ? 8 : 4;
  for (std::size_t i = pile.size() > shown ? pile.size() - shown : 0; i < pile.size(); ++i) {
    Line l(i + 1 == pile.size() ? "▸ " : "  ", styles::warn);
    l.add(claim_line(in.state, pile[i]));
    middle.push_back(l);
  }
  const std::string phase = v.value("phase", "");
  if (phase == "play") {
    if (v.contains("mustMatch") && field(v, "mustMatch").is_string()) {
      Line l("next claim matches ", styles::dim);
      l.add(pinocchio_card(field(v, "mustMatch").get<std::string>()));
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
