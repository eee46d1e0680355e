#include "protocol/merge_patch.hpp"

#include <array>
#include <cstddef>
#include <cstring>
#include <vector>

namespace campfire::protocol {

namespace {

constexpr std::size_t kNone = std::string_view::npos;
constexpr int kMaxDepth = 64;

bool space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

std::size_t skip_space(std::string_view s, std::size_t i) {
  while (i < s.size() && space(s[i])) ++i;
  return i;
}

// `s[i]` opens a string: the index just past its closing quote. Every seat's state is read after
// every change, so the quotes are found with memchr; a quote closes the string unless an odd run
// of backslashes comes before it.
std::size_t string_end(std::string_view s, std::size_t i) {
  std::size_t k = i + 1;
  while (k < s.size()) {
    const void* q = std::memchr(s.data() + k, '"', s.size() - k);
    if (q == nullptr) return kNone;
    const auto at = static_cast<std::size_t>(static_cast<const char*>(q) - s.data());
    std::size_t slashes = 0;
    while (at - slashes > i + 1 && s[at - slashes - 1] == '\\') ++slashes;
    if (slashes % 2 == 0) return at + 1;
    k = at + 1;
  }
  return kNone;
}

// The characters a container's scan must stop at; the rest are skipped one table look-up each.
constexpr std::array<bool, 256> kStops = [] {
  std::array<bool, 256> t{};
  for (const unsigned char c : {'"', '{', '[', '}', ']'}) t[c] = true;
  return t;
}();

// The index just past the value that starts at `s[i]`, or kNone when it is cut short or its
// brackets do not match.
std::size_t value_end(std::string_view s, std::size_t i) {
  if (i >= s.size()) return kNone;
  const char first = s[i];
  if (first == '"') return string_end(s, i);
  if (first == '{' || first == '[') {
    char open[kMaxDepth];
    int depth = 0;
    for (std::size_t k = i; k < s.size(); ++k) {
      while (k < s.size() && !kStops[static_cast<unsigned char>(s[k])]) ++k;
      if (k == s.size()) break;
      const char c = s[k];
      if (c == '"') {
        k = string_end(s, k);
        if (k == kNone) return kNone;
        --k;
      } else if (c == '{' || c == '[') {
        if (depth == kMaxDepth) return kNone;
        open[depth++] = c;
      } else if (c == '}' || c == ']') {
        if (depth == 0 || open[depth - 1] != (c == '}' ? '{' : '[')) return kNone;
        if (--depth == 0) return k + 1;
      }
    }
    return kNone;
  }
  std::size_t k = i;
  while (k < s.size() && !space(s[k]) && s[k] != ',' && s[k] != '}' && s[k] != ']') ++k;
  return k;
}

struct Member {
  std::string_view key;  // with its quotes, as written
  std::string_view value;
};

bool is_object(std::string_view value) {
  return !value.empty() && value.front() == '{';
}

// The members of `object`, the whole text of one object; false when it is not one.
bool read_members(std::string_view object, std::vector<Member>& members) {
  members.clear();
  if (!is_object(object) || object.back() != '}') return false;
  std::size_t i = skip_space(object, 1);
  if (object[i] == '}') return i + 1 == object.size();
  while (i < object.size() && object[i] == '"') {
    const std::size_t key_end = string_end(object, i);
    if (key_end == kNone) return false;
    const std::string_view key = object.substr(i, key_end - i);
    i = skip_space(object, key_end);
    if (i >= object.size() || object[i] != ':') return false;
    i = skip_space(object, i + 1);
    const std::size_t end = value_end(object, i);
    if (end == kNone || end == i) return false;
    members.push_back({key, object.substr(i, end - i)});
    i = skip_space(object, end);
    if (i >= object.size()) return false;
    if (object[i] == '}') return i + 1 == object.size();
    if (object[i] != ',') return false;
    i = skip_space(object, i + 1);
  }
  return false;
}

// The buffers one level of a patch works in. Patches are worked out for every member after every
// change, so each thread keeps one set per depth of nesting and reuses it, rather than allocating
// them anew for each object compared.
struct Scratch {
  std::vector<Member> before;
  std::vector<Member> after;
  std::string nested;
};

// Every level exists from the start, so that a deeper level never moves the buffers of one a
// caller is still reading (the depth is bounded: see append_change).
Scratch& scratch(int depth) {
  thread_local std::array<Scratch, kMaxDepth + 1> levels;
  return levels[static_cast<std::size_t>(depth)];
}

// True when `object` or an object inside it (not inside an array) has a member whose value is
// null: such an object cannot be sent whole in a patch over something that is not an object.
bool holds_null_member(std::string_view object, bool& ok, int depth) {
  if (depth >= kMaxDepth) {
    ok = false;
    return false;
  }
  std::vector<Member>& members = scratch(depth).after;
  if (!read_members(object, members)) {
    ok = false;
    return false;
  }
  // Nested objects reuse deeper levels' buffers, so `members` is read by index only.
  for (std::size_t i = 0; i < members.size(); ++i) {
    const std::string_view value = members[i].value;
    if (value == "null") return true;
    if (is_object(value) && holds_null_member(value, ok, depth + 1)) return true;
    if (!ok) return false;
  }
  return false;
}

const Member* find(const std::vector<Member>& members, std::size_t guess, std::string_view key) {
  // Both texts come from one writer, so a member is usually at the same place in both.
  if (guess < members.size() && members[guess].key == key) return &members[guess];
  for (const Member& m : members) {
    if (m.key == key) return &m;
  }
  return nullptr;
}

void append_member(std::string& out, bool& first, std::string_view key, std::string_view value) {
  if (!first) out += ',';
  first = false;
  out += key;
  out += ':';
  out += value;
}

bool append_patch(std::string_view before, std::string_view after, std::string& out, int depth);

// Appends what turns member `key`'s value `was` (nullptr: the member was absent) into `now`;
// false when a merge patch cannot say it. `depth` is the nesting of the object holding the member.
bool append_change(std::string& out, bool& first, std::string_view key, const std::string_view* was,
                   std::string_view now, int depth) {
  if (was != nullptr && *was == now) return true;
  if (now == "null") return false;
  if (depth + 1 >= kMaxDepth) return false;
  if (was != nullptr && is_object(*was) && is_object(now)) {
    std::string& nested = scratch(depth + 1).nested;
    nested.clear();
    if (!append_patch(*was, now, nested, depth + 1)) return false;
    if (nested != "{}") append_member(out, first, key, nested);
    return true;
  }
  if (is_object(now)) {
    bool ok = true;
    if (holds_null_member(now, ok, depth + 1) || !ok) return false;
  }
  append_member(out, first, key, now);
  return true;
}

// Appends the patch from object `before` to object `after`; false when none can say it.
bool append_patch(std::string_view before, std::string_view after, std::string& out, int depth) {
  Scratch& level = scratch(depth);
  std::vector<Member>& old_members = level.before;
  std::vector<Member>& new_members = level.after;
  if (!read_members(before, old_members) || !read_members(after, new_members)) return false;
  out += '{';
  bool first = true;
  for (std::size_t i = 0; i < new_members.size(); ++i) {
    const Member& now = new_members[i];
    const Member* was = find(old_members, i, now.key);
    if (!append_change(out, first, now.key, was != nullptr ? &was->value : nullptr, now.value,
                       depth)) {
      return false;
    }
  }
  for (std::size_t i = 0; i < old_members.size(); ++i) {
    if (find(new_members, i, old_members[i].key) == nullptr) {
      append_member(out, first, old_members[i].key, "null");
    }
  }
  out += '}';
  return true;
}

std::string_view trimmed(std::string_view s) {
  const std::size_t from = skip_space(s, 0);
  std::size_t to = s.size();
  while (to > from && space(s[to - 1])) --to;
  return s.substr(from, to - from);
}

}  // namespace

bool append_member_patch(std::string& out, bool& first, std::string_view key,
                         std::string_view before, std::string_view after) {
  const std::string_view was = trimmed(before);
  return append_change(out, first, key, &was, trimmed(after), 0);
}

bool append_member_change(std::string& out, bool& first, std::string_view key,
                          std::optional<std::string_view> before,
                          std::optional<std::string_view> after) {
  if (!after) {
    if (before) append_member(out, first, key, "null");
    return true;
  }
  if (before) return append_member_patch(out, first, key, *before, *after);
  return append_change(out, first, key, nullptr, trimmed(*after), 0);
}

std::optional<std::string> merge_patch(std::string_view before, std::string_view after) {
  std::string out;
  out.reserve(128);
  if (!append_patch(trimmed(before), trimmed(after), out, 0)) return std::nullopt;
  return out;
}

}  // namespace campfire::protocol
