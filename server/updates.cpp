#include "server/updates.hpp"

#include "protocol/merge_patch.hpp"

namespace campfire::server {

void UpdateFrames::keep(Sent& sent, long long version, const StateText& parts, const Own& own) {
  sent.version = version;
  sent.shared = parts.shared();
  sent.seat = StateText::seat_json(own.seat);
  sent.labels.assign(own.labels);
  sent.legal.assign(own.legal);
  sent.view.assign(own.view);
}

std::string UpdateFrames::sent_state(const Client& c, long long version, const StateText& parts,
                                     const Own& own) {
  if (c.updates() == UpdateMode::kPatch) {
    keep(sent_[&c], version, parts, own);
  } else {
    sent_.erase(&c);
  }
  return parts.frame(own.seat, own.labels, own.legal, own.view);
}

std::optional<std::string> UpdateFrames::patch(const Sent& was, const StateText& now,
                                               const Own& own) {
  if (was.shared == nullptr) return std::nullopt;
  if (was.shared != patch_from_ || now.shared() != patch_to_) {
    patch_from_ = was.shared;
    patch_to_ = now.shared();
    shared_patch_ = protocol::merge_patch(*was.shared, *now.shared());
  }
  if (!shared_patch_) return std::nullopt;
  std::string out;
  out.reserve(shared_patch_->size() + own.labels.size() + own.legal.size() + own.view.size() / 4 +
              32);
  out.append(*shared_patch_, 0, shared_patch_->size() - 1);  // without its closing brace
  bool first = out.size() == 1;
  const std::string seat = StateText::seat_json(own.seat);
  if (!protocol::append_member_patch(out, first, "\"labels\"", was.labels, own.labels) ||
      !protocol::append_member_patch(out, first, "\"legal\"", was.legal, own.legal) ||
      !protocol::append_member_patch(out, first, "\"seat\"", was.seat, seat) ||
      !protocol::append_member_patch(out, first, "\"view\"", was.view, own.view)) {
    return std::nullopt;
  }
  out += '}';
  return out;
}

std::string UpdateFrames::update(const Client& c, std::string_view room, long long version,
                                 const std::vector<const std::string*>& events,
                                 const StateText& parts, const Own& own) {
  namespace message = protocol::message;
  if (c.updates() != UpdateMode::kPatch) {
    sent_.erase(&c);
    return message::update_with_state(room, version, events,
                                      parts.frame(own.seat, own.labels, own.legal, own.view));
  }
  // A patch against the last state this member holds, when there is one and it is smaller.
  Sent& sent = sent_[&c];
  std::optional<std::string> p = patch(sent, parts, own);
  std::string out;
  if (p && p->size() < parts.frame_size(StateText::seat_json(own.seat), own.labels, own.legal,
                                        own.view)) {
    out = message::update_with_patch(room, version, events, sent.version, *p);
  } else {
    out = message::update_with_state(room, version, events,
                                     parts.frame(own.seat, own.labels, own.legal, own.view));
  }
  keep(sent, version, parts, own);
  return out;
}

}  // namespace campfire::server
