// Fuzzes the protocol decoder with whole client frames: decode, then every field reader and the
// name, chat and room-code cleaners over every field the frame has, then the error frame that
// would echo the request's id. Nothing may throw or crash; every result must keep its promise.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "protocol/messages.hpp"
#include "protocol/protocol.hpp"
#include "protocol/requests.hpp"
#include "tests/fuzz/fuzz_check.hpp"

namespace {

using campfire::protocol::json;
namespace protocol = campfire::protocol;

std::size_t code_points(const std::string& s) {
  std::size_t n = 0;
  for (char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

bool has_control(const std::string& s, bool allow_newlines) {
  for (unsigned char c : s) {
    if (allow_newlines && (c == '\n' || c == '\t')) continue;
    if (c < 0x20 || c == 0x7F) return true;
  }
  return false;
}

void check_name(const std::string& raw) {
  auto name = protocol::clean_name(raw);
  if (!name) {
    CAMPFIRE_FUZZ_CHECK(name.error().code == "bad_name", "code %s", name.error().code.c_str());
    return;
  }
  CAMPFIRE_FUZZ_CHECK(!name->empty() && code_points(*name) <= protocol::kMaxNameLength, "name '%s'",
                      name->c_str());
  CAMPFIRE_FUZZ_CHECK(!has_control(*name, false), "control character in a clean name");
  CAMPFIRE_FUZZ_CHECK(name->front() != ' ' && name->back() != ' ', "untrimmed name");
  CAMPFIRE_FUZZ_CHECK(protocol::clean_name(*name).ok() && *protocol::clean_name(*name) == *name,
                      "cleaning a clean name changed it");
}

void check_chat(const std::string& raw) {
  auto text = protocol::clean_chat(raw);
  if (!text) {
    CAMPFIRE_FUZZ_CHECK(text.error().code == "bad_chat", "code %s", text.error().code.c_str());
    return;
  }
  CAMPFIRE_FUZZ_CHECK(!text->empty() && code_points(*text) <= protocol::kMaxChatLength,
                      "chat of %zu code points", code_points(*text));
  CAMPFIRE_FUZZ_CHECK(!has_control(*text, true), "control character in clean chat");
}

void check_room_code(std::string_view raw) {
  auto code = protocol::normalize_room_code(raw);
  if (!code) return;
  CAMPFIRE_FUZZ_CHECK(code->size() == protocol::kRoomCodeLength, "room code length");
  for (char c : *code) {
    CAMPFIRE_FUZZ_CHECK(protocol::kRoomCodeAlphabet.find(c) != std::string_view::npos,
                        "room code character %d", c);
  }
  CAMPFIRE_FUZZ_CHECK(protocol::normalize_room_code(*code) == code, "not idempotent");
}

// The readers on one field; whatever they return must be what the field holds.
void check_field(const json& body, const std::string& key) {
  const char* k = key.c_str();
  const json& v = body.at(key);
  auto s = protocol::string_field(body, k, 24);
  CAMPFIRE_FUZZ_CHECK(s.ok() == (v.is_string() && code_points(v.get<std::string>()) <= 24 &&
                                 v.get<std::string>().size() <= 96),
                      "string_field on %s", v.dump().c_str());
  if (s) CAMPFIRE_FUZZ_CHECK(*s == v.get<std::string>(), "string_field changed the value");
  auto os = protocol::optional_string(body, k);
  CAMPFIRE_FUZZ_CHECK(os.has_value() == v.is_string(), "optional_string");

  auto i = protocol::int_field(body, k, -5, 1000);
  if (i) {
    CAMPFIRE_FUZZ_CHECK(v.is_number_integer() && *i >= -5 && *i <= 1000, "int_field on %s",
                        v.dump().c_str());
  } else {
    CAMPFIRE_FUZZ_CHECK(i.error().code == "bad_request", "int_field code");
  }
  auto wide = protocol::int_field(body, k, 0, 1ll << 53);
  if (wide) CAMPFIRE_FUZZ_CHECK(*wide >= 0 && *wide <= (1ll << 53), "wide int_field");
  auto oi = protocol::optional_int(body, k, 0, 15);
  if (oi && *oi) CAMPFIRE_FUZZ_CHECK(**oi >= 0 && **oi <= 15, "optional_int out of range");
  if (oi && !*oi) CAMPFIRE_FUZZ_CHECK(v.is_null(), "optional_int lost a value");
  auto ob = protocol::optional_bool(body, k, true);
  CAMPFIRE_FUZZ_CHECK(ob.ok() == (v.is_null() || v.is_boolean()), "optional_bool");

  if (v.is_string()) {
    const auto& str = v.get_ref<const std::string&>();
    check_name(str);
    check_chat(str);
    check_room_code(str);
    // Server messages quote what the client sent; they must always serialise.
    const std::string frame = protocol::error_frame(
        body.value("id", json()), protocol::ErrorCode::kBadRequest, "unknown value '" + str + "'");
    CAMPFIRE_FUZZ_CHECK(json::accept(frame), "error frame is not JSON: %s", frame.c_str());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view frame(reinterpret_cast<const char*>(data), size);
  json id;
  auto r = protocol::decode(frame, &id);
  // The cleaners also see raw bytes, which may not be UTF-8 at all.
  check_name(std::string(frame));
  check_chat(std::string(frame));
  check_room_code(frame);
  if (!r) {
    const auto& code = r.error().code;
    const auto known = protocol::parse_error_code(code);
    CAMPFIRE_FUZZ_CHECK(
        known == protocol::ErrorCode::kBadJson || known == protocol::ErrorCode::kBadRequest,
        "code %s", code.c_str());
    CAMPFIRE_FUZZ_CHECK(!r.error().message.empty(), "an error without words");
    CAMPFIRE_FUZZ_CHECK(id.is_null() || id.is_string() || id.is_number(), "id %s",
                        id.dump().c_str());
    const std::string frame_out = protocol::error_frame(id, r.error());
    CAMPFIRE_FUZZ_CHECK(json::accept(frame_out), "error frame is not JSON");
    return 0;
  }
  CAMPFIRE_FUZZ_CHECK(r->body.is_object(), "decoded body is not an object");
  CAMPFIRE_FUZZ_CHECK(r->body.at("type") == r->type, "type mismatch");
  CAMPFIRE_FUZZ_CHECK(r->id.is_null() || r->id.is_string() || r->id.is_number(), "bad id kind");
  CAMPFIRE_FUZZ_CHECK(r->id == id, "id_out differs from the request's id");
  for (const auto& [key, value] : r->body.items()) {
    // The server only looks fields up by fixed names; a key with a NUL byte cannot be one.
    if (key.find('\0') == std::string::npos) check_field(r->body, key);
  }
  json reply = protocol::message::with_id(protocol::message::pong(), r->id);
  CAMPFIRE_FUZZ_CHECK(json::accept(reply.dump()), "reply does not serialise");
  // A request is read into its typed value or refused with one of the codes a field's check
  // gives; one that is read is written back into a frame that reads as the same request.
  auto typed = protocol::parse_request(*r);
  if (!typed) {
    const auto known = protocol::parse_error_code(typed.error().code);
    CAMPFIRE_FUZZ_CHECK(known == protocol::ErrorCode::kBadRequest ||
                            known == protocol::ErrorCode::kBadProtocol ||
                            known == protocol::ErrorCode::kBadName ||
                            known == protocol::ErrorCode::kBadChat,
                        "typed refusal code %s", typed.error().code.c_str());
    CAMPFIRE_FUZZ_CHECK(!typed.error().message.empty(), "a typed refusal without words");
  } else {
    const json written = protocol::encode(*typed, r->id);
    auto reread = protocol::decode(written.dump());
    CAMPFIRE_FUZZ_CHECK(reread.ok(), "an encoded request does not decode");
    auto retyped = protocol::parse_request(*reread);
    CAMPFIRE_FUZZ_CHECK(retyped.ok() && protocol::encode(*retyped, r->id) == written,
                        "an encoded request does not read back the same");
  }
  // Decoding what a decoded body serialises to gives the same request.
  auto again = protocol::decode(r->body.dump());
  CAMPFIRE_FUZZ_CHECK(again.ok() && again->body == r->body, "re-decoding changed the request");
  return 0;
}
