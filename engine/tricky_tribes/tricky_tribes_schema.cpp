#include "engine/tricky_tribes/tricky_tribes_schema.hpp"

#include "engine/core/game.hpp"
#include "engine/core/standard_cards.hpp"

namespace campfire::tricky_tribes {

namespace {

namespace st = campfire::standard;
}  // namespace

schema::GameSchema game_schema(const Game& game) {
  using namespace schema;
  GameSchema s;
  s.cards_note = std::string(st::kCardsNote) +
                 " Tricky Tribes plays with the 52 cards and up to two jokers (the Cutting Deck "
                 "takes out the 2s and 3s).";
  for (Card c : cards_dealt(game)) s.cards.push_back({game.card_code(c), st::words(c)});
  s.view_note =
      "Everything on the table: the trick being played (face-down cards as null), the last "
      "trick turned over, every tribe's collected stack (face up, as the rules say it may be "
      "rechecked at any time), the cards nobody collected, the deck, the scores. A tribe is a "
      "seat, or \"dummy\" for the Dummy Tribe.";
  const Shape tribe = either({seat(), word("dummy")});
  const Shape per_seat = array(integer(), 2, 6);
  const Shape cards = array(card());
  const Shape kind = one_of({"open-red", "open-black", "open-joker", "dark"});
  s.view = object({
      field("phase", one_of({"exchange", "trim", "lead", "respond", "vote", "over"}),
            "`exchange`: everyone may swap one card at once; `trim`: with six players and the "
            "whole deck dealt, those with 9 cards discard one; `lead`: the next tribe leads a "
            "trick, face up (open) or face down (dark); `respond`: the others play face down; "
            "`vote`: after a round, everyone votes to play on or stop; `over`."),
      field("round", integer(1), "The round being played."),
      field("trick", integer(0), "The trick being played (or the tricks done, between them)."),
      field("tricksPerRound", integer(8, 10), "Tricks in a round: the hand size."),
      field("dealer", seat(), "Who dealt this round."),
      field("dummy", boolean(), "The Dummy Tribe plays (it plays the deck's top card)."),
      field("order", array(tribe, 2, 7), "The tribes in playing order, from the first leader."),
      field("handCounts", per_seat, "Cards in each hand, by seat."),
      field("deck", integer(0), "Cards left in the deck (the dummy's cards)."),
      field("hiddenDiscards", integer(0),
            "Cards discarded face down (exchange, trim and unused exchange cards)."),
      optional("hand", cards, "Your hand, sorted.", "to a seated player"),
      optional("exchange",
               array(one_of({"deciding", "drew", "discarded", "exchanged", "kept"}), 2, 6),
               "Where each player is in the exchange, by seat.", "in the exchange phase"),
      optional("leader", tribe, "Who leads this trick.", "while tricks are played"),
      optional("next", tribe, "Who plays next.", "while tricks are played"),
      optional("forcedOpen", boolean(),
               "The leader won their own dark trick and must lead this one face up.",
               "while tricks are played"),
      optional(
          "currentTrick",
          object({optional("open", boolean(), "Open (the lead face up) or dark.",
                           "once the trick is led"),
                  field("by", array(tribe, 0, 7), "Who played, in order."),
                  field("cards", array(or_null(card()), 0, 7),
                        "Each card where you may see it (an open lead, your own), else null.")}),
          "The trick on the table.", "while tricks are played"),
      optional("lastTrick",
               object({field("kind", kind, "Open red, open black, open joker or dark."),
                       field("by", array(tribe, 2, 7), "Who played, in order."),
                       field("cards", array(card(), 2, 7), "The cards, turned over."),
                       field("collected", cards, "The cards the collector took."),
                       optional("winner", tribe, "Who played the winning card.",
                                "when somebody won"),
                       optional("loser", tribe,
                                "Who played the lowest black of an open black trick with no red.",
                                "when there is one"),
                       field("collector", tribe, "Who collected (and leads next).")}),
               "The latest trick of the round, turned over.", "once a trick of the round is done"),
      field("stacks", array(cards, 2, 6), "Each tribe's collected cards, face up, by seat."),
      field("stackPoints", per_seat, "The points in each stack, by seat."),
      optional("dummyStack", cards, "The Dummy Tribe's collected cards.",
               "when the Dummy Tribe plays"),
      field("discards", cards, "Trick cards nobody collected this round, face up."),
      optional("lastRoundPoints", per_seat,
               "Each player's points in the last scored round, by seat.",
               "once a round has been scored"),
      optional("sides", array(seat(), 4, 6),
               "United Tribes: each seat's side, named by its lowest seat.", "with teams"),
      optional("sideSolo", array(boolean(), 4, 6),
               "United Tribes: the seat plays alone and scores double.", "with teams"),
      field("totals", per_seat,
            "Running totals by side (with teams a side's total is at its lowest seat; otherwise by "
            "seat)."),
      field("endMode", one_of({"target", "fixedRounds", "manual"}),
            "The game ends at a target score, after a number of rounds, or by vote."),
      optional("target", integer(1), "The score that ends the game.", "when endMode is target"),
      optional("rounds", integer(1), "Rounds to play.", "when endMode is fixedRounds"),
      optional("voted", array(boolean(), 2, 6), "Who has voted, by seat.", "in the vote"),
      optional("yourVote", one_of({"next-round", "end-game"}), "Your vote.",
               "in the vote, once you have voted"),
      optional("result", result_shape(), "Who won: the target reached, or the highest total.",
               "once the game is over"),
  });
  s.moves = {
      {"exchange-draw", "Draw your exchange card.", {}},
      {"exchange-discard",
       "Discard a card face down for the exchange.",
       {field("card", card(), "The card from your hand.")}},
      {"exchange-skip", "Keep your hand: no exchange.", {}},
      {"trim-discard", "Discard a card face down to keep 8.", {field("card", card(), "The card.")}},
      {"lead",
       "Lead the trick: face up for an open trick, face down for a dark one.",
       {field("card", card(), "The card."),
        field("faceUp", boolean(), "Face up (open) or down (dark).")}},
      {"respond", "Play a card face down to the trick.", {field("card", card(), "The card.")}},
      {"next-round", "Vote to play another round.", {}},
      {"end-game", "Vote to end the game now.", {}},
  };
  s.events = {
      {"round-start",
       "A round was dealt.",
       false,
       {field("round", integer(1), "The round."), field("dealer", seat(), "Who dealt.")}},
      {"dealt", "Your hand for the round.", true, {field("cards", cards, "Your cards.")}},
      {"exchange-draw",
       "A player drew their exchange card.",
       false,
       {field("seat", seat(), "Who.")}},
      {"you-drew", "Your exchange card.", true, {field("card", card(), "The card.")}},
      {"exchange-discard",
       "A player discarded a card face down.",
       false,
       {field("seat", seat(), "Who.")}},
      {"you-discarded",
       "The card you discarded face down.",
       true,
       {field("card", card(), "The card.")}},
      {"exchange-skip", "A player kept their hand.", false, {field("seat", seat(), "Who.")}},
      {"trim",
       "A player discarded a card face down to keep 8.",
       false,
       {field("seat", seat(), "Who.")}},
      {"lead",
       "A tribe led a trick.",
       false,
       {field("by", tribe, "Who."), field("faceUp", boolean(), "Face up: an open trick."),
        optional("card", card(), "The card.", "when led face up")}},
      {"respond",
       "A tribe played a card face down to the trick.",
       false,
       {field("by", tribe, "Who."), field("faceUp", boolean(), "Always false.")}},
      {"you-played", "The card you played face down.", true, {field("card", card(), "The card.")}},
      {"trick",
       "The trick was turned over and collected.",
       false,
       {field("kind", kind, "What kind of trick it was."),
        field("plays",
              array(object({field("by", tribe, "Who."), field("card", card(), "What.")}), 2, 7),
              "Every card, in play order."),
        field("collector", tribe, "Who collected (and leads next)."),
        field("collected", cards, "What they collected.")}},
      {"forced-open",
       "The winner of their own dark trick must lead the next face up.",
       false,
       {field("by", tribe, "Who.")}},
      {"round-end",
       "The round was scored.",
       false,
       {field("round", integer(1), "The round."),
        field("points", per_seat, "Each player's points, by seat."),
        field("totals", per_seat, "The running totals, by side.")}},
      {"voted", "A player voted.", false, {field("seat", seat(), "Who.")}},
      {"vote-result",
       "The vote is in.",
       false,
       {field("stop", integer(0, 6), "Votes to end the game.")}},
      {"timeout", "A timed window closed.", false, {}},
      {"game-over", "The game is over.", false, {field("result", result_shape(), "Who won.")}},
  };
  return s;
}

}  // namespace campfire::tricky_tribes
