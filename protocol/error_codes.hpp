// The protocol's error codes (PROTOCOL.md, "error"), listed once in error_codes.def.
// Independent of the engine, so that any client can name and read them.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

namespace campfire::protocol {

enum class ErrorCode {
#define CAMPFIRE_ERROR_CODE(name, wire, meaning) name,
#include "protocol/error_codes.def"
#undef CAMPFIRE_ERROR_CODE
};

// Every code, in the order of error_codes.def (and of the table in PROTOCOL.md).
inline constexpr std::array kErrorCodes = {
#define CAMPFIRE_ERROR_CODE(name, wire, meaning) ErrorCode::name,
#include "protocol/error_codes.def"
#undef CAMPFIRE_ERROR_CODE
};

// The code as it is written in an error message's "code" field.
std::string_view to_string(ErrorCode code);
// What the code means, in the words of PROTOCOL.md's table.
std::string_view meaning(ErrorCode code);
// The code with that spelling, or nothing for a code this list does not have (a game's own
// refusal code, say).
std::optional<ErrorCode> parse_error_code(std::string_view wire);

}  // namespace campfire::protocol
