// The terminal client's pieces that need no server: text widths, card faces, each game's table,
// the line mode's state text, the screen layout, Markdown pages and the create command.
#include <gtest/gtest.h>

#include <algorithm>

#include "clients/cli/cards.hpp"
#include "clients/cli/commands.hpp"
#include "clients/cli/markdown.hpp"
#include "clients/cli/render.hpp"
#include "clients/cli/screen.hpp"
#include "clients/cli/table.hpp"

namespace campfire::cli {
namespace {

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

json players() {
  return json::parse(R"([{"seat":0,"name":"Andrea","connected":true,"bot":false},
                         {"seat":1,"name":"Bella","connected":false,"bot":false},
                         {"seat":2,"name":"Bot 3","connected":true,"bot":true}])");
}

json state_of(const std::string& game, const json& view, int seat, json to_act = {0}) {
  return {{"type", "state"},
          {"room", "K7QX2M"},
          {"version", 14},
          {"game", game},
          {"status", "playing"},
          {"seat", seat < 0 ? json(nullptr) : json(seat)},
          {"players", players()},
          {"toAct", to_act},
          {"view", view},
          {"legal", json::array()},
          {"labels", json::array()},
          {"window", nullptr}};
}

std::string table_text(const json& state, int width, int height = 0,
                       const TableMemory* memory = nullptr) {
  const Lines lines = render_table(TableInput{state, width, height, memory});
  for (const Line& l : lines) EXPECT_LE(l.width(), width) << l.plain();
  return plain(lines);
}

TEST(Text, WidthsCountColumnsNotBytes) {
  EXPECT_EQ(display_width("7♠"), 2);
  EXPECT_EQ(display_width("10♥"), 3);
  EXPECT_EQ(display_width("名前"), 4);
  EXPECT_EQ(display_width("e\u0301"), 1);
  EXPECT_EQ(clip(std::string_view("Andrea the Great"), 8), "Andrea …");
  EXPECT_EQ(clip(std::string_view("名前名前"), 5), "名前…");
}

TEST(Text, WrapsAtSpacesAndKeepsStyles) {
  Line l("the card is ");
  l.add("Red Hat", styles::bad);
  l.add("!");
  const Lines parts = wrap(l, 14, 2);
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_EQ(parts[0].plain(), "the card is");
  EXPECT_EQ(parts[1].plain(), "  Red Hat!");
  EXPECT_EQ(parts[1].spans()[1].style, styles::bad);
  EXPECT_EQ(count(1, "card", "cards"), "1 card");
  EXPECT_EQ(count(0, "card", "cards"), "0 cards");
}

TEST(Cards, FrenchCardsHaveSuitSignsAndColours) {
  EXPECT_EQ(french_words("7S"), "7♠");
  EXPECT_EQ(french_words("TH"), "10♥");
  EXPECT_EQ(french_words("X2"), "Joker");
  EXPECT_EQ(french_style("QD").fg, Color::red);
  EXPECT_EQ(french_style("QC").fg, Color::none);
  EXPECT_EQ(pinocchio_words("blue-bow-tie"), "Blue Bow Tie");
  EXPECT_EQ(pinocchio_card("yellow-hat").spans()[0].style.fg, Color::yellow);
  EXPECT_EQ(card_back("3").plain(), "[3]");
}

TEST(Cards, TextsGetTheirCardsInColour) {
  const Line l = decorate("Bella plays 10♥ on 7♠, then says Red Hat");
  EXPECT_EQ(l.plain(), "Bella plays 10♥ on 7♠, then says Red Hat");
  const auto& spans = l.spans();
  const auto styled = [&](const std::string& text) {
    return std::find_if(spans.begin(), spans.end(), [&](const Span& s) { return s.text == text; });
  };
  ASSERT_NE(styled("10♥"), spans.end());
  EXPECT_EQ(styled("10♥")->style.fg, Color::red);
  ASSERT_NE(styled("Red Hat"), spans.end());
  EXPECT_EQ(styled("Red Hat")->style.fg, Color::red);
  // A number that is not a card stays as it is.
  EXPECT_EQ(decorate("run 10 (2-3)").spans().size(), 1u);
}

TEST(Tables, PinocchioShowsStacksNosesTheClaimOnTopAndYourCard) {
  const json view = json::parse(R"({"phase":"play","current":0,"stacks":[14,15,15],"box":1,
      "noses":[0,2,0],"pileSize":2,
      "lastClaim":{"by":1,"claim":"red-hat","free":false,"mustMatch":"red-bow-tie",
       "challengeable":true,"challenge":{"by":2,"revealed":"blue-hat","truthful":false}},
      "yourCard":"blue-trousers"})");
  const std::string out = table_text(state_of("pinocchio", view, 0), 80);
  EXPECT_TRUE(has(out, "pile 2 cards   box 1 card")) << out;
  EXPECT_TRUE(has(out, "Bella ·offline")) << out;
  EXPECT_TRUE(has(out, "Bot 3 ·bot")) << out;
  EXPECT_TRUE(has(out, "stack 15  nose 2")) << out;
  EXPECT_TRUE(has(out, "▸ Bella says Red Hat · Bot 3 called it: Blue Hat a lie!")) << out;
  EXPECT_FALSE(has(out, "Red Bow Tie")) << "the claim under it is not on the table\n" << out;
  EXPECT_TRUE(has(out, "next claim is free: any colour, any clothing"))
      << "a challenged claim needs no match\n" << out;
  EXPECT_TRUE(has(out, "your top card: Blue Trousers")) << out;
  // Your own seat is at the bottom, marked as the one to act.
  EXPECT_LT(out.find("Bella"), out.find("▶ Andrea (you)")) << out;
}

