#include "protocol/merge_patch.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <iterator>
#include <random>
#include <set>
#include <string>

#include "engine/core/match.hpp"
#include "engine/pinocchio/pinocchio.hpp"

namespace campfire::protocol {
namespace {

using json = nlohmann::json;

// What applying `patch` to `before` gives, by the RFC's own algorithm (nlohmann's merge_patch).
json applied(const std::string& before, const std::string& patch) {
  json target = json::parse(before);
  target.merge_patch(json::parse(patch));
  return target;
}

std::string patch_of(const json& before, const json& after) {
  const auto patch = merge_patch(before.dump(), after.dump());
  EXPECT_TRUE(patch.has_value()) << before.dump() << " -> " << after.dump();
  return patch.value_or("");
}

TEST(MergePatch, EqualTextsNeedAnEmptyPatch) {
  const json state = {{"version", 3}, {"view", {{"pile", {1, 2}}, {"phase", "play"}}}};
  EXPECT_EQ(patch_of(state, state), "{}");
}

TEST(MergePatch, OnlyWhatChangedIsWritten) {
  const json before = {{"version", 3},
                       {"status", "playing"},
                       {"view", {{"phase", "play"}, {"stacks", {14, 15}}, {"box", 0}}}};
  json after = before;
  after["version"] = 4;
  after["view"]["stacks"] = {13, 15};
  after["view"]["box"] = 1;
  EXPECT_EQ(patch_of(before, after), R"({"version":4,"view":{"box":1,"stacks":[13,15]}})");
  EXPECT_EQ(applied(before.dump(), patch_of(before, after)), after);
}

TEST(MergePatch, AddedAndRemovedMembers) {
  const json before = {{"a", 1}, {"gone", "x"}, {"view", {{"old", true}, {"keep", 1}}}};
  const json after = {{"a", 1}, {"new", {{"deep", {1, nullptr}}}}, {"view", {{"keep", 1}}}};
  const std::string patch = patch_of(before, after);
  EXPECT_EQ(patch, R"({"new":{"deep":[1,null]},"view":{"old":null},"gone":null})");
  EXPECT_EQ(applied(before.dump(), patch), after);
}

TEST(MergePatch, ArraysAndScalarsAreReplacedWhole) {
  const json before = {{"pile", {{{"by", 0}}, {{"by", 1}}}}, {"x", {{"a", 1}}}};
  const json after = {{"pile", {{{"by", 0}}, {{"by", 2}}}}, {"x", 5}};
  const std::string patch = patch_of(before, after);
  EXPECT_EQ(patch, R"({"pile":[{"by":0},{"by":2}],"x":5})");
  EXPECT_EQ(applied(before.dump(), patch), after);
}

TEST(MergePatch, WhatAPatchCannotSayGivesNone) {
  // A member that becomes null: null in a patch removes the member instead.
  EXPECT_FALSE(merge_patch(R"({"window":{"id":3}})", R"({"window":null})"));
  // A scalar that becomes an object holding a null member: the null would be dropped.
  EXPECT_FALSE(merge_patch(R"({"turn":1})", R"({"turn":{"seats":null}})"));
  EXPECT_FALSE(merge_patch(R"({})", R"({"turn":{"a":{"b":null}}})"));
  // Not objects.
  EXPECT_FALSE(merge_patch("[1]", "[2]"));
  EXPECT_FALSE(merge_patch(R"({"a":1})", "null"));
  // A null inside an array is a value like any other.
  EXPECT_EQ(merge_patch(R"({"players":[null]})", R"({"players":[null,{"seat":1}]})"),
            R"({"players":[null,{"seat":1}]})");
  // An object that was an object already is patched member by member, and may keep its nulls.
  EXPECT_EQ(merge_patch(R"({"o":{"a":null,"b":1}})", R"({"o":{"a":null,"b":2}})"),
            R"({"o":{"b":2}})");
}

TEST(MergePatch, MalformedTextsGiveNone) {
  for (const char* bad : {"", "{", R"({"a")", R"({"a":})", R"({"a":1,})", R"({"a":[1}})",
                          R"({"a":"x)", R"({"a":1}x)", R"({a:1})"}) {
    EXPECT_FALSE(merge_patch(R"({"a":1})", bad)) << bad;
    EXPECT_FALSE(merge_patch(bad, R"({"a":1})")) << bad;
  }
}

TEST(MergePatch, SpacesAndEscapesAreRead) {
  const json before = {{"say", "a \"quoted\" {word}"}, {"k\"ey", {{"x", "]"}}}};
  json after = before;
  after["k\"ey"]["x"] = "}";
  EXPECT_EQ(applied(before.dump(2), merge_patch(before.dump(2), after.dump(2)).value()), after);
  EXPECT_EQ(merge_patch(before.dump(), after.dump()), R"({"k\"ey":{"x":"}"}})");
}

// A reference answer on trees: can a merge patch turn `before` into `after`?
bool holds_null_member(const json& object) {
  for (const auto& [key, value] : object.items()) {
    if (value.is_null() || (value.is_object() && holds_null_member(value))) return true;
  }
  return false;
}

bool expressible(const json& before, const json& after) {
  for (const auto& [key, value] : after.items()) {
    const auto was = before.find(key);
    if (was != before.end() && *was == value) continue;
    if (value.is_null()) return false;
    if (was != before.end() && was->is_object() && value.is_object()) {
      if (!expressible(*was, value)) return false;
    } else if (value.is_object() && holds_null_member(value)) {
      return false;
    }
  }
  return true;
}

class Shaker {
 public:
  explicit Shaker(unsigned seed) : rng_(seed) {}

