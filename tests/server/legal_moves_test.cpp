// Each seat's choices per change: computed once per version however often they are asked for,
// computed again at the next version, and exactly the engine's legal actions with their words.
#include "server/legal_moves.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "engine/core/registry.hpp"
#include "engine/core/rng.hpp"
#include "protocol/json_text.hpp"
#include "tests/engine/test_support.hpp"

namespace campfire::server::testing {
namespace {

class LegalMovesTest : public ::testing::Test {
 protected:
  const Game& game_ = *Registry::builtin().find("pinocchio");
  Match match_ = std::move(*Match::create(game_, 3, json::object(), 5));
  int labelled_ = 0;
  LegalMoves legal_{match_, [this](Seat seat, const Action& a) {
                      ++labelled_;
                      return "<" + match_.state().describe(seat, a) + ">";
                    }};

  // The seat that acts now (Pinocchio: one seat at a time).
  Seat acting() const {
    std::optional<Seat> seat;
    match_.state().to_act().for_each([&](Seat s) {
      if (!seat) seat = s;
    });
    return *seat;
  }
};

TEST_F(LegalMovesTest, ChoicesAreComputedOncePerVersion) {
  const Seat s = acting();
  const LegalMoves::Choices& first = legal_.of(s, 1);
  legal_.labels(s, 1);
  const int labels = labelled_;
  EXPECT_EQ(legal_.computed(), 1u);
  EXPECT_GT(labels, 0);
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(&legal_.of(s, 1), &first) << "the same choices, shared";
    EXPECT_EQ(legal_.labels(s, 1), first.labels_text);
  }
  EXPECT_EQ(legal_.computed(), 1u);
  EXPECT_EQ(labelled_, labels) << "no label is written twice";
  legal_.of((s + 1) % 3, 1);
  EXPECT_EQ(legal_.computed(), 2u) << "each seat's own, once";
  legal_.of((s + 1) % 3, 1);
  EXPECT_EQ(legal_.computed(), 2u);
}

TEST_F(LegalMovesTest, ANewVersionComputesThemAgain) {
  const Seat s = acting();
  const LegalMoves::Choices before = legal_.of(s, 1);
  ASSERT_FALSE(before.actions.empty());
  Events events;
  ASSERT_FALSE(match_.apply(s, before.actions.front(), events));
  ASSERT_NE(match_.state().legal_actions(s), before.actions) << "the move changed s's choices";
  const LegalMoves::Choices& after = legal_.of(s, 2);
  EXPECT_EQ(legal_.computed(), 2u);
  EXPECT_EQ(after.actions, match_.state().legal_actions(s));
  const Seat next = acting();
  EXPECT_EQ(legal_.of(next, 2).actions, match_.state().legal_actions(next));
}

TEST_F(LegalMovesTest, ASeatWhoseChoicesStayTheSameKeepsTheirTexts) {
  // Seats that may not act before or after a move have the same (empty) choices: their texts
  // are the very ones of the version before, so a patch sees them unchanged without comparing.
  std::vector<LegalMoves::Choices> before;
  for (Seat s = 0; s < 3; ++s) {
    legal_.labels(s, 1);
    before.push_back(legal_.of(s, 1));
  }
  const Seat s = acting();
  Events events;
  ASSERT_FALSE(match_.apply(s, before[static_cast<std::size_t>(s)].actions.front(), events));
  int kept = 0;
  for (Seat t = 0; t < 3; ++t) {
    SCOPED_TRACE(t);
    legal_.labels(t, 2);
    const LegalMoves::Choices& after = legal_.of(t, 2);
    const LegalMoves::Choices& was = before[static_cast<std::size_t>(t)];
    if (after.actions == was.actions) {
      EXPECT_EQ(after.text, was.text);
      EXPECT_EQ(after.hash, was.hash);
      if (*after.labels_text == *was.labels_text) {
        EXPECT_EQ(after.labels_text, was.labels_text);
        ++kept;
      }
    } else {
      EXPECT_NE(*after.text, *was.text);
    }
  }
  EXPECT_GT(kept, 0) << "some seat could act neither before nor after";
}

TEST_F(LegalMovesTest, ChoicesAreTheEnginesLegalActionsWithTheirWords) {
  for (Seat s = 0; s < 3; ++s) {
    SCOPED_TRACE(s);
    legal_.labels(s, 7);
    const LegalMoves::Choices& c = legal_.of(s, 7);
    const std::vector<Action> engine = match_.state().legal_actions(s);
    EXPECT_EQ(c.actions, engine);
    json actions = json::array();
    json labels = json::array();
    for (const Action& a : engine) {
      actions.push_back(game_.action_to_json(a));
      labels.push_back("<" + match_.state().describe(s, a) + ">");
    }
    EXPECT_EQ(*c.text, actions.dump());
    EXPECT_EQ(*c.labels_text, labels.dump());
    EXPECT_EQ(c.hash, std::hash<std::string>{}(*c.text));
  }
  // And again after moves, with the action texts written once and taken from the room's cache.
  Events events;
  for (long long version = 8; version < 40 && !match_.state().over(); ++version) {
    if (match_.state().to_act().empty()) break;  // a window only its clock closes
    const Seat s = acting();
    ASSERT_FALSE(match_.apply(s, legal_.of(s, version - 1).actions.back(), events));
    for (Seat t = 0; t < 3; ++t) {
      legal_.labels(t, version);
      const LegalMoves::Choices& c = legal_.of(t, version);
      json actions = json::array();
      json labels = json::array();
      for (const Action& a : match_.state().legal_actions(t)) {
        actions.push_back(game_.action_to_json(a));
        labels.push_back("<" + match_.state().describe(t, a) + ">");
      }
      ASSERT_EQ(*c.text, actions.dump());
      ASSERT_EQ(*c.labels_text, labels.dump());
    }
  }
}

TEST_F(LegalMovesTest, ActionsLetGoOfComeBackAndTheTextsStay) {
  // A room lets go of the lists of actions once its frames are out; the texts stay, the actions
  // come back when asked for, and the next version still keeps the texts of a seat whose
  // choices did not change (now known by the text).
  std::vector<LegalMoves::Choices> before;
  for (Seat s = 0; s < 3; ++s) {
    legal_.labels(s, 1);
    before.push_back(legal_.of(s, 1));
  }
  legal_.let_go_of_actions();
  for (Seat s = 0; s < 3; ++s) {
    SCOPED_TRACE(s);
    const LegalMoves::Choices& c = legal_.of(s, 1);
    EXPECT_TRUE(c.actions.empty());
    EXPECT_EQ(c.text, before[static_cast<std::size_t>(s)].text);
    EXPECT_EQ(c.labels_text, before[static_cast<std::size_t>(s)].labels_text);
    EXPECT_EQ(legal_.actions(s, 1), before[static_cast<std::size_t>(s)].actions);
  }
  EXPECT_EQ(legal_.computed(), 3u) << "texts are not written again for the same version";
  legal_.let_go_of_actions();
  const Seat s = acting();
  Events events;
  ASSERT_FALSE(match_.apply(s, before[static_cast<std::size_t>(s)].actions.front(), events));
  int kept = 0;
  for (Seat t = 0; t < 3; ++t) {
    SCOPED_TRACE(t);
    const LegalMoves::Choices& after = legal_.of(t, 2);
    const LegalMoves::Choices& was = before[static_cast<std::size_t>(t)];
    EXPECT_EQ(after.actions, match_.state().legal_actions(t));
    if (after.actions == was.actions) {
      EXPECT_EQ(after.text, was.text);
      EXPECT_EQ(after.hash, was.hash);
      ++kept;
    } else {
      EXPECT_NE(*after.text, *was.text);
    }
  }
  EXPECT_GT(kept, 0) << "some seat could act neither before nor after";
}

TEST_F(LegalMovesTest, WordsAreWrittenOnlyWhenAskedForAndNotKeptUnasked) {
  // Most programs read no words: their seats' choices come without any.
  const Seat s = acting();
  const LegalMoves::Choices& c = legal_.of(s, 1);
  ASSERT_FALSE(c.actions.empty());
  EXPECT_EQ(c.labels_text, nullptr);
  EXPECT_EQ(labelled_, 0);
  // A member who reads words asks after the actions were let go of: the words are those of the
  // actions, and the actions are not kept for them.
  legal_.let_go_of_actions();
  json words = json::array();
  for (const Action& a : match_.state().legal_actions(s)) {
    words.push_back("<" + match_.state().describe(s, a) + ">");
  }
  const auto labels = legal_.labels(s, 1);
  ASSERT_NE(labels, nullptr);
  EXPECT_EQ(*labels, words.dump());
  EXPECT_TRUE(legal_.of(s, 1).actions.empty());
  EXPECT_EQ(legal_.computed(), 1u);
  // The next version's words, asked for, keep the very text when they are the same; when nobody
  // asks for them before the room lets go, the words of the version before are not kept either.
  std::vector<std::shared_ptr<const std::string>> at_first;
  for (Seat t = 0; t < 3; ++t) at_first.push_back(legal_.labels(t, 1));
  Events events;
  ASSERT_FALSE(match_.apply(s, legal_.actions(s, 1).front(), events));
  std::optional<Seat> idle;
  for (Seat t = 0; t < 3; ++t) {
    if (t != s && !idle && match_.state().legal_actions(t).empty() &&
        *at_first[static_cast<std::size_t>(t)] == "[]") {
      idle = t;
    }
  }
  ASSERT_TRUE(idle) << "some seat could act neither before nor after";
  EXPECT_EQ(legal_.labels(*idle, 2), at_first[static_cast<std::size_t>(*idle)]);
  EXPECT_EQ(legal_.of(s, 2).labels_text, nullptr);
  legal_.let_go_of_actions();
  const int written = labelled_;
  json now = json::array();
  for (const Action& a : match_.state().legal_actions(s)) {
    now.push_back("<" + match_.state().describe(s, a) + ">");
  }
  EXPECT_EQ(*legal_.labels(s, 2), now.dump());
  EXPECT_EQ(labelled_ - written, static_cast<int>(now.size()));
}

// Whether every object in `j`, at any depth, has its member names in name order, none of them an
// array index (a browser lists such names first, whatever their place in the text).
bool names_in_order(const nlohmann::ordered_json& j) {
  if (j.is_array()) {
    return std::all_of(j.begin(), j.end(), [](const auto& e) { return names_in_order(e); });
  }
  if (!j.is_object()) return true;
  const std::string* last = nullptr;
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string& name = it.key();
    if (!name.empty() &&
        std::all_of(name.begin(), name.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      return false;
    }
    if (last != nullptr && !(*last < name)) return false;
    if (!names_in_order(it.value())) return false;
    last = &name;
  }
  return true;
}

// The actions a list of rows stands for (PROTOCOL.md, "delta"), read in the order the text has
// them; `mixed` counts objects after a list's first (the shape changed), `nested` rows holding
// an array or an object. Fails the test on an object that a row could have said.
nlohmann::ordered_json expand(const nlohmann::ordered_json& rows, int& mixed, int& nested) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  const nlohmann::ordered_json* named = nullptr;
  for (const auto& action : rows) {
    if (action.is_object()) {
      if (named != nullptr) {
        ++mixed;
        bool same = action.size() == named->size();
        for (auto a = action.begin(), b = named->begin(); same && a != action.end(); ++a, ++b) {
          same = a.key() == b.key();
        }
        EXPECT_FALSE(same) << "an object where a row would do: " << rows.dump();
      }
      named = &action;
      out.push_back(action);
      continue;
    }
    EXPECT_TRUE(action.is_array() && named != nullptr && action.size() == named->size())
        << rows.dump();
    if (!action.is_array() || named == nullptr || action.size() != named->size()) return out;
    nlohmann::ordered_json object = nlohmann::ordered_json::object();
    std::size_t i = 0;
    for (auto it = named->begin(); it != named->end(); ++it, ++i) {
      if (action[i].is_structured()) ++nested;
      object[it.key()] = action[i];
    }
    out.push_back(std::move(object));
  }
  return out;
}

