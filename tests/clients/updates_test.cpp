// Update frames as campfire-bot and campfire-cli read them: each `update` becomes the `event`
// messages and the `state` that used to come one by one, its state whole or merge-patched onto
// the last one held (a delta's legal list given by number taken from those numbered, one sent
// whole read back from its rows); a patch on another version, or a row that stands for no
// action, asks for a sync.
#include <gtest/gtest.h>

#include "clients/common/updates.hpp"

namespace campfire::client {
namespace {

json state11() {
  return json::parse(R"({"type": "state", "room": "K7QX2M", "version": 11, "status": "playing",
    "seat": 1, "toAct": [0], "view": {"phase": "play", "stacks": [3, 3], "yourCard": "red-hat"},
    "legal": [], "labels": []})");
}

json patch_update(long long version, long long base, json patch, json events = json::array()) {
  return {{"type", "update"}, {"room", "K7QX2M"}, {"version", version}, {"base", base},
          {"events", std::move(events)}, {"patch", std::move(patch)}};
}

json delta_update(long long version, json patch, json events = json::array()) {
  return {{"type", "update"}, {"room", "K7QX2M"}, {"version", version},
          {"events", std::move(events)}, {"patch", std::move(patch)}};
}

TEST(UpdateReader, HelloAsksForDeltas) {
  EXPECT_EQ(hello("Bella"), json::parse(R"({"type": "hello", "protocol": 1, "name": "Bella",
                                            "updates": "delta"})"));
  EXPECT_EQ(hello("Bot", false), json::parse(R"({"type": "hello", "protocol": 1, "name": "Bot",
                                                 "updates": "delta", "texts": false})"));
}

// A delta carries no base and no version in its patch; each legal list it sends whole is
// numbered from the last whole state on, and a later delta may name it by that number.
TEST(UpdateReader, DeltasFollowEachOtherAndNameLegalListsByNumber) {
  UpdateReader reader;
  json expected = state11();
  expected["legal"] = json::parse(R"([{"move": "pass"}, {"move": "bid"}])");
  expected["labels"] = json::parse(R"(["pass", "bid"])");
  ASSERT_EQ(reader.read(expected).messages, std::vector<json>{expected});  // list 0

  auto read = reader.read(delta_update(12, {{"toAct", {1}}, {"legal", json::array()},
                                            {"labels", json::array()}}));
  expected["version"] = 12;
  expected["toAct"] = {1};
  expected["legal"] = json::array();
  expected["labels"] = json::array();
  EXPECT_FALSE(read.sync);
  EXPECT_EQ(read.messages, std::vector<json>{expected});

  const json play = json::parse(R"([{"move": "play"}])");
  read = reader.read(delta_update(13, {{"legal", play}, {"labels", {"play"}}}));  // list 1
  expected["version"] = 13;
  expected["legal"] = play;
  expected["labels"] = {"play"};
  EXPECT_EQ(read.messages, std::vector<json>{expected});

  read = reader.read(delta_update(14, {{"legal", 0}}));
  expected["version"] = 14;
  expected["legal"] = json::parse(R"([{"move": "pass"}, {"move": "bid"}])");
  expected["labels"] = json::parse(R"(["pass", "bid"])");
  EXPECT_EQ(read.messages, std::vector<json>{expected});
  read = reader.read(delta_update(15, {{"legal", 1}}));
  expected["version"] = 15;
  expected["legal"] = play;
  expected["labels"] = {"play"};
  EXPECT_EQ(read.messages, std::vector<json>{expected});

  EXPECT_EQ(reader.read(delta_update(16, {{"legal", 2}})).sync, "K7QX2M")
      << "no list 2 was sent";
  reader.read(expected);
  EXPECT_EQ(reader.read(delta_update(17, json::object())).sync, "K7QX2M")
      << "a delta must follow the version held (15)";
}

TEST(UpdateReader, OnlyTheLastSixteenNumberedListsCanBeNamed) {
  UpdateReader reader;
  json state = state11();
  reader.read(state);
  for (int n = 0; n < 20; ++n) {
    const json list = json::array({{{"move", "bid"}, {"amount", n}}});
    ASSERT_FALSE(reader.read(delta_update(12 + n, {{"legal", list}})).sync);
  }
  // Lists 0 to 19 were numbered; 4 to 19 are remembered.
  auto read = reader.read(delta_update(32, {{"legal", 4}}));
  ASSERT_EQ(read.messages.size(), 1u);
  EXPECT_EQ(read.messages[0]["legal"][0]["amount"], 4);
  EXPECT_EQ(reader.read(delta_update(33, {{"legal", 3}})).sync, "K7QX2M");
}

// A delta's legal list sent whole comes as rows: an array is the action with the member names
// of the object before it, the array's elements their values in that order (values that are
// arrays themselves stay so). The list is read back before it is numbered.
TEST(UpdateReader, DeltasReadRowsBackAsTheActionsTheyStandFor) {
  UpdateReader reader;
  reader.read(state11());
  const json rows = json::parse(R"([{"card": "4C", "move": "respond"}, ["5C", "respond"],
    {"move": "pass"}, ["concede"], {"move": "place", "slots": [0, 2]}, ["place", [1]],
    ["place", []]])");
  const json actions = json::parse(R"([{"card": "4C", "move": "respond"},
    {"card": "5C", "move": "respond"}, {"move": "pass"}, {"move": "concede"},
    {"move": "place", "slots": [0, 2]}, {"move": "place", "slots": [1]},
    {"move": "place", "slots": []}])");
  auto read = reader.read(delta_update(12, {{"legal", rows}}));  // list 0 (the state had none)
  EXPECT_FALSE(read.sync);
  json expected = state11();
  expected["version"] = 12;
  expected["legal"] = actions;
  EXPECT_EQ(read.messages, std::vector<json>{expected});

  read = reader.read(delta_update(13, {{"legal", json::array()}}));
  ASSERT_EQ(read.messages.size(), 1u);
  read = reader.read(delta_update(14, {{"legal", 0}}));
  ASSERT_EQ(read.messages.size(), 1u);
  EXPECT_EQ(read.messages[0]["legal"], actions) << "a number gives back the actions";
}