  json value(int depth) {
    switch (pick(depth > 0 ? 8 : 5)) {
      case 0:
        return nullptr;
      case 1:
        return pick(2) == 1;
      case 2:
        return pick(1000) - 500;
      case 3:
        return kWords[pick(std::size(kWords))];
      case 4:
        return 0.5 * pick(9);
      case 5:
      case 6:
        return object(depth - 1);
      default: {
        json a = json::array();
        for (int i = pick(4); i > 0; --i) a.push_back(value(depth - 1));
        return a;
      }
    }
  }

  json object(int depth) {
    json o = json::object();
    for (int i = pick(5); i > 0; --i) o[kKeys[pick(std::size(kKeys))]] = value(depth);
    return o;
  }

  // `o` with some members changed, removed, added, and its objects changed the same way.
  json change(const json& o, int depth) {
    json out = json::object();
    for (const auto& [key, v] : o.items()) {
      const int roll = pick(10);
      if (roll == 0) continue;
      if (roll <= 2) {
        out[key] = value(depth);
      } else if (v.is_object() && roll <= 5) {
        out[key] = change(v, depth - 1);
      } else {
        out[key] = v;
      }
    }
    for (int i = pick(3); i > 0; --i) out[kKeys[pick(std::size(kKeys))]] = value(depth);
    return out;
  }

 private:
  static constexpr const char* kWords[] = {"", "play", "a\"b", "x\\y", "é", "{]", "\n"};
  static constexpr const char* kKeys[] = {"a", "b", "view", "pile", "k\"q", "ü", "turn"};

  int pick(std::size_t n) { return static_cast<int>(rng_() % n); }

