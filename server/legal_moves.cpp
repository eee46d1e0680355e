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
  json actions = json::array();
  json labels = json::array();
  for (const Action& a : c.actions) {
    actions.push_back(match_.game().action_to_json(a));
    c.labels.push_back(label_(seat, a));
    labels.push_back(c.labels.back());
  }
  c.text = std::make_shared<const std::string>(protocol::json_text(actions));
  c.labels_text = std::make_shared<const std::string>(protocol::json_text(labels));
  c.hash = std::hash<std::string>{}(*c.text);
  return c;
}

}  // namespace campfire::server
