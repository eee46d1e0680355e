// How campfire-load reads a delta's legal list sent whole (PROTOCOL.md, "delta"): straight from
// the text, each row becomes the object text it stands for, ready to be sent back as an action;
// a row that stands for no action makes the list unreadable (the seat then asks for a sync).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "bench/load/json_scan.hpp"

namespace campfire::load {
namespace {

using json = nlohmann::json;

TEST(LoadRows, RowsBecomeTheObjectTextsTheyStandFor) {
  const auto actions = expand_rows(
      R"([{"card":"4C","move":"respond"},["5C","respond"],{"move":"pass"},["concede"],)"
      R"({"move":"place","slots":[0,2]},["place",[1]],["place",[]],{"a\"b":{"c":1}},[{"c":[2]}]])");
  ASSERT_TRUE(actions);
  const std::vector<std::string> expected = {R"({"card":"4C","move":"respond"})",
                                             R"({"card":"5C","move":"respond"})",
                                             R"({"move":"pass"})",
                                             R"({"move":"concede"})",
                                             R"({"move":"place","slots":[0,2]})",
                                             R"({"move":"place","slots":[1]})",
                                             R"({"move":"place","slots":[]})",
                                             R"({"a\"b":{"c":1}})",
                                             R"({"a\"b":{"c":[2]}})"};
  EXPECT_EQ(*actions, expected);
  for (const std::string& a : *actions) EXPECT_TRUE(json::accept(a)) << a;
  EXPECT_EQ(expand_rows("[]"), std::vector<std::string>());
}

TEST(LoadRows, ARowThatStandsForNoActionMakesTheListUnreadable) {
  EXPECT_FALSE(expand_rows(R"([["4C","respond"]])")) << "no object before it";
  EXPECT_FALSE(expand_rows(R"([{"card":"4C","move":"respond"},["5C"]])")) << "too short";
  EXPECT_FALSE(expand_rows(R"([{"move":"pass"},["pass",1]])")) << "too long";
}

}  // namespace
}  // namespace campfire::load