// The view shows only the claim on top; the table lists under it the latest claims the events
// told, when the newest it remembers is that claim.
TEST(Tables, PinocchioListsTheClaimsTheEventsTold) {
  TableMemory memory;
  const auto now = std::chrono::steady_clock::now();
  for (const char* e :
       {R"({"type":"announce","seat":2,"claim":"red-bow-tie","free":true,"challengeable":true})",
        R"({"type":"announce","seat":0,"claim":"red-hat","free":false,"challengeable":true})",
        R"({"type":"challenge","seat":1,"target":0,"claim":"red-hat","card":"blue-hat","truthful":false,"nose":0})",
        R"({"type":"announce","seat":1,"claim":"yellow-shoes","free":true,"challengeable":false})"}) {
    EXPECT_TRUE(memory.remember(json::parse(e), 0, now)) << e;
  }
  const json view = json::parse(R"({"phase":"play","current":2,"stacks":[13,13,14],"box":1,
      "noses":[1,0,0],"pileSize":3,
      "lastClaim":{"by":1,"claim":"yellow-shoes","free":true,"challengeable":false}})");
  const std::string out = table_text(state_of("pinocchio", view, 0), 80, 0, &memory);
  const auto first = out.find("Bot 3 says Red Bow Tie (free)");
  const auto second = out.find("Andrea says Red Hat · Bella called it: Blue Hat a lie!");
  const auto top = out.find("▸ Bella says Yellow Shoes (free) · no challenge");
  ASSERT_NE(first, std::string::npos) << out;
  ASSERT_NE(second, std::string::npos) << out;
  ASSERT_NE(top, std::string::npos) << out;
  EXPECT_LT(first, second) << out;
  EXPECT_LT(second, top) << out;
  EXPECT_TRUE(has(out, "next claim matches Yellow Shoes in colour or clothing")) << out;
  // A memory whose newest claim is not the one on top (another table, a missed event) is not
  // shown.
  json other = view;
  other["lastClaim"]["claim"] = "blue-shoes";
  const std::string alone = table_text(state_of("pinocchio", other, 0), 80, 0, &memory);
  EXPECT_FALSE(has(alone, "Red Bow Tie")) << alone;
  EXPECT_TRUE(has(alone, "▸ Bella says Blue Shoes")) << alone;
}