  std::mt19937 rng_;
};

TEST(MergePatch, AppliedPatchesGiveTheNewTextAndOnlyImpossibleOnesAreRefused) {
  Shaker shaker(20261124);
  int patched = 0;
  int refused = 0;
  for (int i = 0; i < 4000; ++i) {
    const json before = shaker.object(3);
    const json after = shaker.change(before, 3);
    const auto patch = merge_patch(before.dump(), after.dump());
    ASSERT_EQ(patch.has_value(), expressible(before, after))
        << before.dump() << " -> " << after.dump();
    if (!patch) {
      ++refused;
      continue;
    }
    ++patched;
    ASSERT_EQ(applied(before.dump(), *patch), after) << before.dump() << " + " << *patch;
    ASSERT_LE(patch->size(), after.dump().size() + before.dump().size()) << *patch;
  }
  // Both outcomes must have been tried, or the loop proved little.
  EXPECT_GT(patched, 1000);
  EXPECT_GT(refused, 100);
}

// Pinocchio's view tells the pile by its size and its top claim, so the patch after a plain
// announce names the new claim and none said before it, however high the pile is.
TEST(MergePatch, PinocchioAnnouncePatchHoldsNoEarlierClaim) {
  auto made = Match::create(pinocchio::game(), 3, json::object(), 5);
  ASSERT_TRUE(made.ok());
  Match m = std::move(*made);
  std::string before;
  m.state().view_text(kSpectator, before);
  std::vector<std::string> claims;
  std::mt19937 pick(5);
  int announces = 0;
  while (!m.state().over()) {
    const Seat s = m.state().to_act().first();
    const auto legal = m.state().legal_actions(s);
    // Believe every claim and say any legal item: a pile of plain announces.
    Action a = legal[static_cast<std::size_t>(pick()) % legal.size()];
    for (const Action& x : legal) {
      if (x.kind == pinocchio::kBelieve) a = x;
    }
    Events events;
    ASSERT_FALSE(m.apply(s, a, events).has_value());
    std::string after;
    m.state().view_text(kSpectator, after);
    const auto patch = merge_patch(before, after);
    if (m.state().over()) break;  // `current` turns null: that state is sent whole
    ASSERT_TRUE(patch.has_value()) << before << " -> " << after;
    EXPECT_EQ(applied(before, *patch), json::parse(after));
    if (a.kind == pinocchio::kAnnounce) {
      ++announces;
      const json p = json::parse(*patch);
      const std::string said = pinocchio::item_code(static_cast<Card>(a.arg(0)));
      EXPECT_FALSE(p.contains("pile"));
      ASSERT_TRUE(p.contains("lastClaim")) << *patch;
      // The claim before it may come back as what this one had to match; older ones never.
      for (std::size_t i = 0; i + 1 < claims.size(); ++i) {
        if (claims[i] == said || claims[i] == claims.back()) continue;
        EXPECT_EQ(patch->find(claims[i]), std::string::npos)
            << "claim " << i << " is in the patch of claim " << claims.size() << ": " << *patch;
      }
      EXPECT_LT(patch->size(), 200u) << *patch;
      claims.push_back(said);
    }
    before = std::move(after);
  }
  EXPECT_EQ(announces, 45);
  EXPECT_GT(std::set<std::string>(claims.begin(), claims.end()).size(), 5u) << "varied claims";
}

}  // namespace
}  // namespace campfire::protocol

