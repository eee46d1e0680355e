#include "engine/pinocchio/pinocchio_schema.hpp"

#include "engine/core/game.hpp"

namespace campfire::pinocchio {

namespace {

// "red-bow-tie" -> "Red Bow Tie".
std::string item_words(const std::string& code) {
  std::string out;
  bool start = true;
  for (char c : code) {
    if (c == '-') {
      out += ' ';
      start = true;
    } else {
      out += start ? static_cast<char>(c - 'a' + 'A') : c;
      start = false;
    }
  }
  return out;
}

}  // namespace

schema::GameSchema game_schema(const Game& game) {
  using namespace schema;
  GameSchema s;
  s.cards_note =
      "A clothes card is written colour-clothing: colours red, yellow and blue; clothing hat, "
      "bow-tie, shirt, trousers and shoes. There are three copies of each of the 15 items.";
  for (Card c : cards_dealt(game)) {
    const std::string code = game.card_code(c);
    s.cards.push_back({code, item_words(code)});
  }
  s.view_note =
      "Everything on the table: how many cards each player has left, how many are on the pile "
      "in the middle and the claim on top of it (with the card a challenge turned over), and the "
      "long noses. Earlier claims and challenges are told once, in events. A card "
      "played face down is never shown in the view, not even to its player: it is told to them "
      "once, in the private `played` event.";
  const Shape per_seat = array(integer(0), 2, 6);
  s.view = object({
      field("phase", one_of({"play", "challenge", "final-challenge", "over"}),
            "`challenge`: the current player first believes or challenges the claim on top of "
            "the pile; `play`: they play their top card and name it; `final-challenge`: the "
            "last card is down and the next player may challenge it once more; `over`."),
      field("current", or_null(seat()), "Whose turn it is; null once the game is over."),
      field("stacks", per_seat, "Cards left in each player's face-down stack, by seat."),
      field("box", integer(0, 5), "Cards put back in the box unseen at the deal."),
      field("noses", per_seat, "Long noses each player has, by seat."),
      field("pileSize", integer(0, 45),
            "Cards on the pile in the middle. The pile lies face down: the claims under the top "
            "one were told in `announce` and `challenge` events."),
      optional("lastClaim",
               object({
                   field("by", seat(), "Who played the card."),
                   field("claim", card(), "What they said it is."),
                   field("free", boolean(),
                         "The claim did not have to match the one before: the first card, or "
                         "the card played right after a challenge."),
                   optional("mustMatch", card(),
                            "The claim before it, which this one had to match in colour or "
                            "clothing (or both).",
                            "when the claim was not free"),
                   field("challengeable", boolean(),
                         "The claim may be challenged: false for the card played right after a "
                         "challenge."),
                   optional("challenge",
                            object({
                                field("by", seat(), "Who challenged it."),
                                field("revealed", card(), "The card the challenge turned over."),
                                field("truthful", boolean(), "The card was what its player said."),
                            }),
                            "What the challenge of this claim showed.", "once it was challenged"),
               }),
               "The claim on top of the pile: the card last played and what was said about it. "
               "It also tells what the next claim must be: in the play phase, a claim may name any "
               "item when there is no `lastClaim` or it has a `challenge`; otherwise it must match "
               "`lastClaim.claim` in colour or clothing (or both).",
               "once a card is on the pile"),
      optional("yourCard", card(), "Your top card, the one you are about to play.",
               "to the current player in the play phase"),
      optional("result", result_shape(), "How the game ended: the fewest long noses wins.",
               "once the game is over"),
  });
  s.moves = {
      {"challenge", "\"I don't believe you!\": turn over the card on top of the pile.", {}},
      {"believe", "\"I believe you!\": leave the card on top of the pile face down.", {}},
      {"announce",
       "Play your top card face down onto the pile and say what it is.",
       {field("colour", one_of({"red", "yellow", "blue"}), "The colour you say."),
        field("clothing", one_of({"hat", "bow-tie", "shirt", "trousers", "shoes"}),
              "The clothing you say.")}},
  };
  const Shape item = card();
  s.events = {
      {"announce",
       "A player played a card and said what it is.",
       false,
       {field("seat", seat(), "Who played."), field("claim", item, "What they said."),
        field("free", boolean(), "The claim did not have to match the one before."),
        field("challengeable", boolean(), "The claim may be challenged.")}},
      {"played",
       "The card you just played, as only you saw it.",
       true,
       {field("card", item, "Your card.")}},
      {"drew",
       "Your top card, which you must play now.",
       true,
       {field("card", item, "Your top card.")}},
      {"believe",
       "A player believed the claim on top of the pile.",
       false,
       {field("seat", seat(), "Who believed."), field("target", seat(), "Whose claim it was.")}},
      {"challenge",
       "A player challenged the claim on top of the pile and turned the card over.",
       false,
       {field("seat", seat(), "Who challenged."), field("target", seat(), "Whose claim it was."),
        field("claim", item, "What was said."), field("card", item, "What the card is."),
        field("truthful", boolean(), "The card was what its player said."),
        field("nose", seat(),
              "Who grows a long nose: the liar, or the challenger of the "
              "truth.")}},
      {"game-over",
       "The game is over.",
       false,
       {field("result", result_shape(), "Who won: the fewest long noses.")}},
  };
  return s;
}

}  // namespace campfire::pinocchio