// The other seats sit clockwise from your left: seat 2 (Bella) before seat 3 (Bot 3), and when
// you sit in seat 2, Bot 3 comes first and Andrea after.
TEST(Tables, SeatsGoClockwiseFromYourLeft) {
  const json view = json::parse(R"({"phase":"play","stacks":[1,1,1],"noses":[0,0,0],"pileSize":0})");
  const std::string first = table_text(state_of("pinocchio", view, 0), 80);
  EXPECT_LT(first.find("Bella"), first.find("Bot 3")) << first;
  const std::string second = table_text(state_of("pinocchio", view, 1), 80);
  EXPECT_LT(second.find("Bot 3"), second.find("Andrea")) << second;
  EXPECT_LT(second.find("Andrea"), second.find("Bella (you)")) << second;
}

// Fib-Fibonacci's runs carry the numbers the moves use, from 1 ("run 2 (2-3-5)").
TEST(Tables, FibFibonacciNamesRunsAsTheMovesDo) {
  const json view = json::parse(R"({
    "bases": [{"caps": null, "card": "X2", "role": "joker"}],
    "columns": [{"A": [0], "B": [1], "base": 0}],
    "drawPile": 3, "hand": ["7C", "X1"], "handCounts": [2, 6], "phase": "turn", "turn": 9,
    "turnLimit": 500,
    "runs": [{"base": 0, "cards": ["2C", "5H"], "closed": false, "next": 7, "opening": "A",
              "values": [2, 5]},
             {"base": 0, "cards": ["2H", "3H", "5D"], "closed": true, "opening": "B",
              "values": [2, 3, 5]}],
    "sideArea": ["4D"], "pairChance": null})");
  const std::string out = table_text(state_of("fib-fibonacci", view, 0), 80);
  EXPECT_TRUE(has(out, "Joker base")) << out;
  EXPECT_TRUE(has(out, "A  run 1 (2-5)  2♣  5♥   next 7")) << out;
  EXPECT_TRUE(has(out, "B  run 2 (2-3-5)  2♥  3♥  5♦   closed")) << out;
  EXPECT_TRUE(has(out, "side area  4♦")) << out;
  EXPECT_TRUE(has(out, "your hand  7♣  Joker")) << out;
  EXPECT_TRUE(has(out, "hand 6")) << out;
  EXPECT_TRUE(has(out, "draw pile 3   turn 9/500")) << out;
}

TEST(Tables, NakedGibbonShowsLimbsBurnmarksAndTheFire) {
  const json view = json::parse(R"({"phase":"main","round":1,"fireNumber":9,"deck":20,"discard":4,
    "burnLimit":3,"handCounts":[3,2,3],"hat":1,"out":[false,false,false],"losses":[0,0,0],
    "burnmarks":[0,1,0],"table":[[null,null,null],["7S",null,"9H"],[null,null,null]],
    "burned":[[false,false,false],[false,true,false],[false,false,false]],
    "fire":[{"by":2,"jump":"back-flip","before":8,"after":9},
            {"by":1,"jump":"hands-up","before":5,"after":8,"card":"8S"}],
    "hand":["3H","4S","AC"]})");
  const std::string out = table_text(state_of("naked-gibbon", view, 0), 80);
  EXPECT_TRUE(has(out, "Bella ·offline monkey hat")) << out;
  EXPECT_TRUE(has(out, "burnmarks 1/3")) << out;
  EXPECT_TRUE(has(out, "1 7♠   2 ·· ✗  3 9♥")) << out;
  EXPECT_TRUE(has(out, "fire number  9")) << out;
  EXPECT_TRUE(has(out, "Bot 3 back flip ░░░ fire 8→9")) << out;
  EXPECT_TRUE(has(out, "Bella hands up 8♠  fire 5→8")) << out;
  EXPECT_TRUE(has(out, "your hand  3♥  4♠  A♣")) << out;
  EXPECT_FALSE(has(out, "[[")) << out;
}

