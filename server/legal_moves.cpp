#include "server/legal_moves.hpp"

#include "protocol/json_text.hpp"

namespace campfire::server {

const LegalMoves::Choices& LegalMoves::of(Seat seat, long long version) {
  if (version != version_) {
    // A new version: every seat's choices may have changed.
    version_ = version;
    seats_.assign(static_cast<std::size_t>(match_.seats()), std::nullopt);
  }
  std::optional<Choices>& slot = seats_[static_cast<std::size_t>(seat)];
  if (slot) return *slot;
  ++computed_;
  Choices& c = slot.emplace();
  c.actions = match_.state().legal_actions(seat);
  // Both arrays are written as text straight away, as dump() would write them.
  std::string actions = "[";
  std::string labels = "[";
  c.labels.reserve(c.actions.size());
  for (const Action& a : c.actions) {
    if (actions.size() > 1) {
      actions += ',';
      labels += ',';
    }
    protocol::append_json(match_.game().action_to_json(a), actions);
    c.labels.push_back(label_(seat, a));
    protocol::append_json_string(c.labels.back(), labels);
  }
  actions += ']';
  labels += ']';
  c.hash = std::hash<std::string>{}(actions);
  c.text = std::make_shared<const std::string>(std::move(actions));
  c.labels_text = std::make_shared<const std::string>(std::move(labels));
  return c;
}

}  // namespace campfire::server
