#include "engine/core/state.hpp"

#include <algorithm>

namespace campfire {

namespace {
std::vector<int> places_by(const std::vector<int>& values, bool lower_is_better) {
  std::vector<int> places(values.size(), 1);
  for (std::size_t i = 0; i < values.size(); ++i) {
    for (std::size_t j = 0; j < values.size(); ++j) {
      const bool better = lower_is_better ? values[j] < values[i] : values[j] > values[i];
      if (better) ++places[i];
    }
  }
  return places;
}
}  // namespace

std::vector<int> Result::places_ascending(const std::vector<int>& values) {
  return places_by(values, true);
}
std::vector<int> Result::places_descending(const std::vector<int>& values) {
  return places_by(values, false);
}

void Result::write(ViewWriter& out) const {
  out.begin_object();
  out.key("losers").array(losers);
  out.key("places").array(places);
  if (!scores.empty()) out.key("scores").array(scores);
  out.key("winners").array(winners);
  out.end_object();
}

json Result::to_json() const {
  TreeWriter tree;
  write(tree);
  return tree.take();
}

json State::view(Seat viewer) const {
  TreeWriter tree;
  write_view(viewer, tree);
  return tree.take();
}

void State::view_text(Seat viewer, std::string& out) const {
  TextWriter text(out);
  write_view(viewer, text);
}

void State::after_redeal(Rng&) {}

json State::recall(Seat) const { return json::object(); }

std::unique_ptr<State> State::determinize(Seat viewer, Rng& rng) const {
  std::unique_ptr<State> copy = clone();
  std::vector<Card*> slots;
  copy->unknown_to(viewer, slots);
  std::vector<Card> pool;
  pool.reserve(slots.size());
  for (const Card* slot : slots) pool.push_back(*slot);
  // Sorting first forgets where each card was; only the shuffle decides where it goes.
  std::sort(pool.begin(), pool.end());
  rng.shuffle(pool);
  for (std::size_t i = 0; i < slots.size(); ++i) *slots[i] = pool[i];
  copy->after_redeal(rng);
  return copy;
}

Action State::fallback_action(Seat seat) const {
  std::vector<Action> legal;
  legal_actions(seat, legal);
  return legal.empty() ? Action{} : legal.front();
}

std::vector<Action> State::legal_actions(Seat seat) const {
  std::vector<Action> out;
  legal_actions(seat, out);
  return out;
}

void State::legal_actions(Seat seat, std::vector<Action>& out) const {
  out.clear();
  if (over() || !to_act().contains(seat)) return;
  do_legal_actions(seat, out);
}

Status State::apply(Seat seat, const Action& action, Events& events) {
  if (over()) return make_error("game_over", "the game is over");
  if (action.is_timeout()) {
    if (seat != kSystem) {
      return make_error("not_allowed", "only the server closes timed windows");
    }
    const auto open = window();
    if (!open || open->id != action.arg(0)) {
      return make_error("stale_timeout", "that window is no longer open");
    }
    return do_apply(seat, action, events);
  }
  if (seat < 0 || seat >= seats()) return make_error("bad_seat", "no such seat");
  if (!to_act().contains(seat)) return make_error("not_your_turn", "it is not your turn");
  return do_apply(seat, action, events);
}

}  // namespace campfire