// A row with no object before it, or not as long as that object, stands for no action: the
// state cannot be read, its events still count, and a sync is asked for.
TEST(UpdateReader, ARowThatStandsForNoActionAsksForASync) {
  for (const char* bad :
       {R"([["4C", "respond"]])", R"([{"card": "4C", "move": "respond"}, ["5C"]])",
        R"([{"move": "pass"}, ["pass", 1]])"}) {
    SCOPED_TRACE(bad);
    UpdateReader reader;
    reader.read(state11());
    const json event = {{"type", "drew"}};
    auto read = reader.read(delta_update(12, {{"legal", json::parse(bad)}}, json::array({event})));
    EXPECT_EQ(read.sync, "K7QX2M");
    const json as_event = {
        {"type", "event"}, {"room", "K7QX2M"}, {"version", 12}, {"event", event}};
    EXPECT_EQ(read.messages, std::vector<json>{as_event});
    EXPECT_FALSE(reader.read(delta_update(13, json::object())).sync) << "asked once";
  }
}

TEST(UpdateReader, AStateIsHandedOnAndIsTheBaseOfTheNextPatch) {
  UpdateReader reader;
  auto first = reader.read(state11());
  ASSERT_EQ(first.messages, std::vector<json>{state11()});
  EXPECT_FALSE(first.sync);

  const json event = {{"type", "announce"}, {"seat", 0}, {"text", "Andrea plays a card"}};
  auto read = reader.read(patch_update(
      12, 11,
      json::parse(R"({"version": 12, "toAct": [1], "view": {"stacks": [2, 3], "yourCard": null},
                      "legal": [{"move": "pass"}], "labels": ["pass"]})"),
      json::array({event})));
  EXPECT_FALSE(read.sync);
  json expected = state11();
  expected["version"] = 12;
  expected["toAct"] = json::parse("[1]");
  expected["view"] = json::parse(R"({"phase": "play", "stacks": [2, 3]})");
  expected["legal"] = json::parse(R"([{"move": "pass"}])");
  expected["labels"] = json::parse(R"(["pass"])");
  ASSERT_EQ(read.messages.size(), 2u);
  EXPECT_EQ(read.messages[0],
            json({{"type", "event"}, {"room", "K7QX2M"}, {"version", 12}, {"event", event}}));
  EXPECT_EQ(read.messages[1], expected);

  // The next patch applies to the state the last one made.
  auto next = reader.read(patch_update(13, 12, {{"version", 13}, {"toAct", json::array()}}));
  expected["version"] = 13;
  expected["toAct"] = json::array();
  EXPECT_EQ(next.messages, std::vector<json>{expected});
}

