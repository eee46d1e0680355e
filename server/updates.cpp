#include "server/updates.hpp"

#include <charconv>

#include "protocol/merge_patch.hpp"

namespace campfire::server {

namespace {

std::optional<std::string_view> present(const std::string& text) {
  if (text.empty()) return std::nullopt;
  return std::string_view(text);
}

void append_int(std::string& out, long long v) {
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, r.ptr);
}

}  // namespace

void UpdateFrames::keep(Sent& sent, long long version, const StateText& parts, const Own& own) {
  sent.version = version;
  sent.shared = parts.shared();
  sent.seat = own.seat;
  sent.labels = *own.labels;
  sent.legal = *own.legal;
  sent.view.assign(own.view);
}

std::string UpdateFrames::sent_state(const Client& c, long long version, const StateText& parts,
                                     const Own& own) {
  if (c.updates() == UpdateMode::kPatch) {
    keep(sent_[&c], version, parts, own);
  } else {
    sent_.erase(&c);
  }
  return parts.frame(own.seat, **own.labels, **own.legal, own.view);
}

bool UpdateFrames::append_patch(std::string& out, const Sent& was, const StateText& now,
                                const Own& own) {
  if (was.shared == nullptr) return false;
  if (was.shared != patch_from_ || now.shared() != patch_to_) {
    patch_from_ = was.shared;
    patch_to_ = now.shared();
    // Member by member: most of them are the same text as before, which a comparison settles.
    std::string members;
    bool first = true;
    bool ok = true;
    for (std::size_t m = 0; m < SharedTexts::kCount && ok; ++m) {
      const std::string& before = was.shared->values[m];
      const std::string& after = now.shared()->values[m];
      if (before == after) continue;
      ok = protocol::append_member_change(members, first, SharedTexts::kKeys[m], present(before),
                                          present(after));
    }
    shared_patch_.reset();
    if (ok) shared_patch_ = std::move(members);
  }
  if (!shared_patch_) return false;
  out += '{';
  out += *shared_patch_;
  bool first = shared_patch_->empty();
  // Labels and legal actions that are the very texts sent last need no comparing.
  if (was.labels != *own.labels &&
      !protocol::append_member_patch(out, first, "\"labels\"", *was.labels, **own.labels)) {
    return false;
  }
  if (was.legal != *own.legal &&
      !protocol::append_member_patch(out, first, "\"legal\"", *was.legal, **own.legal)) {
    return false;
  }
  if (was.seat != own.seat) {
    // A seat never turns null in a patch (a member moving to spectating gets a whole state).
    if (own.seat < 0) return false;
    if (!first) out += ',';
    first = false;
    out += "\"seat\":";
    append_int(out, own.seat);
  }
  if (!protocol::append_member_patch(out, first, "\"view\"", was.view, own.view)) return false;
  out += '}';
  return true;
}

std::string UpdateFrames::update(const Client& c, std::string_view room, long long version,
                                 const std::vector<const std::string*>& events,
                                 const StateText& parts, const Own& own) {
  namespace message = protocol::message;
  const std::string_view labels = **own.labels;
  const std::string_view legal = **own.legal;
  std::size_t told = 0;
  for (const std::string* e : events) told += e->size() + 1;
  std::string out;
  if (c.updates() != UpdateMode::kPatch) {
    sent_.erase(&c);
    const std::size_t whole =
        parts.frame_size(StateText::seat_json(own.seat), labels, legal, own.view);
    out.reserve(64 + room.size() + told + whole);
    message::append_update_head(out, room, version, events);
    out += ",\"state\":";
    parts.append_frame(out, own.seat, labels, legal, own.view);
    out += '}';
    return out;
  }
  // A patch against the last state this member holds, when there is one and it is smaller; the
  // frame is written in one buffer, the patch straight into it.
  Sent& sent = sent_[&c];
  out.reserve(96 + room.size() + told + own.view.size() + legal.size() + labels.size());
  message::append_update_head(out, room, version, events);
  const std::size_t head = out.size();
  bool patched = false;
  if (sent.shared != nullptr) {
    out += ",\"base\":";
    append_int(out, sent.version);
    out += ",\"patch\":";
    const std::size_t from = out.size();
    patched = append_patch(out, sent, parts, own) &&
              out.size() - from <
                  parts.frame_size(StateText::seat_json(own.seat), labels, legal, own.view);
  }
  if (!patched) {
    out.resize(head);
    out += ",\"state\":";
    parts.append_frame(out, own.seat, labels, legal, own.view);
  }
  out += '}';
  keep(sent, version, parts, own);
  return out;
}

}  // namespace campfire::server
