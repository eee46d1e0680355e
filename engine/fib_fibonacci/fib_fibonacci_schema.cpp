#include "engine/fib_fibonacci/fib_fibonacci_schema.hpp"

#include "engine/core/game.hpp"
#include "engine/core/standard_cards.hpp"
#include "engine/fib_fibonacci/fib_fibonacci.hpp"

namespace campfire::fib_fibonacci {

namespace {

namespace sc = campfire::standard;
}  // namespace

schema::GameSchema game_schema(const Game& game) {
  using namespace schema;
  GameSchema s;
  s.cards_note = std::string(sc::kCardsNote) +
                 " Fib-Fibonacci plays with 26 of them: both jokers, the 2, 3, 5, 7 and 8 of "
                 "every suit, and the 4 and 6 of clubs and diamonds.";
  for (Card c : cards_dealt(game)) s.cards.push_back({game.card_code(c), sc::words(c)});
  s.view_note =
      "Everything on the table: the bases with the runs growing from their openings, drawn as "
      "columns, the side area, the draw pile and both hand sizes, the last play and the series "
      "score. Runs and bases are named by their place in these lists, as moves name them.";
  const Shape index = integer(0, kMaxRuns - 1);
  const Shape value = integer(0, kMaxValue);
  const Shape side = one_of({"A", "B"});
  s.view = object({
      field("phase", one_of({"turn", "over"}), "`turn` while the game goes on, then `over`."),
      field("current", or_null(seat()), "Whose turn it is; null once the game is over."),
      field("game", integer(1, kMaxSeries), "The game of the series being played."),
      field("seriesGames", integer(1, kMaxSeries), "Games in the series."),
      field("gamesWon", array(integer(0, kMaxSeries), 2, 2), "Games each player has won, by seat."),
      field("dealer", seat(), "Who dealt this game."),
      field("turn", integer(1), "The turn being played in this game."),
      field("turnLimit", integer(kMinTurnLimit, kMaxTurnLimit), "Turns after which the game is a stalemate."),
      field("drawPile", integer(0, kDeckSize), "Cards in the draw pile."),
      field("handCounts", array(integer(0, kDeckSize), 2, 2), "Cards in each hand, by seat."),
      field("tableEmpty", boolean(), "Nothing is on the table: only a joker may be played."),
      field(
          "bases",
          array(
              object({
                  field("card", card(),
                        "The base card: a joker, or a 6 (or the 4 that took its place)."),
                  field("role", one_of({"joker", "restart"}),
                        "`joker`: a base with openings A and B; `restart`: a 6 laid on the end of "
                        "a run, with one opening."),
                  field("caps", or_null(index), "The run a restart base caps; null for a joker."),
              }),
              0, kMaxBases),
          "The bases on the table."),
      field(
          "runs",
          array(
              object({
                  field("base", or_null(integer(0, kMaxBases - 1)),
                        "The base whose opening it grows from; null when it floats (its base went "
                        "into a new draw pile)."),
                  field("opening", side, "The opening: A (towards seat 0) or B (towards seat 1)."),
                  field("cards", array(card(), 0, kMaxRunLength), "Its cards, first to last."),
                  field("values", array(value, 0, kMaxRunLength), "The value each card counts as."),
                  field("closed", boolean(),
                        "No natural card may be added: capped, or its top value is 7 or more."),
                  field("cappedBy", or_null(integer(0, kMaxBases - 1)),
                        "The restart base lying on its end; null when not capped."),
                  optional("next", integer(0, 2 * kMaxValue), "The value the next card must have.",
                           "once it has two cards and is not capped"),
              }),
              0, kMaxRuns),
          "The runs on the table, each on an opening."),
      field(
          "columns",
          array(object({
              field("base", or_null(integer(0, kMaxBases - 1)),
                    "The joker base of the column; null for a floating run."),
              field(
                  "A", array(index),
                  "The runs up opening A, a capped run first and the run on its restart after it."),
              field("B", array(index), "The same for opening B."),
          })),
          "The table drawn as columns: each joker base with its two openings."),
      field("sideArea", array(card(), 0, kMaxSide), "The 7s and 8s paired into the side area."),
      field("passes", integer(0, 2), "Passes in a row."),
      optional("dryRepeats", integer(0, 3),
               "How often the current position has come up with the draw pile empty (the third "
               "time ends the game). A spectator, who cannot see the hands, cannot tell.",
               "to a seated player"),
      optional("hand", array(card(), 0, kDeckSize), "Your hand.", "to a seated player"),
      field("lastPlay",
            or_null(object({
                field("seat", seat(), "Who played."),
                field("move", one_of({"draw", "pass", "joker", "run", "restart", "four", "pair"}),
                      "What they did."),
                optional("card", card(), "The card played.", "for every move but draw and pass"),
                optional("taken", card(), "The card the 4 took.", "for a four"),
                optional("bonus", card(), "The bonus card laid with the joker.",
                         "for a joker with a bonus card"),
                optional("pairedWith", card(), "The opponent's 7 or 8 it was paired with.",
                         "for a pair"),
            })),
            "The latest turn; null at the start of a game."),
      field("pairChance",
            or_null(object({
                field("seat", seat(), "Who may pair."),
                field("card", card(), "The natural 7 or 8 the opponent just placed."),
                field("partner", card(), "The card of the same suit that may be paired with it."),
            })),
            "Rule 8: the player to move may pair the opponent's new 7 or 8; null otherwise."),
      optional("lastGame",
               object({field("winner", or_null(seat()), "Who won it; null for a draw."),
                       field("ending",
                             one_of({"emptied-hand", "two-passes", "repetition", "turn-limit"}),
                             "How it ended.")}),
               "The previous game of the series.", "once a game of the series has ended"),
      optional("result", result_shape(), "Who won the series: more games won.",
               "once the series is over"),
  });
  const Shape run_index = integer(0, kMaxRuns - 1);
  s.moves = {
      {"draw", "Draw a card: the whole turn.", {}},
      {"pass", "Pass: nothing can be played and the draw pile is empty.", {}},
      {"joker",
       "Lay a joker as a new base, with a bonus card on one opening or without.",
       {field("card", card(), "The joker."),
        optional("bonus", card(), "A 2, a 3 or a 6 from your hand for one opening.",
                 "with a bonus card"),
        optional("opening", side, "The opening the bonus card goes on.", "with a bonus card"),
        optional("value", integer(0, 3), "The value a 6 counts as.",
                 "when the bonus card is a 6")}},
      {"run",
       "Add a card to a run.",
       {field("card", card(), "The card."),
        field("run", run_index, "The run (its place in the view's runs)."),
        optional("value", value, "The value a 6 counts as.", "for a 6")}},
      {"restart",
       "Lay a 6 on the end of a run as a new base with one opening, capping the run.",
       {field("card", card(), "The 6."), field("run", run_index, "The run it caps.")}},
      {"four",
       "Put a 4 in place of any card on the table and take that card into your hand.",
       {field("card", card(), "The 4."),
        optional("base", integer(0, kMaxBases - 1), "The base it replaces.", "to replace a base"),
        optional("run", run_index, "The run of the card it replaces.", "to replace a run card"),
        optional("position", integer(0, kMaxRunLength - 1), "The card's place in that run.",
                 "to replace a run card"),
        optional("sideCard", integer(0, kMaxSide - 1), "The side-area card it replaces.",
                 "to replace a side card")}},
      {"pair",
       "Rule 8: pair the opponent's new 7 or 8 with its partner, into the side area.",
       {field("card", card(), "The partner from your hand.")}},
  };
  s.events = {
      {"dealt",
       "Your hand for the new game.",
       true,
       {field("cards", array(card(), kHandSize, kHandSize), "Your cards.")}},
      {"new-game",
       "A new game of the series was dealt.",
       false,
       {field("game", integer(1, kMaxSeries), "The game."), field("dealer", seat(), "Who dealt.")}},
      {"draw", "A player drew a card.", false, {field("seat", seat(), "Who.")}},
      {"drew", "The card you drew.", true, {field("card", card(), "The card.")}},
      {"pass", "A player could not play and passed.", false, {field("seat", seat(), "Who.")}},
      {"joker",
       "A joker was laid as a new base.",
       false,
       {field("seat", seat(), "Who."), field("card", card(), "The joker."),
        optional("bonus", card(), "The bonus card.", "with a bonus card"),
        optional("opening", side, "Its opening.", "with a bonus card")}},
      {"run",
       "A card was added to a run.",
       false,
       {field("seat", seat(), "Who."), field("card", card(), "The card."),
        field("run", run_index, "The run."), field("value", value, "The value it counts as.")}},
      {"restart",
       "A 6 capped a run as a new base.",
       false,
       {field("seat", seat(), "Who."), field("card", card(), "The 6."),
        field("run", run_index, "The run it caps.")}},
      {"four",
       "A 4 took the place of a card on the table.",
       false,
       {field("seat", seat(), "Who."), field("card", card(), "The 4."),
        field("taken", card(), "The card it replaced, now in their hand.")}},
      {"pair",
       "A 7 or 8 was paired into the side area.",
       false,
       {field("seat", seat(), "Who."), field("card", card(), "The card.")}},
      {"refill",
       "The draw pile ran out: closed runs, bases and side cards make a new one.",
       false,
       {field("cards", array(card()), "The cards shuffled into the new draw pile."),
        field("lostOpenings", integer(0), "Empty openings lost with their bases.")}},
      {"game-over",
       "A game of the series ended.",
       false,
       {field("game", integer(1, kMaxSeries), "The game."),
        field("winner", or_null(seat()), "Who won it; null for a draw."),
        field("ending", one_of({"emptied-hand", "two-passes", "repetition", "turn-limit"}), "How."),
        field("handCounts", array(integer(0, kDeckSize), 2, 2), "Cards left in each hand.")}},
      {"series-over",
       "The series is over.",
       false,
       {field("result", result_shape(), "Who won the series.")}},
  };
  return s;
}

}  // namespace campfire::fib_fibonacci
