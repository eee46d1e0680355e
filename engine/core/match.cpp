#include "engine/core/match.hpp"

#include <charconv>

namespace campfire {

Match::Match(const Match& other)
    : game_(other.game_),
      seats_(other.seats_),
      options_(other.options_),
      seed_(other.seed_),
      deck_order_(other.deck_order_),
      state_(other.state_ ? other.state_->clone() : nullptr),
      log_(other.log_) {}

Match& Match::operator=(const Match& other) {
  if (this != &other) *this = Match(other);
  return *this;
}

std::optional<std::uint64_t> Match::parse_seed(const json& seed) {
  if (seed.is_number_unsigned()) return seed.get<std::uint64_t>();
  if (seed.is_number_integer() && seed.get<long long>() >= 0) {
    return static_cast<std::uint64_t>(seed.get<long long>());
  }
  if (seed.is_string()) {
    const auto& s = seed.get_ref<const std::string&>();
    std::uint64_t v = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec == std::errc() && end == s.data() + s.size() && !s.empty()) return v;
  }
  return std::nullopt;
}

Expected<Match> Match::create(const Game& game, int seats, const json& options,
                              std::uint64_t seed, const json& deck_order) {
  auto parsed = game.parse_options(options, seats);
  if (!parsed) return parsed.error();
  Match m;
  m.game_ = &game;
  m.seats_ = seats;
  m.options_ = *parsed;
  m.seed_ = seed;
  if (!deck_order.is_null()) {
    if (!deck_order.is_array()) {
      return make_error("bad_deck_order", "deckOrder must be an array of card codes");
    }
    std::vector<Card> cards;
    for (const json& code : deck_order) {
      if (!code.is_string()) {
        return make_error("bad_deck_order", "deckOrder must be an array of card codes");
      }
      auto card = game.parse_card(code.get<std::string>());
      if (!card) {
        return make_error("bad_deck_order", "unknown card '" + code.get<std::string>() + "'");
      }
      cards.push_back(*card);
    }
    m.deck_order_ = std::move(cards);
  }
  auto state = game.new_state(seats, m.options_, seed, m.deck_order_ ? &*m.deck_order_ : nullptr);
  if (!state) return state.error();
  m.state_ = std::move(*state);
  return m;
}

Status Match::apply(Seat seat, const Action& action, Events& events) {
  Status status = state_->apply(seat, action, events);
  if (!status) log_.push_back({seat, action});
  return status;
}

json Match::log_entry_json(const LoggedAction& entry) const {
  return {{"seat", entry.seat}, {"action", game_->action_to_json(entry.action)}};
}

json Match::save() const {
  json j = {{"game", game_->info().id},
            {"seats", seats_},
            {"options", options_.to_json()},
            {"seed", std::to_string(seed_)}};
  if (deck_order_) {
    json codes = json::array();
    for (Card c : *deck_order_) codes.push_back(game_->card_code(c));
    j["deckOrder"] = std::move(codes);
  }
  json log = json::array();
  for (const auto& entry : log_) log.push_back(log_entry_json(entry));
  j["log"] = std::move(log);
  return j;
}

Expected<Match> Match::restore(const Registry& registry, const json& saved) {
  if (!saved.is_object()) return make_error("bad_save", "a saved match is a JSON object");
  auto gid = saved.find("game");
  if (gid == saved.end() || !gid->is_string()) return make_error("bad_save", "missing game");
  const Game* game = registry.find(gid->get<std::string>());
  if (game == nullptr) return make_error("bad_save", "unknown game '" + gid->dump() + "'");
  auto seats = saved.find("seats");
  if (seats == saved.end() || !seats->is_number_integer()) {
    return make_error("bad_save", "missing seats");
  }
  auto seed = parse_seed(saved.value("seed", json()));
  if (!seed) return make_error("bad_save", "missing or invalid seed");
  auto match = create(*game, seats->get<int>(), saved.value("options", json::object()), *seed,
                      saved.value("deckOrder", json()));
  if (!match) return match.error();
  const json log = saved.value("log", json::array());
  if (!log.is_array()) return make_error("bad_save", "log must be an array");
  Events silent(false);
  for (std::size_t i = 0; i < log.size(); ++i) {
    const json& entry = log[i];
    if (!entry.is_object() || !entry.contains("seat") || !entry["seat"].is_number_integer() ||
        !entry.contains("action")) {
      return make_error("bad_save", "log entry " + std::to_string(i) + " is malformed");
    }
    auto action = game->action_from_json(entry["action"]);
    if (!action) {
      return make_error("bad_save", "log entry " + std::to_string(i) + ": " +
                                        action.error().message);
    }
    if (auto err = match->apply(entry["seat"].get<int>(), *action, silent)) {
      return make_error("bad_save", "log entry " + std::to_string(i) + " was refused: " +
                                        err->message);
    }
  }
  return match;
}

}  // namespace campfire
