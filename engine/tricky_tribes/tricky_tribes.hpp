// Tricky Tribes v3.2, 2-6 players, with every extension and player variation.
//
// A French deck (optionally with jokers). Each round every tribe gets 9 hand cards (8 with six
// players) and may exchange one card; then as many tricks as hand cards are played. The leader
// plays a card face up (an open trick: the leader and the offered card stay out of it) or face
// down (a dark trick: everybody is in). The others answer face down, clockwise. Then:
//   open red     the highest card (reds above blacks) collects the offered red card;
//   open black   with no red answer, the lowest black collects the offered black card (penalty);
//                otherwise the highest card (blacks above reds) collects every red answer;
//   dark         the highest card by value collects every red card but its own; no penalty.
// Equal values: the later card is higher. A winning J, Q, K or A takes only the highest red
// (the loot limit). The winner (or the punished loser) leads next; a leader who wins their own
// dark trick must lead face up next. Collected reds score +1 (J-A +2), blacks -1 (J-A -2).
//
// Choices (docs/rules/tricky-tribes.md, TT-1..TT-17):
// - Seat n-1 deals round 1; the dealer moves one seat left each round. Cards are dealt one at a
//   time from the dealer's left; the next n cards are reserved, one per player in the same
//   order, and a player's exchange draw always takes their own reserved card (TT-2). Undrawn
//   reserved cards and every exchange or trim discard stay hidden forever.
// - The exchange and the six-player trim are simultaneous timed windows. A timeout leaves
//   untouched players unchanged, finishes half-done exchanges (a drawn card is discarded again,
//   a discard is followed by the draw) and trims the lowest card (lowest value, then card code).
// - The Dummy Tribe is not a seat: it sits on the dealer's left each round, so it leads trick 1,
//   and plays the top card of the deck below the reserved cards, face down (face up when forced
//   to open). It collects but is never scored. Required with 2 players, optional with 3.
// - The Six Tribes: with six players hand size 8; with two jokers the exchange works as usual,
//   otherwise the whole deck is dealt and the seats holding 9 trim one card (TT-3).
// - Jokers are worth 10 and take the trick colour (none in a dark or joker-led trick); they
//   count as black for the penalty test, are collected with the reds and score +1 (TT-10).
// - United Tribes: teammates sit opposite. Pairs: seat i with i + ceil(n/2) for i below the
//   `pairs` option (as many as fit by default); the other seats play solo and score double;
//   triples (six players): even seats against odd seats. A team's round score is the sum of its
//   members' stacks.
// - The game ends at the target (checked after a complete round; 15, 30 with pairs, 50 with
//   triples unless set), after a fixed number of rounds, or, in manual mode, when after a round
//   more than half of the players vote to stop (the engine has no host; the vote stands in for
//   the host's call). In every mode the game stops after kRoundLimit rounds, so it always ends.
//   The highest total wins when nobody reached a target; every seat at or above it wins else.
//
// Views: public are hand sizes, the deck count, the ring order, the dealer, who played to the
// current trick (the offered card of an open trick face up), the last trick in full with its
// outcome, collected stacks with points, totals and team layout, exchange progress and votes
// cast (not what). A seat sees its own hand and its own face-down card in the current trick.
// Nobody sees the deck, reserved cards before they are drawn, or any hidden discard.
#pragma once

#include <cstdint>
#include <string>

#include "engine/core/game.hpp"

namespace campfire::tricky_tribes {

// The most rounds any game lasts, whatever its end mode.
inline constexpr int kRoundLimit = 30;

// Action kinds.
enum Move : std::uint8_t {
  kDraw = 1,      // exchange-draw
  kDiscard = 2,   // exchange-discard {card}
  kSkip = 3,      // exchange-skip
  kTrim = 4,      // trim-discard {card}
  kLead = 5,      // lead {card, faceUp}
  kRespond = 6,   // respond {card}
  kContinue = 7,  // next-round (manual end mode)
  kStop = 8,      // end-game (manual end mode)
};

// A card's value in a trick: 2..14, a joker 10.
int card_value(Card c);
// The points a collected card scores (TT-11).
int card_points(Card c);

const Game& game();

}  // namespace campfire::tricky_tribes
