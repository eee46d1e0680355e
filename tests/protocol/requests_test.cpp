// The typed requests: every type read from its frame and written back the same, and each field's
// refusal with the code and words PROTOCOL.md gives.
#include "protocol/requests.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace campfire::protocol {
namespace {

Expected<ClientRequest> read(const json& frame) {
  auto r = decode(frame.dump());
  if (!r) return r.error();
  return parse_request(*r);
}

// A frame of every type, written as a client would, with every optional field set.
std::vector<json> every_type() {
  return {
      {{"type", "hello"}, {"protocol", 1}, {"name", "Ann"}, {"updates", "delta"}, {"texts", false}},
      {{"type", "ping"}},
      {{"type", "list_games"}},
      {{"type", "list_rooms"}},
      {{"type", "create_room"},
       {"game", "pinocchio"},
       {"seats", 3},
       {"options", {{"startSeat", 0}}},
       {"private", true},
       {"join", false},
       {"timers", {{"turnSeconds", 30}}},
       {"seed", 7},
       {"deckOrder", json::array({1, 2})}},
      {{"type", "join"}, {"room", "K7QX2M"}, {"seat", 2}},
      {{"type", "rejoin"}, {"room", "K7QX2M"}, {"token", "abc"}},
      {{"type", "spectate"}, {"room", "K7QX2M"}},
      {{"type", "leave"}, {"room", "K7QX2M"}},
      {{"type", "add_bot"}, {"room", "K7QX2M"}, {"seat", 1}, {"strategy", "expert"}},
      {{"type", "start"}, {"room", "K7QX2M"}},
      {{"type", "action"}, {"room", "K7QX2M"}, {"action", {{"move", "believe"}}}, {"version", 12}},
      {{"type", "chat"}, {"room", "K7QX2M"}, {"text", "hi"}},
      {{"type", "sync"}, {"room", "K7QX2M"}},
      {{"type", "history"}, {"room", "K7QX2M"}},
      {{"type", "contribute"}, {"room", "K7QX2M"}, {"entropy", "00112233445566778899aabbccddeeff"}},
  };
}

TEST(Requests, EveryTypeIsReadAndWrittenBackTheSame) {
  const auto frames = every_type();
  ASSERT_EQ(frames.size(), std::variant_size_v<ClientRequest>);
  std::vector<std::size_t> seen;
  for (const json& frame : frames) {
    auto r = read(frame);
    ASSERT_TRUE(r) << frame.dump() << ": " << r.error().message;
    EXPECT_EQ(type_name(*r), frame["type"].get<std::string>());
    EXPECT_EQ(encode(*r), frame);
    json with_id = frame;
    with_id["id"] = "x1";
    EXPECT_EQ(encode(*r, "x1"), with_id);
    seen.push_back(r->index());
  }
  // Each frame became a different alternative, so every alternative has its own name.
  std::sort(seen.begin(), seen.end());
  EXPECT_EQ(std::adjacent_find(seen.begin(), seen.end()), seen.end());
}

TEST(Requests, OptionalFieldsTakeTheirDefaults) {
  auto c = read({{"type", "create_room"}, {"game", "pinocchio"}, {"seats", 3}});
  ASSERT_TRUE(c);
  const auto& create = std::get<CreateRoom>(*c);
  EXPECT_TRUE(create.join);
  EXPECT_FALSE(create.is_private);
  EXPECT_EQ(create.options, json::object());
  EXPECT_TRUE(create.timers.is_null());
  EXPECT_TRUE(create.seed.is_null());
  auto h = read({{"type", "hello"}, {"protocol", 1}, {"name", "  Ann "}});
  ASSERT_TRUE(h);
  EXPECT_EQ(std::get<Hello>(*h).name, "Ann");
  EXPECT_EQ(std::get<Hello>(*h).updates, UpdateMode::kState);
  EXPECT_TRUE(std::get<Hello>(*h).texts);
  auto b = read({{"type", "add_bot"}, {"room", "K7QX2M"}});
  ASSERT_TRUE(b);
  EXPECT_FALSE(std::get<AddBot>(*b).seat);
  EXPECT_FALSE(std::get<AddBot>(*b).strategy);
  auto a = read({{"type", "action"}, {"room", "K7QX2M"}, {"action", json::object()}});
  ASSERT_TRUE(a);
  EXPECT_FALSE(std::get<Act>(*a).version);
  auto e = read({{"type", "contribute"}, {"room", "K7QX2M"}, {"entropy", "ABCDEF0123456789"}});
  ASSERT_TRUE(e);
  EXPECT_EQ(std::get<Contribute>(*e).entropy, "abcdef0123456789");
}

struct Refusal {
  json frame;
  ErrorCode code;
  std::string words;  // a part of the message
};

TEST(Requests, BadFieldsAreRefusedWithTheirCodeAndName) {
  const std::vector<Refusal> cases = {
      {{{"type", "dance"}}, ErrorCode::kBadRequest, "unknown message type 'dance'"},
      {{{"type", "hello"}, {"name", "Ann"}}, ErrorCode::kBadRequest, "protocol"},
      {{{"type", "hello"}, {"protocol", 2}, {"name", "Ann"}}, ErrorCode::kBadProtocol, "version 1"},
      {{{"type", "hello"}, {"protocol", 1}, {"name", " "}}, ErrorCode::kBadName, ""},
      {{{"type", "hello"}, {"protocol", 1}, {"name", "Ann"}, {"updates", "diff"}},
       ErrorCode::kBadRequest, "\"updates\" must be"},
      {{{"type", "hello"}, {"protocol", 1}, {"name", "Ann"}, {"texts", 0}},
       ErrorCode::kBadRequest, "texts"},
      {{{"type", "create_room"}, {"seats", 3}}, ErrorCode::kBadRequest, "game"},
      {{{"type", "create_room"}, {"game", "pinocchio"}, {"seats", "3"}}, ErrorCode::kBadRequest,
       "seats"},
      {{{"type", "create_room"}, {"game", "pinocchio"}, {"seats", 3}, {"private", 1}},
       ErrorCode::kBadRequest, "private"},
      {{{"type", "create_room"}, {"game", "pinocchio"}, {"seats", 3}, {"join", "no"}},
       ErrorCode::kBadRequest, "join"},
      {{{"type", "join"}}, ErrorCode::kBadRequest, "room"},
      {{{"type", "join"}, {"room", "K7QX2M"}, {"seat", 99}}, ErrorCode::kBadRequest, "seat"},
      {{{"type", "rejoin"}, {"room", "K7QX2M"}}, ErrorCode::kBadRequest, "token"},
      {{{"type", "start"}, {"room", 5}}, ErrorCode::kBadRequest, "room"},
      {{{"type", "action"}, {"room", "K7QX2M"}}, ErrorCode::kBadRequest, "\"action\" object"},
      {{{"type", "action"}, {"room", "K7QX2M"}, {"action", json::object()}, {"version", -1}},
       ErrorCode::kBadRequest, "version"},
      {{{"type", "chat"}, {"room", "K7QX2M"}, {"text", "   "}}, ErrorCode::kBadChat, "empty"},
      {{{"type", "contribute"}, {"room", "K7QX2M"}, {"entropy", "xyz"}}, ErrorCode::kBadRequest,
       "hex digits"},
      {{{"type", "contribute"}, {"room", "K7QX2M"}}, ErrorCode::kBadRequest, "entropy"},
  };
  for (const Refusal& c : cases) {
    auto r = read(c.frame);
    ASSERT_FALSE(r) << c.frame.dump();
    EXPECT_EQ(r.error().code, to_string(c.code)) << c.frame.dump() << ": " << r.error().message;
    EXPECT_NE(r.error().message.find(c.words), std::string::npos)
        << c.frame.dump() << ": " << r.error().message;
  }
}

TEST(Requests, UpdateModesAreSpelledAsHelloTakesThem) {
  for (const UpdateMode m :
       {UpdateMode::kState, UpdateMode::kCombined, UpdateMode::kPatch, UpdateMode::kDelta}) {
    auto h = read({{"type", "hello"}, {"protocol", 1}, {"name", "Ann"}, {"updates", to_string(m)}});
    ASSERT_TRUE(h);
    EXPECT_EQ(std::get<Hello>(*h).updates, m);
  }
}

}  // namespace
}  // namespace campfire::protocol
