// Serialises JSON exactly as nlohmann's dump() does (compact, keys in the object's order, UTF-8
// passed through, invalid UTF-8 replaced by U+FFFD) but faster on what the server sends most:
// strings that need no escaping are copied whole and integers are written with to_chars.
// Anything else (strings to escape, floating-point numbers, binary values) is left to nlohmann,
// so the text is always byte for byte the same.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace campfire::protocol {

using json = nlohmann::json;

// Appends the text of `j` to `out`.
void append_json(const json& j, std::string& out);
// Appends `s` as a JSON string, as dump() writes it.
void append_json_string(std::string_view s, std::string& out);
// The text of `j`: the same as j.dump(-1, ' ', false, json::error_handler_t::replace).
std::string json_text(const json& j);

}  // namespace campfire::protocol
