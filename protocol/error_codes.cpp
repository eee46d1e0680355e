#include "protocol/error_codes.hpp"

namespace campfire::protocol {

std::string_view to_string(ErrorCode code) {
  switch (code) {
#define CAMPFIRE_ERROR_CODE(name, wire, meaning) \
  case ErrorCode::name:                          \
    return wire;
#include "protocol/error_codes.def"
#undef CAMPFIRE_ERROR_CODE
  }
  return "internal";  // not reached: every code has its case
}

std::string_view meaning(ErrorCode code) {
  switch (code) {
#define CAMPFIRE_ERROR_CODE(name, wire, meaning) \
  case ErrorCode::name:                          \
    return meaning;
#include "protocol/error_codes.def"
#undef CAMPFIRE_ERROR_CODE
  }
  return "";  // not reached: every code has its case
}

std::optional<ErrorCode> parse_error_code(std::string_view wire) {
  for (const ErrorCode code : kErrorCodes) {
    if (to_string(code) == wire) return code;
  }
  return std::nullopt;
}

}  // namespace campfire::protocol