// A delta carries a legal list as rows, which say an action by the order of its values: every
// game's actions are objects whose members (at every depth) come in name order, and the rows
// stand for exactly the actions of the list, an object coming only where the names change.
// Random games of every game, every seat's choices at every step.
TEST(LegalRows, EveryGamesActionsAreObjectsInNameOrderAndTheRowsStandForThem) {
  int mixed = 0;
  int nested = 0;
  int rows_written = 0;
  for (const Game* game : Registry::builtin().games()) {
    SCOPED_TRACE(game->info().id);
    const int seats = std::min(4, game->info().max_seats);
    for (int playout = 0; playout < campfire::testing::scaled(4); ++playout) {
      Match match = std::move(*Match::create(*game, seats, json::object(), 100 + playout));
      LegalMoves legal(match, [](Seat, const Action&) { return std::string(); });
      Rng rng(7 + playout);
      for (long long version = 1; version <= 400 && !match.state().over(); ++version) {
        for (Seat s = 0; s < seats; ++s) {
          const auto text = nlohmann::ordered_json::parse(*legal.of(s, version).text);
          for (const auto& action : text) {
            ASSERT_TRUE(action.is_object()) << action.dump();
            ASSERT_TRUE(names_in_order(action)) << action.dump();
          }
          const auto rows = nlohmann::ordered_json::parse(*legal.rows(s, version));
          for (const auto& row : rows) rows_written += row.is_array() ? 1 : 0;
          ASSERT_EQ(expand(rows, mixed, nested), text) << "rows " << rows.dump();
          if (!text.empty()) {
            ASSERT_TRUE(rows.front().is_object()) << rows.dump();
          }
        }
        legal.let_go_of_actions();
        if (!campfire::testing::random_step(match, rng)) break;
      }
    }
  }
  EXPECT_GT(rows_written, 0);
  EXPECT_GT(mixed, 0) << "some list mixes actions of different shapes";
  EXPECT_GT(nested, 0) << "some row holds an array or an object";
}

// Rows are written only when asked for, and let go of with the actions once the frames are out;
// asked for again, they are the same.
TEST_F(LegalMovesTest, RowsAreWrittenWhenAskedForAndLetGoOf) {
  const Seat s = acting();
  EXPECT_EQ(legal_.of(s, 1).rows_text, nullptr);
  const std::string rows = *legal_.rows(s, 1);
  EXPECT_LT(rows.size(), legal_.of(s, 1).text->size());
  EXPECT_EQ(legal_.rows(s, 1), legal_.of(s, 1).rows_text) << "written once per version";
  legal_.let_go_of_actions();
  EXPECT_EQ(legal_.of(s, 1).rows_text, nullptr);
  EXPECT_EQ(*legal_.rows(s, 1), rows);
  EXPECT_TRUE(legal_.of(s, 1).actions.empty()) << "the actions listed again are not kept";
}

}  // namespace
}  // namespace campfire::server::testing
