#include "engine/core/game.hpp"

#include <algorithm>
#include <cstdint>

namespace campfire {

json GameInfo::to_json() const {
  json opts = json::array();
  for (const auto& o : options) opts.push_back(o.to_json());
  return {{"id", id},
          {"name", name},
          {"summary", summary},
          {"minSeats", min_seats},
          {"maxSeats", max_seats},
          {"options", std::move(opts)}};
}

json Game::action_to_json(const Action& action) const {
  if (action.is_timeout()) return {{"move", "timeout"}, {"window", action.arg(0)}};
  return encode_action(action);
}

Expected<Action> Game::action_from_json(const json& action) const {
  if (!action.is_object()) return make_error("bad_action", "an action is a JSON object");
  auto move = action.find("move");
  if (move == action.end() || !move->is_string()) {
    return make_error("bad_action", "an action needs a \"move\" string");
  }
  const auto& name = move->get_ref<const std::string&>();
  if (name == "timeout") {
    auto w = action.find("window");
    if (w == action.end() || !w->is_number_integer()) {
      return make_error("bad_action", "timeout needs a \"window\" number");
    }
    const auto id = w->get<long long>();
    if (id < INT32_MIN || id > INT32_MAX) return make_error("bad_action", "no such window");
    return Action::timeout(static_cast<std::int32_t>(id));
  }
  return decode_action(name, action);
}

Status Game::check_options(const Options&, int) const { return std::nullopt; }

Expected<Options> Game::parse_options(const json& given, int seats) const {
  const GameInfo& gi = info();
  if (seats < gi.min_seats || seats > gi.max_seats) {
    return make_error("bad_seats", gi.name + " is played by " + std::to_string(gi.min_seats) +
                                       " to " + std::to_string(gi.max_seats) + " players");
  }
  auto options = Options::parse(gi.options, given);
  if (!options) return options.error();
  if (auto err = check_options(*options, seats)) return *err;
  return options;
}

Expected<std::unique_ptr<State>> Game::new_state(int seats, const Options& options,
                                                 std::uint64_t seed,
                                                 const std::vector<Card>* deck_order) const {
  std::vector<Card> cards = deck(options, seats);
  Rng rng(seed);
  if (deck_order != nullptr) {
    std::vector<Card> want = cards;
    std::vector<Card> got = *deck_order;
    std::sort(want.begin(), want.end());
    std::sort(got.begin(), got.end());
    if (want != got) {
      return make_error("bad_deck_order",
                        "the deck order must list every card of the game exactly once (" +
                            std::to_string(cards.size()) + " cards)");
    }
    cards = *deck_order;
  } else {
    rng.shuffle(cards);
  }
  return start(seats, options, std::move(cards), rng);
}

}  // namespace campfire
