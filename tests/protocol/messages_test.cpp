// The server's messages: each reply as PROTOCOL.md shows it, and the frames written as text
// (state, event, update) byte for byte what dumping the same object gives.
#include "protocol/messages.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace campfire::protocol::message {
namespace {

TEST(Messages, RepliesCarryTheRequestsIdWhenItHadOne) {
  EXPECT_EQ(with_id(ok(), 7), json({{"type", "ok"}, {"id", 7}}));
  EXPECT_EQ(with_id(ok(), "a"), json({{"type", "ok"}, {"id", "a"}}));
  EXPECT_EQ(with_id(ok(), nullptr), json({{"type", "ok"}}));
}

TEST(Messages, RepliesHaveTheMembersProtocolMdShows) {
  EXPECT_EQ(welcome("campfire 0.1.0", "Ann", UpdateMode::kPatch, true),
            json({{"type", "welcome"},
                  {"protocol", 1},
                  {"server", "campfire 0.1.0"},
                  {"name", "Ann"},
                  {"updates", "patch"},
                  {"texts", true}}));
  EXPECT_EQ(pong(), json({{"type", "pong"}}));
  EXPECT_EQ(games(json::array({1})), json({{"type", "games"}, {"games", {1}}}));
  EXPECT_EQ(rooms(json::array()), json({{"type", "rooms"}, {"rooms", json::array()}}));
  EXPECT_EQ(created("K7QX2M"), json({{"type", "created"}, {"room", "K7QX2M"}}));
  EXPECT_EQ(joined("K7QX2M", 2, "tok"),
            json({{"type", "joined"}, {"room", "K7QX2M"}, {"seat", 2}, {"token", "tok"}}));
  EXPECT_EQ(spectating("K7QX2M"), json({{"type", "spectating"}, {"room", "K7QX2M"}}));
  EXPECT_EQ(left("K7QX2M"), json({{"type", "left"}, {"room", "K7QX2M"}}));
  EXPECT_EQ(ok_at(14), json({{"type", "ok"}, {"version", 14}}));
  EXPECT_EQ(ok_move(15, 9), json({{"type", "ok"}, {"version", 15}, {"move", 9}}));
  EXPECT_EQ(ok_history(3, json::array()),
            json({{"type", "ok"}, {"version", 3}, {"events", json::array()}}));
  EXPECT_EQ(chat("K7QX2M", std::nullopt, "Eve", "hi"),
            json({{"type", "chat"}, {"room", "K7QX2M"}, {"seat", nullptr}, {"name", "Eve"},
                  {"text", "hi"}}));
  EXPECT_EQ(chat("K7QX2M", 1, "Ann", "hi")["seat"], 1);
  EXPECT_EQ(notice("operator", "restart at noon"),
            json({{"type", "notice"}, {"reason", "operator"}, {"text", "restart at noon"}}));
  EXPECT_EQ(game_over("K7QX2M", {{"places", {1, 2}}}),
            json({{"type", "game_over"}, {"room", "K7QX2M"}, {"result", {{"places", {1, 2}}}}}));
  EXPECT_EQ(room_closed("K7QX2M", "closed"),
            json({{"type", "room_closed"}, {"room", "K7QX2M"}, {"reason", "closed"}}));
}

// The members given as text, as their dumps.
const json kFairness = {{"commitment", "ab"}, {"contributed", {0}}, {"fixed", false}};
const json kOptions = {{"startSeat", 0}};
const json kPlayers = json::array({{{"name", "Ann"}, {"seat", 0}}, nullptr});
const std::string kFairnessText = kFairness.dump();
const std::string kOptionsText = kOptions.dump();
const std::string kPlayersText = kPlayers.dump();

SharedState shared(bool over) {
  SharedState s;
  s.fairness = kFairnessText;
  s.game = "pinocchio";
  s.moves = 4;
  s.options = kOptionsText;
  s.players = kPlayersText;
  if (over) s.result = {{"places", {1, 2}}};
  s.room = "K7QX2M";
  s.status = over ? "over" : "playing";
  s.to_act = json::array({1});
  s.turn = nullptr;
  s.version = 9;
  s.window = nullptr;
  return s;
}

TEST(Messages, AStateFrameIsTheDumpOfTheWholeState) {
  for (const bool over : {false, true}) {
    const SharedState s = shared(over);
    const StateText text(s);
    const json labels = json::array({"believe", "challenge"});
    const json legal = json::array({{{"move", "believe"}}, {{"move", "challenge"}}});
    const json view = {{"box", 1}, {"pile", json::array()}};
    for (const int seat : {0, 1, -1}) {
      json whole = {{"type", "state"},     {"fairness", kFairness},
                    {"game", s.game},      {"labels", labels},
                    {"legal", legal},      {"moves", s.moves},
                    {"options", kOptions}, {"players", kPlayers},
                    {"room", s.room},      {"seat", seat >= 0 ? json(seat) : json(nullptr)},
                    {"status", s.status},  {"toAct", s.to_act},
                    {"turn", s.turn},      {"version", s.version},
                    {"view", view},        {"window", s.window}};
      if (over) whole["result"] = s.result;
      EXPECT_EQ(text.frame(seat, labels.dump(), legal.dump(), view.dump()), whole.dump());
    }
  }
}

TEST(Messages, EventAndUpdateFramesHoldWhatTheyWereGiven) {
  const std::string body = json({{"type", "announce"}, {"text", "Ann plays"}}).dump();
  EXPECT_EQ(event("K7QX2M", 5, body),
            json({{"type", "event"}, {"room", "K7QX2M"}, {"version", 5}, {"event", json::parse(body)}})
                .dump());
  const std::string other = json({{"type", "challenge"}}).dump();
  const std::vector<const std::string*> events = {&body, &other};
  const json state = {{"version", 6}};
  EXPECT_EQ(json::parse(update_with_state("K7QX2M", 6, events, state.dump())),
            json({{"type", "update"},
                  {"room", "K7QX2M"},
                  {"version", 6},
                  {"events", {json::parse(body), json::parse(other)}},
                  {"state", state}}));
  EXPECT_EQ(json::parse(update_with_patch("K7QX2M", 6, {}, 5, R"({"version":6})")),
            json({{"type", "update"},
                  {"room", "K7QX2M"},
                  {"version", 6},
                  {"events", json::array()},
                  {"base", 5},
                  {"patch", {{"version", 6}}}}));
}

}  // namespace
}  // namespace campfire::protocol::message
