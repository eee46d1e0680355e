// Protocol v1 codec: decoding frames and reading fields, with the error codes PROTOCOL.md lists.
#include <gtest/gtest.h>

#include "protocol/protocol.hpp"

namespace campfire::protocol {
namespace {

TEST(Decode, AcceptsAWellFormedRequest) {
  auto r = decode(R"({"type":"hello","id":7,"protocol":1,"name":"Bella"})");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->type, "hello");
  EXPECT_EQ(r->id, 7);
  EXPECT_EQ(r->body["name"], "Bella");
}

TEST(Decode, RefusesWhatIsNotAnObject) {
  for (const char* frame : {"", "nonsense", "[1,2]", "42", "\"hello\"", "{\"type\":", "null"}) {
    auto r = decode(frame);
    ASSERT_FALSE(r.ok()) << frame;
    EXPECT_EQ(r.error().code, "bad_json") << frame;
  }
}

TEST(Decode, RefusesMissingOrWrongType) {
  json id;
  auto r = decode(R"({"id":"a1"})", &id);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, "bad_request");
  EXPECT_EQ(id, "a1") << "the id is recovered so the error can echo it";
  EXPECT_EQ(decode(R"({"type":5})").error().code, "bad_request");
  EXPECT_EQ(decode(R"({"type":"ping","id":{"x":1}})").error().code, "bad_request");
  EXPECT_EQ(decode(R"({"type":"ping","id":")" + std::string(100, 'x') + "\"}").error().code,
            "bad_request");
}

TEST(Decode, RefusesDeepNesting) {
  std::string deep = R"({"type":"action","action":)";
  for (int i = 0; i < 100; ++i) deep += "[";
  for (int i = 0; i < 100; ++i) deep += "]";
  deep += "}";
  auto r = decode(deep);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, "bad_json");
  std::string very_deep(200000, '[');
  EXPECT_FALSE(decode(very_deep).ok());
}

// The page's limit is 16 levels, the message object being the first; an empty innermost array
// counts as a level like any other.
TEST(Decode, SixteenLevelsAreTheLimit) {
  const auto nested = [](int levels) {
    std::string s = R"({"type":"ping","x":)";
    for (int i = 1; i < levels; ++i) s += "[";
    for (int i = 1; i < levels; ++i) s += "]";
    return s + "}";
  };
  EXPECT_TRUE(decode(nested(16)).ok()) << nested(16);
  auto r = decode(nested(17));
  ASSERT_FALSE(r.ok()) << nested(17);
  EXPECT_EQ(r.error().code, "bad_json");
  EXPECT_FALSE(decode(R"({"type":"ping","x":{"a":[1,{"b":[[[[[[[[[[[[{}]]]]]]]]]]]]}]}})").ok());
}

TEST(Decode, RefusesInvalidUtf8) {
  const std::string frame = "{\"type\":\"chat\",\"text\":\"\xff\xfe\"}";
  auto r = decode(frame);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, "bad_json");
}

TEST(Fields, StringField) {
  const json body = {{"name", "Bella"}, {"n", 3}};
  EXPECT_EQ(*string_field(body, "name", 24), "Bella");
  EXPECT_EQ(string_field(body, "missing", 24).error().code, "bad_request");
  EXPECT_NE(string_field(body, "missing", 24).error().message.find("missing"), std::string::npos);
  EXPECT_EQ(string_field(body, "n", 24).error().code, "bad_request");
  EXPECT_EQ(string_field(body, "name", 3).error().code, "bad_request");
}