TEST(Tables, SpiderMonkeyShowsSlotsAndWhatYouJustSaw) {
  const json view = json::parse(R"({"phase":"slap-window","round":1,"dealer":2,"current":0,
    "lines":[[0,1,2,3],[0,1,2,3],[0,1,2,3,4]],"stock":30,"discard":["7S","7H"],"caller":null,
    "finalTurnsLeft":0,"turns":3,"slapRanks":["7"],"slapDone":[1],"lastTurn":null,
    "lastRound":null})");
  const json state = state_of("spider-monkey", view, 0, {0, 2});
  TableMemory memory;
  const auto now = std::chrono::steady_clock::now();
  EXPECT_TRUE(
      memory.remember(json::parse(R"({"type":"peek","slots":[1,3],"cards":["KD","2C"]})"), 0, now));
  const std::string shown = table_text(state, 80, 0, &memory);
  EXPECT_TRUE(has(shown, "[1] 2:K♦  [3] 4:2♣")) << shown;
  EXPECT_TRUE(has(shown, "SLAP!  cards of rank 7 may go onto the pile")) << shown;
  EXPECT_TRUE(has(shown, "discard 7♥  (2 cards)")) << shown;
  EXPECT_TRUE(has(shown, "Bella ·offline done slapping")) << shown;
  EXPECT_TRUE(has(shown, "Bot 3 ·bot dealer")) << shown;
  EXPECT_TRUE(has(shown, "[1] [2] [3] [4] [5]")) << shown;
  // After a few seconds the cards are the player's memory's business again.
  EXPECT_TRUE(memory.forget(now + std::chrono::seconds(6)));
  const std::string later = table_text(state, 80, 0, &memory);
  EXPECT_TRUE(has(later, "[1] [2] [3] [4]\n")) << later;
  EXPECT_FALSE(has(later, "K♦")) << later;
}

// A seat's line too long for its box wraps inside the box rather than losing cards.
TEST(Tables, ALongLineOfCardsWrapsInsideItsSeat) {
  const json view = json::parse(R"({"phase":"over","round":1,"dealer":2,"current":null,
    "lines":[[0,1,2,3],[0,1,2,3,4,5,6,7],[0,1,2,3]],"stock":30,"discard":["7S"],"caller":0,
    "revealed":[["2S","7S","8C","KH"],["5S","AC","2D","8C","9D","JH","4S","3C"],
                ["9S","QD","AS","KC"]],"finalTurnsLeft":0,"turns":3,"lastTurn":null,
    "lastRound":null})");
  const std::string out = table_text(state_of("spider-monkey", view, 0, json::array()), 80);
  for (const char* card : {"5♠", "A♣", "2♦", "8♣", "9♦", "J♥", "4♠", "3♣", "9♠", "Q♦", "K♣"}) {
    EXPECT_TRUE(has(out, card)) << card << "\n" << out;
  }
  EXPECT_FALSE(has(out, "…")) << out;
}

// At 80 columns with four seats each box is narrow: a seat's tags wrap under its name instead
// of being cut off ("Bot 3 ·bot dealer has…").
TEST(Tables, ASeatsTagsWrapInsideANarrowBox) {
  const json view = json::parse(R"({"phase":"peek","round":1,"dealer":2,"current":null,
    "lines":[[0,1,2,3],[0,1,2,3],[0,1,2,3],[0,1,2,3]],"stock":30,"discard":[],"caller":null,
    "finalTurnsLeft":0,"turns":0,"peeked":[1,2,3],"lastTurn":null,"lastRound":null})");
  json state = state_of("spider-monkey", view, 0, {0});
  state["players"].push_back({{"seat", 3}, {"name", "Dora"}, {"connected", true}, {"bot", false}});
  const std::string out = table_text(state, 80, 24);
  EXPECT_FALSE(has(out, "…")) << out;
  EXPECT_TRUE(has(out, "Bot 3 ·bot dealer")) << out;
  // Each of the three other seats has looked; the words may wrap onto the next line.
  std::size_t looked = 0;
  for (auto at = out.find("looked"); at != std::string::npos; at = out.find("looked", at + 1)) {
    ++looked;
  }
  EXPECT_EQ(looked, 3u) << out;
}

