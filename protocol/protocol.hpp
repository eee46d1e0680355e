// Protocol v1 (PROTOCOL.md): decoding client frames into requests, reading their fields with
// precise errors, and building the server's frames.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "engine/core/types.hpp"
#include "protocol/error_codes.hpp"

namespace campfire::protocol {

using json = nlohmann::json;

inline constexpr int kVersion = 1;
inline constexpr int kMaxDepth = 16;  // nesting deeper than any real request
inline constexpr std::size_t kMaxNameLength = 24;
inline constexpr std::size_t kMaxChatLength = 300;
inline constexpr std::size_t kRoomCodeLength = 6;
inline constexpr std::string_view kRoomCodeAlphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

// A decoded client frame: its type, its id (null when absent) and the whole object.
struct Request {
  std::string type;
  json id;
  json body;
};

// Parses one text frame. Refuses non-JSON, non-objects, nesting deeper than kMaxDepth (code
// bad_json) and a missing or non-string type or an id that is neither string nor number
// (bad_request). The id is recovered whenever the frame is an object, so errors can echo it.
Expected<Request> decode(std::string_view frame, json* id_out = nullptr);

// Field readers: each returns the value or a bad_request error naming the field.
Expected<std::string> string_field(const json& body, const char* key, std::size_t max_length);
std::optional<std::string> optional_string(const json& body, const char* key);
Expected<long long> int_field(const json& body, const char* key, long long min, long long max);
Expected<std::optional<long long>> optional_int(const json& body, const char* key, long long min,
                                                long long max);
Expected<bool> optional_bool(const json& body, const char* key, bool fallback);

// A display name: trimmed, 1..kMaxNameLength characters (UTF-8 code points), no control chars.
Expected<std::string> clean_name(const std::string& raw);
// Chat text: 1..kMaxChatLength code points after trimming, newlines and tabs allowed.
Expected<std::string> clean_chat(const std::string& raw);
// Upper-cases a room code and checks its alphabet and length.
std::optional<std::string> normalize_room_code(std::string_view code);

// An Error carrying one of the protocol's codes, as the readers above return them.
Error make_error(ErrorCode code, std::string message);

// Server frames. An error frame names one of the protocol's codes, or passes on the code of an
// Error as it is (one of the protocol's, or a game's own refusal code).
std::string error_frame(const json& id, ErrorCode code, std::string_view message);
std::string error_frame(const json& id, const Error& error);

}  // namespace campfire::protocol