TEST(Fields, IntField) {
  const json body = {{"seats", 4}, {"big", 1ull << 63}, {"f", 1.5}, {"s", "4"}};
  EXPECT_EQ(*int_field(body, "seats", 1, 8), 4);
  EXPECT_FALSE(int_field(body, "seats", 5, 8).ok());
  EXPECT_FALSE(int_field(body, "big", 0, 1000).ok());
  EXPECT_FALSE(int_field(body, "f", 0, 10).ok());
  EXPECT_FALSE(int_field(body, "s", 0, 10).ok());
  EXPECT_FALSE(optional_int(body, "absent", 0, 1)->has_value());
  EXPECT_EQ(**optional_int(body, "seats", 0, 10), 4);
  EXPECT_TRUE(*optional_bool(json::object(), "x", true));
  EXPECT_FALSE(optional_bool({{"x", 1}}, "x", true).ok());
}

TEST(Names, AreTrimmedAndBounded) {
  EXPECT_EQ(*clean_name("  Bella  "), "Bella");
  EXPECT_EQ(*clean_name("Zoë 🔥"), "Zoë 🔥");
  EXPECT_EQ(clean_name("   ").error().code, "bad_name");
  EXPECT_EQ(clean_name(std::string(25, 'a')).error().code, "bad_name");
  EXPECT_TRUE(clean_name(std::string(24, 'a')).ok());
  EXPECT_EQ(clean_name("a\x01"
                       "b")
                .error()
                .code,
            "bad_name");
  EXPECT_EQ(clean_name("a\nb").error().code, "bad_name");
}

TEST(Chat, AllowsLinesRefusesControlAndLength) {
  EXPECT_EQ(*clean_chat(" hi\nthere "), "hi\nthere");
  EXPECT_EQ(clean_chat("").error().code, "bad_chat");
  EXPECT_EQ(clean_chat(std::string(301, 'x')).error().code, "bad_chat");
  EXPECT_EQ(clean_chat("a\x07").error().code, "bad_chat");
}

TEST(RoomCodes, NormalizeAndValidate) {
  EXPECT_EQ(*normalize_room_code("k7qx2m"), "K7QX2M");
  EXPECT_FALSE(normalize_room_code("K7QX2").has_value());
  EXPECT_FALSE(normalize_room_code("K7QX2MM").has_value());
  EXPECT_FALSE(normalize_room_code("K7QX0M").has_value()) << "0 is not in the alphabet";
  EXPECT_FALSE(normalize_room_code("K7QX1M").has_value()) << "1 is not in the alphabet";
}

TEST(Frames, ErrorEchoesId) {
  const json e = json::parse(error_frame(12, ErrorCode::kNotYourTurn, "it is not your turn"));
  EXPECT_EQ(e["type"], "error");
  EXPECT_EQ(e["id"], 12);
  EXPECT_EQ(e["code"], "not_your_turn");
  EXPECT_EQ(e["message"], "it is not your turn");
  EXPECT_FALSE(json::parse(error_frame(nullptr, ErrorCode::kBadJson, "x")).contains("id"));
}

TEST(Frames, ErrorFramesAreWrittenAsBefore) {
  // The exact bytes clients have always received.
  EXPECT_EQ(error_frame(7, ErrorCode::kHelloFirst, "send hello first"),
            R"({"code":"hello_first","id":7,"message":"send hello first","type":"error"})");
  // An Error passes its code on as it is, a game's own code too.
  EXPECT_EQ(error_frame("a", make_error(ErrorCode::kBadName, "the name is empty")),
            R"({"code":"bad_name","id":"a","message":"the name is empty","type":"error"})");
  EXPECT_EQ(error_frame(nullptr, Error{"must_match", "say a matching card"}),
            R"({"code":"must_match","message":"say a matching card","type":"error"})");
}

TEST(Frames, ReadersRefuseWithTheProtocolsCodes) {
  EXPECT_EQ(decode("[1]").error().code, to_string(ErrorCode::kBadJson));
  EXPECT_EQ(decode(R"({"id":1})").error().code, to_string(ErrorCode::kBadRequest));
  EXPECT_EQ(clean_name("").error().code, to_string(ErrorCode::kBadName));
  EXPECT_EQ(clean_chat("").error().code, to_string(ErrorCode::kBadChat));
}

}  // namespace
}  // namespace campfire::protocol
