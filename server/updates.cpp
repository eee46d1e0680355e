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

bool same(const UpdateFrames::Text& a, const UpdateFrames::Text& b) {
  return a == b || *a == *b;
}

bool patched_mode(UpdateMode mode) {
  return mode == UpdateMode::kPatch || mode == UpdateMode::kDelta;
}

}  // namespace

const UpdateFrames::Text& UpdateFrames::no_labels() {
  static const Text none = std::make_shared<const std::string>();
  return none;
}

void UpdateFrames::keep(Sent& sent, long long version, const StateText& parts, const Own& own) {
  sent.version = version;
  sent.shared = parts.shared();
  sent.seat = own.seat;
  sent.labels = *own.labels;
  sent.legal = *own.legal;
  sent.view.assign(own.view);
}

void UpdateFrames::number(Sent& sent, const Own& own) {
  // An empty list is never numbered: "[]" is as short as a number.
  if (**own.legal == "[]") return;
  if (sent.numbered.size() == kRemembered) sent.numbered.erase(sent.numbered.begin());
  sent.numbered.push_back({*own.legal, *own.labels, own.legal_hash});
  ++sent.next;
}

void UpdateFrames::restart_numbers(Sent& sent, const Own& own) {
  sent.numbered.clear();
  sent.next = 0;
  number(sent, own);
}

std::string UpdateFrames::sent_state(const Client& c, long long version, const StateText& parts,
                                     const Own& own) {
  if (patched_mode(c.updates())) {
    Sent& sent = sent_[&c];
    keep(sent, version, parts, own);
    sent.delta = c.updates() == UpdateMode::kDelta;
    if (sent.delta) restart_numbers(sent, own);
  } else {
    sent_.erase(&c);
  }
  return parts.frame(own.seat, **own.labels, **own.legal, own.view);
}

bool UpdateFrames::append_patch(std::string& out, const Sent& was, const StateText& now,
                                const Own& own, bool delta, Legal& legal) {
  if (was.shared == nullptr) return false;
  if (was.shared->id != patch_from_ || now.shared()->id != patch_to_) {
    patch_from_ = was.shared->id;
    patch_to_ = now.shared()->id;
    // Member by member: most of them are the same text as before, which a comparison settles.
    // The delta version leaves out the version, which its frame says.
    std::string members;
    std::string members_delta;
    bool first = true;
    bool first_delta = true;
    bool ok = true;
    for (std::size_t m = 0; m < SharedTexts::kCount && ok; ++m) {
      const std::string& before = was.shared->values[m];
      const std::string& after = now.shared()->values[m];
      if (before == after) continue;
      ok = protocol::append_member_change(members, first, SharedTexts::kKeys[m], present(before),
                                          present(after));
      if (ok && m != SharedTexts::kVersion) {
        protocol::append_member_change(members_delta, first_delta, SharedTexts::kKeys[m],
                                       present(before), present(after));
      }
    }
    shared_patch_.reset();
    if (ok) {
      shared_patch_ = std::move(members);
      shared_delta_ = std::move(members_delta);
    }
  }
  if (!shared_patch_) return false;
  const std::string& shared = delta ? shared_delta_ : *shared_patch_;
  out += '{';
  out += shared;
  bool first = shared.empty();
  legal = Legal::kSame;
  if (was.legal != *own.legal && **own.legal != *was.legal) {
    legal = Legal::kWhole;
    if (delta) {
      // A list this member holds by number, with the same labels, is said by its number.
      for (std::size_t i = 0; i < was.numbered.size(); ++i) {
        const Numbered& n = was.numbered[i];
        if (n.hash != own.legal_hash || !same(n.legal, *own.legal) ||
            !same(n.labels, *own.labels)) {
          continue;
        }
        if (!first) out += ',';
        first = false;
        out += "\"legal\":";
        append_int(out, was.next - static_cast<long long>(was.numbered.size() - i));
        legal = Legal::kNumber;
        break;
      }
    }
  }
  // Labels and legal actions that are the very texts sent last need no comparing; labels come
  // with a numbered list.
  if (legal != Legal::kNumber && was.labels != *own.labels &&
      !protocol::append_member_change(out, first, "\"labels\"", present(*was.labels),
                                      present(**own.labels))) {
    return false;
  }
  if (legal == Legal::kWhole) {
    if (delta && own.rows != nullptr) {
      // A list replaces the one before whole, as a merge patch says an array: the rows are the
      // member's new value.
      if (!first) out += ',';
      first = false;
      out += "\"legal\":";
      out += **own.rows;
    } else if (!protocol::append_member_patch(out, first, "\"legal\"", *was.legal, **own.legal)) {
      return false;
    }
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
  const UpdateMode mode = c.updates();
  if (!patched_mode(mode)) {
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
  // A patch against the last state this member holds, when there is one in the same mode and it
  // is smaller; the frame is written in one buffer, the patch straight into it.
  const bool delta = mode == UpdateMode::kDelta;
  Sent& sent = sent_[&c];
  out.reserve(96 + room.size() + told + own.view.size() + legal.size() + labels.size());
  message::append_update_head(out, room, version, events);
  const std::size_t head = out.size();
  bool patched = false;
  Legal what = Legal::kSame;
  if (sent.shared != nullptr && sent.delta == delta) {
    if (!delta) {
      out += ",\"base\":";
      append_int(out, sent.version);
    }
    out += ",\"patch\":";
    const std::size_t from = out.size();
    patched = append_patch(out, sent, parts, own, delta, what) &&
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
  sent.delta = delta;
  if (!delta) {
    sent.numbered.clear();
  } else if (!patched) {
    restart_numbers(sent, own);
  } else if (what == Legal::kWhole) {
    number(sent, own);
  }
  return out;
}

}  // namespace campfire::server