namespace campfire::protocol {
namespace {

// A patch assembled member by member, onto the patch of the members shared by every recipient,
// turns the member's state into its new state exactly as the patch of the whole texts does.
TEST(MergePatch, AMemberPatchAppendedToASharedPatchGivesTheNewState) {
  const std::string shared_before = R"({"players":[1,2],"status":"playing","version":3})";
  const std::string shared_after = R"({"players":[1,2],"status":"playing","version":4})";
  const std::string view_before = R"({"hand":[1,2,3],"pile":{"size":2,"top":"A"}})";
  const std::string view_after = R"({"hand":[1,3],"pile":{"size":3,"top":"A"}})";
  auto patch = merge_patch(shared_before, shared_after);
  ASSERT_TRUE(patch.has_value());
  std::string out = patch->substr(0, patch->size() - 1);
  bool first = out.size() == 1;
  ASSERT_TRUE(append_member_patch(out, first, "\"legal\"", "[]", "[]"));
  ASSERT_TRUE(append_member_patch(out, first, "\"view\"", view_before, view_after));
  out += '}';
  EXPECT_EQ(out, R"({"version":4,"view":{"hand":[1,3],"pile":{"size":3}}})");

  const auto whole = [](const std::string& shared, const std::string& view) {
    json j = json::parse(shared);
    j["legal"] = json::array();
    j["view"] = json::parse(view);
    return j.dump();
  };
  EXPECT_EQ(applied(whole(shared_before, view_before), out),
            json::parse(whole(shared_after, view_after)));

  // Nothing changed: nothing appended, and the object stays empty.
  std::string none = "{";
  bool none_first = true;
  ASSERT_TRUE(append_member_patch(none, none_first, "\"view\"", view_after, view_after));
  EXPECT_EQ(none + "}", "{}");
  // A member turning null cannot be said.
  std::string bad = "{";
  bool bad_first = true;
  EXPECT_FALSE(append_member_patch(bad, bad_first, "\"seat\"", "1", "null"));
  EXPECT_FALSE(append_member_patch(bad, bad_first, "\"view\"", "null", R"({"a":null})"));
}

// A member that may be absent on either side (the state's `result` until the game ends): one that
// appears is written whole, one that goes away is removed with null, one absent on both sides
// is left out.
TEST(MergePatch, AMemberThatAppearsOrGoesAwayIsWrittenWholeOrRemoved) {
  std::string out = "{";
  bool first = true;
  ASSERT_TRUE(append_member_change(out, first, "\"result\"", std::nullopt, R"({"places":[1,2]})"));
  ASSERT_TRUE(append_member_change(out, first, "\"window\"", R"({"id":3})", std::nullopt));
  ASSERT_TRUE(append_member_change(out, first, "\"turn\"", std::nullopt, std::nullopt));
  ASSERT_TRUE(append_member_change(out, first, "\"toAct\"", "[0]", "[1]"));
  out += '}';
  EXPECT_EQ(out, R"({"result":{"places":[1,2]},"window":null,"toAct":[1]})");
  EXPECT_EQ(applied(R"({"toAct":[0],"window":{"id":3}})", out),
            json::parse(R"({"result":{"places":[1,2]},"toAct":[1]})"));
  // An object that appears holding a null member cannot be said (the null would remove it).
  std::string bad = "{";
  bool bad_first = true;
  EXPECT_FALSE(append_member_change(bad, bad_first, "\"result\"", std::nullopt, R"({"a":null})"));
}

// Each level of nesting is compared in buffers of its own: a change deep inside, beside members
// that stay, gives a patch of that change alone, however deep; nesting past what a patch may hold
// gives none (the whole state is sent) rather than anything wrong.
TEST(MergePatch, DeeplyNestedChangesArePatchedLevelByLevel) {
  const auto nested = [](int depth, int leaf) {
    json j = {{"leaf", leaf}, {"null", nullptr}};
    for (int d = 0; d < depth; ++d) j = {{"a", std::move(j)}, {"b", d}, {"c", {{"d", d}}}};
    return j;
  };
  for (const int depth : {1, 2, 10, 40, 60}) {
    SCOPED_TRACE(depth);
    const json before = nested(depth, 1);
    const json after = nested(depth, 2);
    const std::string patch = patch_of(before, after);
    EXPECT_EQ(applied(before.dump(), patch), after);
    json expected = {{"leaf", 2}};
    for (int d = 0; d < depth; ++d) expected = {{"a", std::move(expected)}};
    EXPECT_EQ(patch, expected.dump());
  }
  for (const int depth : {63, 64, 80}) {
    SCOPED_TRACE(depth);
    const json before = nested(depth, 1);
    const json after = nested(depth, 2);
    const auto patch = merge_patch(before.dump(), after.dump());
    if (patch) {
      EXPECT_EQ(applied(before.dump(), *patch), after);
    }
  }
}

}  // namespace
}  // namespace campfire::protocol