TEST(Tables, TrickyTribesShowsTheTrickTheLastTrickAndStacks) {
  const json view = json::parse(R"({"phase":"respond","round":2,"trick":3,"tricksPerRound":9,
    "dealer":1,"dummy":false,"handCounts":[7,6,6],"deck":10,"hiddenDiscards":3,
    "hand":["5D","9D","TH"],"leader":2,"next":0,"forcedOpen":false,
    "currentTrick":{"open":true,"by":[2],"cards":["QH"]},
    "lastTrick":{"kind":"dark","by":[1,2,0],"cards":["KS","3C","9H"],"collected":["9H"],
                 "winner":1,"loser":null,"collector":1},
    "stacks":[["2H"],["9H","JH"],[]],"stackPoints":[1,3,0],"totals":[4,9,0],"discards":[],
    "endMode":"target","target":15})");
  const std::string out = table_text(state_of("tricky-tribes", view, 0), 80);
  EXPECT_TRUE(has(out, "round 2   trick 3 of 9   target 15   deck 10")) << out;
  EXPECT_TRUE(has(out, "trick (open)  Bot 3 Q♥")) << out;
  EXPECT_TRUE(has(out, "last trick (dark)  Bella K♠   Bot 3 3♣   Andrea 9♥")) << out;
  EXPECT_TRUE(has(out, "→ Bella collects 9♥")) << out;
  EXPECT_TRUE(has(out, "stack +3 9♥  J♥")) << out;
  EXPECT_TRUE(has(out, "hand 6  total 9")) << out;
  EXPECT_TRUE(has(out, "your hand  5♦  9♦  10♥")) << out;
}

// With rows to spare the hand is drawn as large cards; in a small terminal on one line.
TEST(Tables, ARoomyTerminalDrawsYourHandLarge) {
  const json view = json::parse(R"({"phase":"respond","round":1,"trick":1,"tricksPerRound":9,
    "handCounts":[3,9,9],"deck":10,"hand":["5D","TH","X1"],"stacks":[[],[],[]],
    "stackPoints":[0,0,0],"totals":[0,0,0],"endMode":"target","target":15})");
  const json state = state_of("tricky-tribes", view, 0);
  const std::string big = table_text(state, 100, 36);
  EXPECT_TRUE(has(big, "┌───┐┌───┐┌───┐")) << big;
  EXPECT_TRUE(has(big, "│5♦ ││10♥││JOK│")) << big;
  const std::string small = table_text(state, 100, 20);
  EXPECT_FALSE(has(small, "┌")) << small;
  EXPECT_TRUE(has(small, "your hand  5♦  10♥ Joker")) << small;
}

// A game added later needs no change here: its view reads as words, never as JSON.
TEST(Tables, UnknownGameReadsAsWordsNotJson) {
  const json view = json::parse(R"({"phase":"slap","table":["7S","7H"],"counts":[1,2],
    "handCounts":[3,4,5],"last":{"by":1,"card":"QC"},"flag":true,"nothing":null})");
  const std::string out = table_text(state_of("marbles", view, -1, {1}), 80);
  EXPECT_TRUE(has(out, "phase: slap")) << out;
  EXPECT_TRUE(has(out, "table: 7♠  7♥")) << out;
  EXPECT_TRUE(has(out, "hand counts: 3 4 5")) << out;
  EXPECT_TRUE(has(out, "last: by 1, card Q♣")) << out;
  EXPECT_TRUE(has(out, "flag: yes")) << out;
  for (const char* json_syntax : {"{\"", "[\"", "\":", "null", "true"}) {
    EXPECT_FALSE(has(out, json_syntax)) << json_syntax << "\n" << out;
  }
}

TEST(LineMode, StateNamesSeatsFromOne) {
  json state = {{"type", "state"},         {"room", "ABCDEF"},       {"version", 1},
                {"game", "pinocchio"},     {"status", "waiting"},    {"seat", 0},
                {"view", nullptr},         {"toAct", json::array()}, {"legal", json::array()},
                {"labels", json::array()}, {"window", nullptr}};
  state["players"] = json::array({players()[0], nullptr, players()[2]});
  const std::string out = render_state(state);
  EXPECT_TRUE(has(out, "you are seat 1")) << out;
  EXPECT_TRUE(has(out, "seat 1  Andrea (you)")) << out;
  EXPECT_TRUE(has(out, "seat 2  (free)")) << out;
  EXPECT_TRUE(has(out, "seat 3  Bot 3 [bot]")) << out;
}

