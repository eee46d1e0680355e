#include "engine/spider_monkey/spider_monkey_schema.hpp"

#include "engine/core/game.hpp"
#include "engine/core/standard_cards.hpp"
#include "engine/spider_monkey/spider_monkey.hpp"

namespace campfire::spider_monkey {

namespace {

namespace sc = campfire::standard;
}  // namespace

schema::GameSchema game_schema(const Game& game) {
  using namespace schema;
  GameSchema s;
  s.cards_note = std::string(sc::kCardsNote) + " Spider Monkey plays without jokers.";
  for (Card c : cards_dealt(game)) s.cards.push_back({game.card_code(c), sc::words(c)});
  s.view_note =
      "Everything on the table: every line of face-down cards as slot ids (nobody sees a line's "
      "cards, its owner included, until the reveal), the stockpile, the whole discard pile, "
      "the call and the last turn. What a player looks at (the peek, a Queen, the card drawn) "
      "is told to them once, as events.";
  const Shape slot_id = integer(0, kMaxSlotId);
  const Shape per_seat = array(integer(), 2, kMaxPlayers);
  s.view = object({
      field("phase",
            one_of({"peek", "draw", "resolve", "slap-window", "power", "end-turn", "over"}),
            "`peek`: everyone looks at two of their own cards at once; `draw`: the current "
            "player draws from the stockpile or takes the top discard; `resolve`: they keep "
            "the drawn card in a slot or discard it; `slap-window`: the others may slap cards "
            "of the discarded rank; `power`: a discarded Jack or Queen may be used; `end-turn`: "
            "they end the turn, calling Spider Monkey or not; `over`."),
      field("round", integer(1), "The round being played."),
      field("dealer", seat(), "Who dealt this round."),
      field("current", or_null(seat()), "Whose turn it is; null during the peek and once over."),
      field("lines", array(array(slot_id), 2, kMaxPlayers),
            "Each player's line of face-down cards, by seat: the slot ids in order. A slot id "
            "names a card for as long as it lies there."),
      field("stock", integer(0, 52), "Cards in the stockpile."),
      field("discard", array(card(), 0, 52),
            "The discard pile, face up, bottom first: the last card is the top."),
      field("caller", or_null(seat()), "Who called Spider Monkey; null before the call."),
      field("finalTurnsLeft", integer(0, kMaxPlayers - 1), "Turns left after the call."),
      field("turns", integer(0), "Turns taken in the game."),
      field("window",
            or_null(
                object({field("id", integer(), "The window's id."),
                        field("name", one_of({"peek", "slap"}), "Which window."),
                        field("millis", integer(0), "How long it stays open, in milliseconds.")})),
            "The open timed window; null when none is open."),
      field("lastTurn",
            or_null(object({
                field("seat", seat(), "Whose turn it was."),
                field("from", one_of({"stock", "discard"}), "Where they drew from."),
                field("replaced", or_null(slot_id),
                      "The slot that took the new card; null when the drawn card was discarded."),
                field("discarded", or_null(card()), "The card that went to the discard pile."),
            })),
            "What everybody saw of the latest turn; null before the first."),
      optional("peeked", array(seat(), 0, kMaxPlayers), "Who has looked at their two cards.",
               "during the peek"),
      optional("drawn", card(), "The card you drew.", "to the current player in the resolve phase"),
      optional(
          "slapRanks",
          array(one_of({"2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"}), 1, 2),
          "The ranks that may be slapped correctly.", "in the slap window"),
      optional("slapDone", array(seat(), 0, kMaxPlayers), "Who has stopped slapping.",
               "in the slap window"),
      optional("power", one_of({"jack", "queen"}),
               "The power of the discarded card: a Jack swaps two cards, a Queen looks at one.",
               "in the power phase"),
      optional("jackFirst",
               object({field("seat", seat(), "Whose line."), field("slot", slot_id, "The slot.")}),
               "The first card picked for the Jack's swap.",
               "in the power phase once the first card is picked"),
      optional("totals", per_seat, "Points so far in cumulative play, by seat.",
               "with cumulative scoring"),
      field("lastRound",
            or_null(object({
                field("round", integer(1), "The round."),
                field("end", one_of({"zero-cards", "call", "turn-limit"}),
                      "A player ran out of cards, the call came round, or the turn limit hit."),
                field("cards", array(array(card()), 2, kMaxPlayers),
                      "Every line turned over, by seat."),
                field("scores", per_seat, "The round's sums, by seat."),
                field("winners", array(seat(), 1, kMaxPlayers), "Who won the round."),
            })),
            "The reveal of the latest finished round; null before."),
      optional("revealed", array(array(card()), 2, kMaxPlayers),
               "Every line's cards, by seat, turned over at the end.", "once the game is over"),
      optional("result", result_shape(), "The lowest sum (or total) wins.",
               "once the game is over"),
  });
  const Shape own_slot = slot_id;
  s.moves = {
      {"peek",
       "Look at two of your own cards.",
       {field("slots", array(own_slot, 2, 2), "Two of your slot ids, the lower first.")}},
      {"draw", "Draw the top card of the stockpile.", {}},
      {"replace",
       "Keep the drawn card in one of your slots; the card there is discarded.",
       {field("slot", own_slot, "Your slot.")}},
      {"discard-drawn", "Discard the drawn card.", {}},
      {"take-discard",
       "Take the top discard into one of your slots; the card there is discarded.",
       {field("slot", own_slot, "Your slot.")}},
      {"slap",
       "Slap the card in one of your slots onto the discard pile.",
       {field("slot", own_slot, "Your slot.")}},
      {"slap-done", "Stop slapping in this window.", {}},
      {"jack",
       "Pick a card for the Jack's swap: the first, then the second.",
       {field("seat", seat(), "Whose line."), field("slot", slot_id, "The slot.")}},
      {"queen",
       "Look at any one card on the table.",
       {field("seat", seat(), "Whose line."), field("slot", slot_id, "The slot.")}},
      {"skip-power", "Do not use the Jack or Queen.", {}},
      {"end-turn",
       "End your turn, calling Spider Monkey or not.",
       {field("call", boolean(), "Call Spider Monkey: everyone else gets one more turn.")}},
  };
  const Shape rank = one_of({"2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"});
  const Shape slot_ref =
      object({field("seat", seat(), "Whose line."), field("slot", slot_id, "The slot.")});
  s.events = {
      {"deal",
       "A new round was dealt.",
       false,
       {field("round", integer(1), "The round."), field("dealer", seat(), "Who dealt."),
        field("discard", card(), "The card that starts the discard pile.")}},
      {"peek",
       "The two cards you looked at.",
       true,
       {field("slots", array(slot_id, 2, 2), "Your slots."),
        field("cards", array(card(), 2, 2), "Their cards, in the same order.")}},
      {"peeked",
       "A player looked at two of their cards.",
       false,
       {field("seat", seat(), "Who."), field("slots", array(slot_id, 2, 2), "Which slots.")}},
      {"turn",
       "A player's turn begins.",
       false,
       {field("seat", seat(), "Whose."),
        field("final", boolean(), "It is their last turn after the call.")}},
      {"draw", "A player drew from the stockpile.", false, {field("seat", seat(), "Who.")}},
      {"drawn", "The card you drew.", true, {field("card", card(), "The card.")}},
      {"take-discard",
       "A player took the top discard into a slot.",
       false,
       {field("seat", seat(), "Who."), field("card", card(), "The card taken."),
        field("slot", slot_id, "The slot it went into."),
        field("discarded", card(), "The card that was there, now on the discard pile.")}},
      {"reshuffle",
       "The stockpile ran out: the discards under the top card make a new one.",
       false,
       {field("stock", integer(0, 52), "Cards in the new stockpile.")}},
      {"discard",
       "A player discarded the card they drew.",
       false,
       {field("seat", seat(), "Who."), field("card", card(), "The card.")}},
      {"placed",
       "You kept the drawn card in a slot.",
       true,
       {field("slot", slot_id, "The slot."), field("card", card(), "The card.")}},
      {"replace",
       "A player kept the drawn card in a slot.",
       false,
       {field("seat", seat(), "Who."), field("slot", slot_id, "The slot."),
        field("discarded", card(), "The card that was there, now on the discard pile.")}},
      {"slap-window",
       "The slap window opened.",
       false,
       {field("window", integer(), "The window's id."),
        field("millis", integer(0), "How long it stays open, in milliseconds."),
        field("ranks", array(rank, 1, 2), "The ranks that may be slapped.")}},
      {"slap",
       "A player slapped a card onto the discard pile.",
       false,
       {field("seat", seat(), "Who."), field("slot", slot_id, "The slot it came from."),
        field("card", card(), "The card."),
        field("correct", boolean(), "It was of a slapped rank."),
        optional("penaltySlots", array(slot_id, 0, 2), "The new slots of the penalty cards.",
                 "for a wrong card")}},
      {"slap-done", "A player stopped slapping.", false, {field("seat", seat(), "Who.")}},
      {"slap-window-closed",
       "The slap window closed.",
       false,
       {field("window", integer(), "The window's id.")}},
      {"skip-power",
       "A player did not use the Jack or Queen.",
       false,
       {field("seat", seat(), "Who.")}},
      {"jack-pick",
       "A player picked the first card of a Jack's swap.",
       false,
       {field("seat", seat(), "Who."), field("target", seat(), "Whose line."),
        field("slot", slot_id, "The slot.")}},
      {"jack",
       "A player swapped two cards with a Jack, unseen.",
       false,
       {field("seat", seat(), "Who."), field("a", slot_ref, "One card."),
        field("b", slot_ref, "The other.")}},
      {"queen-look",
       "The card you looked at with the Queen.",
       true,
       {field("target", seat(), "Whose line."), field("slot", slot_id, "The slot."),
        field("card", card(), "The card.")}},
      {"queen",
       "A player looked at a card with a Queen.",
       false,
       {field("seat", seat(), "Who."), field("target", seat(), "Whose line."),
        field("slot", slot_id, "The slot.")}},
      {"call", "A player called Spider Monkey.", false, {field("seat", seat(), "Who.")}},
      {"reveal",
       "The round is over: every line is turned over.",
       false,
       {field("round", integer(1), "The round."),
        field("end", one_of({"zero-cards", "call", "turn-limit"}), "Why it ended."),
        field("lines",
              array(object({field("seat", seat(), "Whose line."),
                            field("cards", array(card()), "Its cards."),
                            field("score", integer(), "Its sum.")}),
                    2, kMaxPlayers),
              "Every line."),
        optional("totals", per_seat, "Totals so far, by seat.", "with cumulative scoring")}},
      {"game-over",
       "The game is over.",
       false,
       {field("result", result_shape(), "Who won: the lowest sum (or total).")}},
  };
  return s;
}

}  // namespace campfire::spider_monkey
