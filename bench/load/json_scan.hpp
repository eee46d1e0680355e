// Reads the few fields the load generator needs straight from a frame's text, without building a
// JSON tree: a seat gets a state for every move at its table and acts on only one in several.
#pragma once

#include <array>
#include <charconv>
#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

namespace campfire::load {

namespace detail {

inline void skip_space(std::string_view s, std::size_t& i) {
  while (i < s.size() && (s[i] == ' ' || s[i] == '\n' || s[i] == '\r' || s[i] == '\t')) ++i;
}

// Moves past one string starting at s[i] == '"'; false if it never closes.
inline bool skip_string(std::string_view s, std::size_t& i) {
  for (++i; i < s.size(); ++i) {
    if (s[i] == '\\') {
      ++i;
    } else if (s[i] == '"') {
      ++i;
      return true;
    }
  }
  return false;
}

// Moves past one value (object, array, string or scalar) starting at s[i].
inline bool skip_value(std::string_view s, std::size_t& i) {
  if (i >= s.size()) return false;
  if (s[i] == '"') return skip_string(s, i);
  if (s[i] == '{' || s[i] == '[') {
    int depth = 0;
    while (i < s.size()) {
      const char c = s[i];
      if (c == '"') {
        if (!skip_string(s, i)) return false;
        continue;
      }
      if (c == '{' || c == '[') ++depth;
      if (c == '}' || c == ']') {
        if (--depth == 0) {
          ++i;
          return true;
        }
      }
      ++i;
    }
    return false;
  }
  while (i < s.size() && s[i] != ',' && s[i] != '}' && s[i] != ']') ++i;
  return true;
}

}  // namespace detail

// The raw text of a top-level member's value (strings keep their quotes), if present.
inline std::optional<std::string_view> field(std::string_view s, std::string_view key) {
  std::size_t i = 0;
  detail::skip_space(s, i);
  if (i >= s.size() || s[i] != '{') return std::nullopt;
  ++i;
  while (true) {
    detail::skip_space(s, i);
    if (i >= s.size() || s[i] != '"') return std::nullopt;
    const std::size_t key_start = i + 1;
    if (!detail::skip_string(s, i)) return std::nullopt;
    const std::string_view k = s.substr(key_start, i - key_start - 1);
    detail::skip_space(s, i);
    if (i >= s.size() || s[i] != ':') return std::nullopt;
    ++i;
    detail::skip_space(s, i);
    const std::size_t value_start = i;
    if (!detail::skip_value(s, i)) return std::nullopt;
    if (k == key) return s.substr(value_start, i - value_start);
    detail::skip_space(s, i);
    if (i >= s.size() || s[i] != ',') return std::nullopt;
    ++i;
  }
}

// The raw texts of several top-level members, found in one pass that stops as soon as all of
// them are found: a state message is read up to its version, never through its view.
template <std::size_t N>
std::array<std::optional<std::string_view>, N> fields(std::string_view s,
                                                      const std::array<std::string_view, N>& keys) {
  std::array<std::optional<std::string_view>, N> out;
  std::size_t found = 0;
  std::size_t i = 0;
  detail::skip_space(s, i);
  if (i >= s.size() || s[i] != '{') return out;
  ++i;
  while (found < N) {
    detail::skip_space(s, i);
    if (i >= s.size() || s[i] != '"') return out;
    const std::size_t key_start = i + 1;
    if (!detail::skip_string(s, i)) return out;
    const std::string_view k = s.substr(key_start, i - key_start - 1);
    detail::skip_space(s, i);
    if (i >= s.size() || s[i] != ':') return out;
    ++i;
    detail::skip_space(s, i);
    const std::size_t value_start = i;
    if (!detail::skip_value(s, i)) return out;
    for (std::size_t n = 0; n < N; ++n) {
      if (!out[n] && k == keys[n]) {
        out[n] = s.substr(value_start, i - value_start);
        ++found;
        break;
      }
    }
    detail::skip_space(s, i);
    if (i >= s.size() || s[i] != ',') return out;
    ++i;
  }
  return out;
}

// A string value without its quotes (escapes left as they are); empty if not a string.
inline std::string_view unquote(std::optional<std::string_view> v) {
  if (!v || v->size() < 2 || v->front() != '"') return {};
  return v->substr(1, v->size() - 2);
}

inline std::optional<long long> to_int(std::optional<std::string_view> v) {
  if (!v) return std::nullopt;
  long long out = 0;
  auto [p, ec] = std::from_chars(v->data(), v->data() + v->size(), out);
  if (ec != std::errc()) return std::nullopt;
  return out;
}

// A string member without its quotes (escapes left as they are).
inline std::string_view string_field(std::string_view s, std::string_view key) {
  return unquote(field(s, key));
}

inline std::optional<long long> int_field(std::string_view s, std::string_view key) {
  return to_int(field(s, key));
}

// The raw text of each element of a JSON array.
inline std::vector<std::string_view> elements(std::string_view array) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  detail::skip_space(array, i);
  if (i >= array.size() || array[i] != '[') return out;
  ++i;
  while (true) {
    detail::skip_space(array, i);
    if (i >= array.size() || array[i] == ']') return out;
    const std::size_t start = i;
    if (!detail::skip_value(array, i)) return out;
    out.push_back(array.substr(start, i - start));
    detail::skip_space(array, i);
    if (i >= array.size() || array[i] != ',') return out;
    ++i;
  }
}

// The raw texts of an object's member names, quotes included, in the order of the text.
inline std::vector<std::string_view> member_names(std::string_view object) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  detail::skip_space(object, i);
  if (i >= object.size() || object[i] != '{') return out;
  ++i;
  while (true) {
    detail::skip_space(object, i);
    if (i >= object.size() || object[i] != '"') return out;
    const std::size_t start = i;
    if (!detail::skip_string(object, i)) return out;
    out.push_back(object.substr(start, i - start));
    detail::skip_space(object, i);
    if (i >= object.size() || object[i] != ':') return out;
    ++i;
    detail::skip_space(object, i);
    if (!detail::skip_value(object, i)) return out;
    detail::skip_space(object, i);
    if (i >= object.size() || object[i] != ',') return out;
    ++i;
  }
}

// The actions of a delta's legal list as object texts (PROTOCOL.md, "delta"): an array is the
// action with the member names of the nearest object before it, in their order, and the
// array's elements as their values. Nothing for a row with no object before it or of another
// length: the list cannot be read.
inline std::optional<std::vector<std::string>> expand_rows(std::string_view legal) {
  std::vector<std::string> out;
  std::vector<std::string_view> names;
  bool named = false;
  for (const std::string_view action : elements(legal)) {
    if (action.starts_with('[')) {
      const std::vector<std::string_view> values = elements(action);
      if (!named || values.size() != names.size()) return std::nullopt;
      std::string object;
      object += '{';
      for (std::size_t i = 0; i < values.size(); ++i) {
        if (i > 0) object += ',';
        object += names[i];
        object += ':';
        object += values[i];
      }
      object += '}';
      out.push_back(std::move(object));
      continue;
    }
    if (action.starts_with('{')) {
      names = member_names(action);
      named = true;
    }
    out.emplace_back(action);
  }
  return out;
}

}  // namespace campfire::load