TEST(LineMode, WindowsAndMovesInWords) {
  json state = state_of("spider-monkey", json::parse(R"({"phase":"peek","lines":[[0,1],[0,1],[0,1]],
      "stock":40,"discard":["4C"],"round":1,"turns":0,"peeked":[]})"),
                        -1, {1, 2});
  state["window"] = {{"id", 3}, {"name", "peek"}, {"seats", {0, 1, 2}}, {"remainingMs", 4870}};
  const std::string out = render_state(state);
  EXPECT_TRUE(has(out, "spectating")) << out;
  EXPECT_TRUE(has(out, "peek window for Andrea, Bella, Bot 3 closes in 4.9 s")) << out;
  EXPECT_TRUE(has(out, "waiting for Bella, Bot 3")) << out;
  EXPECT_FALSE(has(out, "your move")) << out;
}

TEST(LineMode, ResultNamesPlacesAndWinners) {
  const json result = json::parse(R"({"winners":[0,2],"losers":[1],"places":[1,3,1]})");
  const std::string out = render_result(result, players(), 1);
  EXPECT_TRUE(has(out, "places: Andrea 1, Bella 3, Bot 3 1")) << out;
  EXPECT_TRUE(has(out, "winners: Andrea, Bot 3")) << out;
  EXPECT_TRUE(has(out, "you did not win")) << out;
  EXPECT_TRUE(has(render_result(result, players(), 0), "you won!"));
}

TEST(Screen, EveryPartHasItsPlaceAt80x24) {
  const json view = json::parse(R"({"phase":"play","stacks":[14,15,15],"noses":[0,2,0],"box":0,
      "pileSize":1,"lastClaim":{"by":2,"claim":"red-bow-tie","free":true,"challengeable":true},
      "yourCard":"blue-trousers"})");
  json state = state_of("pinocchio", view, 0);
  state["turn"] = {{"seats", {0}}, {"remainingMs", 30000}};
  std::deque<Line> events{Line("• Bot 3 plays a card: \"Red Bow Tie\"")};
  std::deque<Line> chat{Line("Bella: nice bluff")};
  ScreenModel m;
  m.name = "Andrea";
  m.state = &state;
  m.game_name = "Pinocchio";
  m.moves = {"play your card as Red Hat", "play your card as Red Bow Tie",
             "play your card as Blue Bow Tie"};
  m.selected = 1;
  m.events = &events;
  m.chat = &chat;
  m.timer = Line("⏱ your turn: 30 s");
  m.input = "say hel";
  m.cursor = m.input.size();
  const Composed c = compose(m, 80, 24);
  const Frame& f = c.frame;
  EXPECT_TRUE(has(f.row(0), "Pinocchio │ room K7QX2M │ Andrea, seat 1")) << f.text();
  EXPECT_TRUE(has(f.row(0), "⏱ your turn: 30 s")) << f.text();
  EXPECT_EQ(f.row(23), "> say hel");
  EXPECT_EQ(c.cursor_y, 23);
  EXPECT_EQ(c.cursor_x, 9);
  const std::string text = f.text();
  EXPECT_TRUE(has(text, "your move: play your card as …")) << text;
  EXPECT_TRUE(has(text, "▶ 2. Red Bow Tie")) << text;
  EXPECT_TRUE(has(text, "events")) << text;
  EXPECT_TRUE(has(text, "Bella: nice bluff")) << text;
  EXPECT_TRUE(has(text, "your top card: Blue Trousers")) << text;
  // The events and chat are right of the table, never under it.
  for (int y = 1; y < 22; ++y) {
    const std::string row = f.row(y);
    const auto bar = row.find("│");
    if (has(row, "Bella: nice bluff")) {
      ASSERT_NE(bar, std::string::npos);
      EXPECT_GT(row.find("Bella: nice bluff"), bar);
    }
  }
}

TEST(Screen, TooSmallATerminalSaysSo) {
  ScreenModel m;
  const Composed c = compose(m, 50, 12);
  EXPECT_TRUE(has(c.frame.row(0), "at least 60x16")) << c.frame.text();
  EXPECT_EQ(c.frame.row(11), ">");
}

