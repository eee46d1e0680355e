#include "protocol/json_text.hpp"

#include <charconv>

namespace campfire::protocol {

namespace {

// True when `s` can be written between quotes as it is: printable ASCII other than '"' and '\'.
bool plain(std::string_view s) {
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c < 0x20 || c >= 0x80 || c == '"' || c == '\\') return false;
  }
  return true;
}

void append_string(std::string_view s, std::string& out) {
  if (plain(s)) {
    out += '"';
    out += s;
    out += '"';
  } else {
    out += json(std::string(s)).dump(-1, ' ', false, json::error_handler_t::replace);
  }
}

template <class Int>
void append_integer(Int v, std::string& out) {
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, r.ptr);
}

}  // namespace

void append_json(const json& j, std::string& out) {
  switch (j.type()) {
    case json::value_t::null:
      out += "null";
      return;
    case json::value_t::boolean:
      out += j.get_ref<const json::boolean_t&>() ? "true" : "false";
      return;
    case json::value_t::number_integer:
      append_integer(j.get_ref<const json::number_integer_t&>(), out);
      return;
    case json::value_t::number_unsigned:
      append_integer(j.get_ref<const json::number_unsigned_t&>(), out);
      return;
    case json::value_t::string:
      append_string(j.get_ref<const json::string_t&>(), out);
      return;
    case json::value_t::array: {
      out += '[';
      bool first = true;
      for (const json& e : j.get_ref<const json::array_t&>()) {
        if (!first) out += ',';
        first = false;
        append_json(e, out);
      }
      out += ']';
      return;
    }
    case json::value_t::object: {
      out += '{';
      bool first = true;
      for (const auto& [key, value] : j.get_ref<const json::object_t&>()) {
        if (!first) out += ',';
        first = false;
        append_string(key, out);
        out += ':';
        append_json(value, out);
      }
      out += '}';
      return;
    }
    case json::value_t::number_float:
    case json::value_t::binary:
    case json::value_t::discarded:
      out += j.dump(-1, ' ', false, json::error_handler_t::replace);
      return;
  }
}

void append_json_string(std::string_view s, std::string& out) {
  append_string(s, out);
}

std::string json_text(const json& j) {
  std::string out;
  out.reserve(256);
  append_json(j, out);
  return out;
}

}  // namespace campfire::protocol