TEST(UpdateReader, AWholeStateInAnUpdateNeedsNoBase) {
  UpdateReader reader;
  json state = state11();
  const json update = {{"type", "update"}, {"room", "K7QX2M"}, {"version", 11},
                       {"events", json::array()}, {"state", state}};
  auto read = reader.read(update);
  EXPECT_FALSE(read.sync);
  EXPECT_EQ(read.messages, std::vector<json>{state});
  state["version"] = 12;
  EXPECT_EQ(reader.read(patch_update(12, 11, {{"version", 12}})).messages,
            std::vector<json>{state});
}

TEST(UpdateReader, APatchOnAnotherVersionAsksForOneSyncAndKeepsItsEvents) {
  UpdateReader reader;
  reader.read(state11());
  const json event = {{"type", "drew"}, {"text", "you drew"}};
  auto missed = reader.read(patch_update(14, 13, {{"version", 14}}, json::array({event})));
  EXPECT_EQ(missed.sync, "K7QX2M");
  const json as_event = {{"type", "event"}, {"room", "K7QX2M"}, {"version", 14}, {"event", event}};
  EXPECT_EQ(missed.messages, std::vector<json>{as_event});

  auto again = reader.read(patch_update(15, 14, {{"version", 15}}));
  EXPECT_FALSE(again.sync) << "the sync already asked for is not asked again";
  EXPECT_TRUE(again.messages.empty());

  json fresh = state11();
  fresh["version"] = 15;
  EXPECT_EQ(reader.read(fresh).messages, std::vector<json>{fresh});
  fresh["version"] = 16;
  EXPECT_EQ(reader.read(patch_update(16, 15, {{"version", 16}})).messages,
            std::vector<json>{fresh});
  EXPECT_EQ(reader.read(patch_update(18, 17, {{"version", 18}})).sync, "K7QX2M")
      << "after a full state the next miss asks again";
}

TEST(UpdateReader, APatchWithNoStateHeldAsksForASync) {
  UpdateReader reader;
  reader.read(state11());
  EXPECT_EQ(reader.read(patch_update(3, 2, json::object())).sync, "K7QX2M")
      << "the held state is version 11, not 2";
  reader.reset();
  EXPECT_EQ(reader.read(patch_update(12, 11, json::object())).sync, "K7QX2M")
      << "a new connection starts from nothing";
  json other = patch_update(3, 2, json::object());
  other["room"] = "OTHER2";
  EXPECT_EQ(reader.read(other).sync, "OTHER2");
}

TEST(UpdateReader, OtherMessagesPassUntouched) {
  UpdateReader reader;
  for (const json& m : {json::parse(R"({"type": "chat", "room": "K7QX2M", "text": "hi"})"),
                        json::parse(R"({"type": "game_over", "room": "K7QX2M", "result": {}})"),
                        json::parse(R"({"type": "ok", "id": 3, "version": 4})"),
                        json::parse(R"({"type": "welcome", "id": 1, "updates": "patch"})")}) {
    auto read = reader.read(m);
    EXPECT_EQ(read.messages, std::vector<json>{m});
    EXPECT_FALSE(read.sync);
  }
}

// RFC 7386 appendix A, through whole update frames: the held state's "a" member is the target.
TEST(UpdateReader, PatchesFollowTheMergePatchExamples) {
  const char* cases[][3] = {
      {R"({"a": "b"})", R"({"a": "c"})", R"({"a": "c"})"},
      {R"({"a": "b"})", R"({"b": "c"})", R"({"a": "b", "b": "c"})"},
      {R"({"a": "b"})", R"({"a": null})", R"({})"},
      {R"({"a": "b", "b": "c"})", R"({"a": null})", R"({"b": "c"})"},
      {R"({"a": ["b"]})", R"({"a": "c"})", R"({"a": "c"})"},
      {R"({"a": "c"})", R"({"a": ["b"]})", R"({"a": ["b"]})"},
      {R"({"a": {"b": "c"}})", R"({"a": {"b": "d", "c": null}})", R"({"a": {"b": "d"}})"},
      {R"({"a": [{"b": "c"}]})", R"({"a": [1]})", R"({"a": [1]})"},
      {R"({"e": null})", R"({"a": 1})", R"({"e": null, "a": 1})"},
      {R"({})", R"({"a": {"bb": {"ccc": null}}})", R"({"a": {"bb": {}}})"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(std::string(c[0]) + " + " + c[1]);
    UpdateReader reader;
    json state = state11();
    state["view"] = json::parse(c[0]);
    reader.read(state);
    auto read = reader.read(patch_update(12, 11, {{"version", 12}, {"view", json::parse(c[1])}}));
    ASSERT_EQ(read.messages.size(), 1u);
    EXPECT_EQ(read.messages[0]["view"], json::parse(c[2]));
  }
}

}  // namespace
}  // namespace campfire::client