TEST(Markdown, HeadingsListsTablesAndEmphasisBecomeLines) {
  const std::string md =
      "# Pinocchio\n\nThe **aim**: get rid of your cards\nwithout a long nose.\n\n"
      "## A turn\n\n1. Believe or challenge.\n2. Play your card and say what it is, a very long "
      "sentence that has to wrap.\n\n- `startSeat`: who begins\n\n| Option | Default |\n|---|---|\n"
      "| startSeat | 0 |\n";
  const Lines lines = render_markdown(md, 40);
  const std::string out = plain(lines);
  EXPECT_TRUE(has(out, "Pinocchio\n\nThe aim: get rid of your cards without a\nlong nose.")) << out;
  EXPECT_TRUE(has(out, "1. Believe or challenge.")) << out;
  EXPECT_TRUE(has(out, "2. Play your card and say what it is, a\n   very long sentence")) << out;
  EXPECT_TRUE(has(out, "• startSeat: who begins")) << out;
  EXPECT_TRUE(has(out, "Option     Default")) << out;
  EXPECT_TRUE(has(out, "startSeat  0")) << out;
  EXPECT_FALSE(has(out, "**")) << out;
  EXPECT_FALSE(has(out, "|")) << out;
  for (const Line& l : lines) EXPECT_LE(l.width(), 40);
}

// A table too wide for the terminal turns into one block per row, its cells named.
TEST(Markdown, AWideTableReadsRowByRow) {
  const std::string md =
      "| Jump | Card | The fire becomes |\n|---|---|---|\n"
      "| Hands up | a hand card, not a heart, face up | its number |\n";
  const std::string out = plain(render_markdown(md, 30));
  EXPECT_TRUE(has(out,
                  "Hands up\n  Card: a hand card, not a\n    heart, face up\n  The fire becomes: "
                  "its number\n"))
      << out;
}

json games() {
  return json::parse(R"([{"id":"tricky-tribes","name":"Tricky Tribes","minSeats":2,"maxSeats":6,
      "options":[{"key":"jokers","type":"int","default":0,"min":0,"max":2},
                 {"key":"cutDeck","type":"bool","default":false},
                 {"key":"endMode","type":"choice","default":"target","choices":["target","fixedRounds","manual"]}]},
      {"id":"naked-gibbon","name":"Naked Gibbon","minSeats":2,"maxSeats":6,"options":[]}])");
}

TEST(Commands, CreateTakesOptionsAndTimers) {
  const auto p = parse_create(
      words("create tricky 4 JOKERS=2 cutdeck=yes endmode=FixedRounds turn=45 timeout=bot grace=2m "
            "takeover=no private"),
      games());
  ASSERT_TRUE(p.error.empty()) << p.error;
  EXPECT_EQ(p.message["game"], "tricky-tribes");
  EXPECT_EQ(p.message["seats"], 4);
  EXPECT_EQ(p.message["options"],
            json::parse(R"({"jokers":2,"cutDeck":true,"endMode":"fixedRounds"})"));
  EXPECT_EQ(p.message["timers"],
            json::parse(
                R"({"turnSeconds":45,"onTimeout":"bot","graceSeconds":120,"botTakeover":false})"));
  EXPECT_EQ(p.message["private"], true);
}

TEST(Commands, CreateExplainsWhatIsWrong) {
  EXPECT_TRUE(
      has(parse_create(words("create naked"), games()).error, "naked-gibbon takes 2 to 6 seats"));
  EXPECT_TRUE(has(parse_create(words("create naked-gibbon 3 turn=soon"), games()).error,
                  "turn= takes seconds"));
  EXPECT_TRUE(has(parse_create(words("create naked-gibbon 3 timeout=never"), games()).error,
                  "timeout= is default"));
  EXPECT_TRUE(has(parse_create(words("create naked-gibbon 3 takeover=maybe"), games()).error,
                  "takeover= is yes or no"));
  EXPECT_TRUE(has(parse_create(words("create naked-gibbon 3 jokers"), games()).error, "key=value"));
  // What the client cannot judge goes to the server as it was typed, for the server to answer.
  EXPECT_EQ(parse_create(words("create chess 2"), games()).message["game"], "chess");
  EXPECT_EQ(resolve_game("naked gibbon", games()), "naked-gibbon");
  EXPECT_EQ(resolve_game("Tricky Tribes", games()), "tricky-tribes");
}

}  // namespace
}  // namespace campfire::cli
