#include "protocol/protocol.hpp"

#include <algorithm>
#include <cctype>

namespace campfire::protocol {

namespace {

Error bad_request(std::string message) {
  return make_error(ErrorCode::kBadRequest, std::move(message));
}

// Counts UTF-8 code points; the JSON parser has already refused invalid UTF-8.
std::size_t code_points(const std::string& s) {
  return static_cast<std::size_t>(
      std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

std::string trim(const std::string& s) {
  const auto first = s.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return "";
  const auto last = s.find_last_not_of(" \t\r\n");
  return s.substr(first, last - first + 1);
}

}  // namespace

Expected<Request> decode(std::string_view frame, json* id_out) {
  json body;
  bool too_deep = false;
  try {
    // `depth` counts the containers around a value; an object or array about to open is reported
    // at the depth of its parent, so it would be one level deeper than that.
    body = json::parse(frame, [&](int depth, json::parse_event_t event, json&) {
      const bool opens =
          event == json::parse_event_t::object_start || event == json::parse_event_t::array_start;
      if (depth + (opens ? 1 : 0) > kMaxDepth) too_deep = true;
      return !too_deep;
    });
  } catch (const json::exception&) {
    return make_error(ErrorCode::kBadJson, "the frame is not valid JSON (UTF-8 text, one object)");
  }
  if (too_deep) return make_error(ErrorCode::kBadJson, "the JSON is nested too deeply");
  if (!body.is_object()) return make_error(ErrorCode::kBadJson, "a message is a JSON object");
  Request r;
  auto id = body.find("id");
  if (id != body.end()) {
    if (!id->is_string() && !id->is_number()) {
      return bad_request("\"id\" must be a string or a number");
    }
    if (id->is_string() && id->get_ref<const std::string&>().size() > 64) {
      return bad_request("\"id\" is longer than 64 characters");
    }
    r.id = *id;
    if (id_out != nullptr) *id_out = *id;
  }
  auto type = body.find("type");
  if (type == body.end() || !type->is_string()) {
    return bad_request("a message needs a \"type\" string");
  }
  r.type = type->get<std::string>();
  r.body = std::move(body);
  return r;
}

Expected<std::string> string_field(const json& body, const char* key, std::size_t max_length) {
  auto it = body.find(key);
  if (it == body.end()) return bad_request(std::string("missing \"") + key + "\"");
  if (!it->is_string()) return bad_request(std::string("\"") + key + "\" must be a string");
  const auto& s = it->get_ref<const std::string&>();
  if (s.size() > max_length * 4 || code_points(s) > max_length) {
    return bad_request(std::string("\"") + key + "\" is too long");
  }
  return s;
}

std::optional<std::string> optional_string(const json& body, const char* key) {
  auto it = body.find(key);
  if (it == body.end() || !it->is_string()) return std::nullopt;
  return it->get<std::string>();
}

Expected<long long> int_field(const json& body, const char* key, long long min, long long max) {
  auto it = body.find(key);
  if (it == body.end()) return bad_request(std::string("missing \"") + key + "\"");
  if (!it->is_number_integer()) {
    return bad_request(std::string("\"") + key + "\" must be a whole number");
  }
  const auto v = it->is_number_unsigned() && it->get<unsigned long long>() > 1ull << 62
                     ? max + 1
                     : it->get<long long>();
  if (v < min || v > max) {
    return bad_request(std::string("\"") + key + "\" must be between " + std::to_string(min) +
                       " and " + std::to_string(max));
  }
  return v;
}

Expected<std::optional<long long>> optional_int(const json& body, const char* key, long long min,
                                                long long max) {
  auto it = body.find(key);
  if (it == body.end() || it->is_null()) return std::optional<long long>();
  auto v = int_field(body, key, min, max);
  if (!v) return v.error();
  return std::optional<long long>(*v);
}

Expected<bool> optional_bool(const json& body, const char* key, bool fallback) {
  auto it = body.find(key);
  if (it == body.end() || it->is_null()) return fallback;
  if (!it->is_boolean()) return bad_request(std::string("\"") + key + "\" must be true or false");
  return it->get<bool>();
}

Expected<std::string> clean_name(const std::string& raw) {
  const std::string name = trim(raw);
  if (name.empty()) return make_error(ErrorCode::kBadName, "the name is empty");
  if (code_points(name) > kMaxNameLength) {
    return make_error(ErrorCode::kBadName,
                      "names are at most " + std::to_string(kMaxNameLength) + " characters");
  }
  for (unsigned char c : name) {
    if (c < 0x20 || c == 0x7F) {
      return make_error(ErrorCode::kBadName, "the name has control characters");
    }
  }
  return name;
}

Expected<std::string> clean_chat(const std::string& raw) {
  const std::string text = trim(raw);
  if (text.empty()) return make_error(ErrorCode::kBadChat, "the message is empty");
  if (code_points(text) > kMaxChatLength) {
    return make_error(ErrorCode::kBadChat, "chat messages are at most " +
                                               std::to_string(kMaxChatLength) + " characters");
  }
  for (unsigned char c : text) {
    if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7F) {
      return make_error(ErrorCode::kBadChat, "the message has control characters");
    }
  }
  return text;
}

std::optional<std::string> normalize_room_code(std::string_view code) {
  if (code.size() != kRoomCodeLength) return std::nullopt;
  std::string out;
  for (char c : code) {
    const char u = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (kRoomCodeAlphabet.find(u) == std::string_view::npos) return std::nullopt;
    out.push_back(u);
  }
  return out;
}

Error make_error(ErrorCode code, std::string message) {
  return Error{std::string(to_string(code)), std::move(message)};
}

namespace {

std::string error_frame_with(const json& id, std::string_view code, std::string_view message) {
  json j = {{"type", "error"}, {"code", code}, {"message", message}};
  if (!id.is_null()) j["id"] = id;
  return j.dump();
}

}  // namespace

std::string error_frame(const json& id, ErrorCode code, std::string_view message) {
  return error_frame_with(id, to_string(code), message);
}

std::string error_frame(const json& id, const Error& error) {
  return error_frame_with(id, error.code, error.message);
}

}  // namespace campfire::protocol
