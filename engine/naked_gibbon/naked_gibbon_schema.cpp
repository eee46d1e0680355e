#include "engine/naked_gibbon/naked_gibbon_schema.hpp"

#include "engine/core/game.hpp"
#include "engine/core/standard_cards.hpp"

namespace campfire::naked_gibbon {

namespace {}  // namespace

schema::GameSchema game_schema(const Game& game) {
  using namespace schema;
  GameSchema s;
  s.cards_note = standard::kCardsNote;
  for (Card c : cards_dealt(game)) {
    s.cards.push_back({game.card_code(c), standard::words(c)});
  }
  s.view_note =
      "Everything on the table: the fire with its number and every jump onto it (a face-down "
      "card shows only to the gibbon who played it), the gibbons who may be doubted, each "
      "gibbon's table cards over their burnmarks, the hat, the deck and the discards. Your hand "
      "is yours alone.";
  const Shape per_seat_count = array(integer(0), 2, 6);
  const Shape jump = one_of({"hands-up", "chest-up", "random", "back-flip", "side-flip"});
  const Shape fire_number = integer(0, 13);
  const Shape play = object({
      field("by", seat(), "The gibbon who jumped."),
      field("jump", jump,
            "`hands-up` (a hand card face up), `chest-up` (a table card), `random` (the panic "
            "jump: the deck's top card), `back-flip` (face down, promised a heart above the "
            "fire) or `side-flip` (face down, promised a non-heart of the fire's number)."),
      field("before", fire_number, "The fire number it was played on."),
      field("after", fire_number, "The fire number it left (for a face-down card: promised)."),
      optional("card", card(), "The card.",
               "when it went face up, and to the gibbon who played it face down"),
  });
  s.view = object({
      field("phase", one_of({"main", "new-fire", "place", "naked-place", "swap", "over"}),
            "`main`: a normal turn (moult, then jump or doubt); `new-fire`: the rightful "
            "doubter starts a new fire straight away (jump only); `place`: the fire-bath cards "
            "wait to be put on the slots; `naked-place`: a gibbon who got naked puts their "
            "hand cards on the slots; `swap`: the round's loser picks a gibbon to swap places "
            "with; `over`."),
      field("round", integer(1), "The round being played."),
      field("dealer", seat(), "Who dealt this round."),
      field("seatOrder", array(seat(), 2, 6),
            "The seats in playing order around the fire (the loser of a round may swap "
            "places)."),
      field("current", or_null(seat()), "Whose turn it is; null once the game is over."),
      field("fireNumber", fire_number, "The number of the fire: 0 for a new fire."),
      field("fire", array(play), "Every jump onto the fire, oldest first."),
      field("doubtable", array(seat(), 0, 5),
            "The gibbons whose latest card the current gibbon may doubt now (it went face "
            "down). Empty outside a normal turn."),
      field("handCounts", per_seat_count, "Hand cards of each gibbon, by seat."),
      field("table", array(array(or_null(card()), 3, 3), 2, 6),
            "Each gibbon's three limb slots (arm, arm, tail) by seat: the face-up table card on "
            "each, or null."),
      field("burned", array(array(boolean(), 3, 3), 2, 6),
            "Each gibbon's three slots by seat: true where a burnmark lies (face down)."),
      field("burnmarks", per_seat_count, "Burnmarks of each gibbon, by seat."),
      field("hat", or_null(seat()), "Who wears the Heartless Monkey Hat; null for nobody."),
      field("out", array(boolean(), 2, 6),
            "Gibbons who burned their tail and dropped out (Survival of the Fittest), by seat."),
      field("losses", per_seat_count, "Rounds each gibbon has lost, by seat."),
      field("deck", integer(0), "Cards in the deck."),
      field("discard", integer(0), "Cards on the discard pile."),
      field("turnsThisRound", integer(0), "Jumps and doubts so far this round."),
      field("burnLimit", integer(2, 3), "Burnmarks that burn the tail."),
      optional("hand", array(card(), 0, 3), "Your hand cards.", "to a seated player"),
      optional("warning", text(), "A note on the options chosen.",
               "when Veterans and Never My Tail are both on"),
      optional("placing",
               object({field("seat", seat(), "Whose cards they are."),
                       field("why", one_of({"fire-bath", "naked"}),
                             "After a fire bath, or after getting naked."),
                       field("cards", array(card(), 0, 3), "The cards to put on the slots.")}),
               "Face-up cards waiting for a slot.", "in the place and naked-place phases"),
      optional("lastDoubt",
               object({field("doubter", seat(), "Who doubted."),
                       field("target", seat(), "Whose card was doubted."),
                       field("jump", jump, "What the card was played as."),
                       field("before", fire_number, "The fire number it was played on."),
                       field("card", card(), "The card, turned over."),
                       field("kept", boolean(), "The card kept its promise.")}),
               "The latest doubt of the round.", "after the round's first doubt"),
      optional("eliminated", array(seat(), 1, 5), "Gibbons who dropped out, in order.",
               "with Survival of the Fittest once one has dropped out"),
      optional("roundLoser", seat(), "Who lost the round.", "once a round is lost"),
      optional("result", result_shape(),
               "How the game ended: the loser burned their tail; everybody else wins (with "
               "Survival of the Fittest the last gibbon jumping wins).",
               "once the game is over"),
  });
  const Shape hand_card = card();
  const Shape slot = integer(0, 2);
  s.moves = {
      {"spot-moult",
       "Put a hand card of the fire's number or lower face up on a free slot, discard the "
       "rest of your hand and draw new cards.",
       {field("card", hand_card, "The hand card to put down."),
        field("slot", slot, "The free slot it goes on.")}},
      {"fire-bath",
       "Discard your whole hand and draw the same number of cards face up onto the table.",
       {}},
      {"place",
       "Put the waiting face-up cards on free slots, in the order they are listed.",
       {field("slots", array(slot, 1, 3), "A slot for each waiting card, in order.")}},
      {"hands-up",
       "Jump with a hand card above the fire's number, face up (never a heart).",
       {field("card", hand_card, "The hand card.")}},
      {"chest-up",
       "Jump with a table card above the fire's number, face up.",
       {field("slot", slot, "The slot of the table card.")}},
      {"random", "The panic jump: the deck's top card goes face up onto the fire.", {}},
      {"back-flip",
       "Jump with a hand card face down, promising a heart above the fire.",
       {field("card", hand_card, "The hand card.")}},
      {"side-flip",
       "Jump with a hand card face down, promising a non-heart of the fire's number.",
       {field("card", hand_card, "The hand card.")}},
      {"doubt",
       "Turn over another gibbon's latest card, if it went face down.",
       {field("target", seat(), "Whose card.")}},
      {"swap",
       "As the round's loser, swap places with another gibbon and deal the next round.",
       {field("with", seat(), "Who to swap with.")}},
  };
  s.events = {
      {"dealt",
       "Your hand for the new round.",
       true,
       {field("cards", array(card(), 0, 3), "Your hand cards.")}},
      {"drew",
       "The cards you drew into your hand.",
       true,
       {field("cards", array(card(), 1, 3), "The cards.")}},
      {"reshuffle",
       "The deck ran out and was made again.",
       false,
       {field("from", one_of({"discard", "fire"}),
              "From the discards, or (with none) from the fire below each gibbon's latest card."),
        field("cards", integer(0), "Cards in the new deck.")}},
      {"spot-moult",
       "A gibbon spot moulted.",
       false,
       {field("seat", seat(), "Who."), field("card", card(), "The card put face up."),
        field("slot", slot, "The slot it went on."),
        field("discarded", integer(0, 2), "Hand cards discarded."),
        field("drawn", integer(0, 3), "Cards drawn.")}},
      {"fire-bath",
       "A gibbon took a fire bath.",
       false,
       {field("seat", seat(), "Who."), field("discarded", integer(0, 3), "Hand cards discarded."),
        field("cards", array(card(), 0, 3), "The cards drawn face up.")}},
      {"placed",
       "A gibbon put their waiting face-up cards on the slots.",
       false,
       {field("seat", seat(), "Who.")}},
      {"jump",
       "A gibbon jumped onto the fire.",
       false,
       {field("seat", seat(), "Who."), field("jump", jump, "How."),
        field("before", fire_number, "The fire number before."),
        field("after", fire_number, "The fire number after (promised, for a face-down card)."),
        optional("card", card(), "The card.", "when it went face up"),
        field("crash", boolean(), "The panic jump was lower than the fire: a crash.")}},
      {"played",
       "The card you just played face down.",
       true,
       {field("card", card(), "Your card.")}},
      {"doubt",
       "A gibbon doubted another's face-down card and turned it over.",
       false,
       {field("seat", seat(), "Who doubted."), field("target", seat(), "Whose card."),
        field("jump", jump, "What it was played as."),
        field("before", fire_number, "The fire number it was played on."),
        field("card", card(), "The card."),
        field("kept", boolean(), "The card kept its promise: the doubter is punished.")}},
      {"burnmark",
       "A punished gibbon got a burnmark.",
       false,
       {field("seat", seat(), "Who."), field("slot", slot, "The slot burned."),
        field("card", card(), "The table card that burned (now face down)."),
        field("burnmarks", integer(1, 3), "Their burnmarks now.")}},
      {"naked",
       "A punished gibbon with no exposed table card got naked.",
       false,
       {field("seat", seat(), "Who."),
        field("cards", array(card(), 0, 3), "Their hand cards, now face up.")}},
      {"hat",
       "The Heartless Monkey Hat changed heads.",
       false,
       {field("seat", seat(), "Who."),
        field("wearing", boolean(), "They now wear it (false: a burnmark relieved them).")}},
      {"new-fire",
       "The fire was discarded; a new one starts.",
       false,
       {field("seat", seat(), "Who starts it.")}},
      {"out", "A gibbon burned the tail and dropped out.", false, {field("seat", seat(), "Who.")}},
      {"round-over",
       "A gibbon burned the tail: the round is lost.",
       false,
       {field("round", integer(1), "The round."), field("loser", seat(), "Who lost it."),
        field("stalemate", boolean(), "The round hit the turn limit.")}},
      {"swap",
       "The round's loser swapped places with another gibbon.",
       false,
       {field("seat", seat(), "The loser."), field("with", seat(), "The other gibbon.")}},
      {"new-round",
       "A new round was dealt.",
       false,
       {field("round", integer(1), "The round."), field("dealer", seat(), "Who dealt.")}},
      {"game-over",
       "The game is over.",
       false,
       {field("result", result_shape(), "The loser, and everybody else.")}},
  };
  return s;
}

}  // namespace campfire::naked_gibbon
