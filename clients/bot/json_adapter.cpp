#include "clients/bot/json_adapter.hpp"

namespace campfire::bot {

namespace {

Error bad_state(std::string message) {
  return make_error("bad_state", std::move(message));
}

}  // namespace

Expected<StateChoice> StateChoice::read(const json& state, const Registry& registry) {
  StateChoice c;
  const auto game = state.find("game");
  if (game == state.end() || !game->is_string()) return bad_state("the state names no game");
  c.game_ = registry.find(game->get<std::string>());
  if (c.game_ == nullptr) return bad_state("unknown game '" + game->get<std::string>() + "'");
  const auto seat = state.find("seat");
  if (seat == state.end() || !seat->is_number_integer()) return bad_state("the state has no seat");
  c.seat_ = seat->get<Seat>();
  const auto legal = state.find("legal");
  if (legal == state.end() || !legal->is_array()) return bad_state("the state has no legal list");
  for (const json& entry : *legal) {
    auto a = c.game_->action_from_json(entry);
    if (!a) return bad_state("a legal action the game does not know: " + a.error().message);
    c.legal_.push_back(*a);
  }
  const auto labels = state.find("labels");
  if (labels != state.end() && labels->is_array()) {
    for (const json& l : *labels) c.labels_.push_back(l.is_string() ? l.get<std::string>() : "");
  }
  c.view_ = state.value("view", json());
  return c;
}

bots::Decision StateChoice::decision() const {
  return bots::Decision(*game_, seat_, legal_, labels_, view_);
}

Event observed_event(const json& message, Seat seat) {
  return Event{Audience::only(seat), message.value("event", json::object())};
}

}  // namespace campfire::bot
