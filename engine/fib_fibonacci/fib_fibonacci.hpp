// Fib-Fibonacci (Eric Treadwell and T.J. Highley), exactly 2 players.
//
// 26 cards: two jokers, the 2, 3, 5, 7 and 8 of every suit, 4♣ 4♦ and 6♣ 6♦. Each player gets
// five cards, the other 16 are the draw pile; the non-dealer starts. A turn is one of: draw a
// card (the whole turn), or one play:
//   - a joker starts a column, a base with two openings (side A towards seat 0, side B towards
//     seat 1), optionally with a bonus card (a 2, 3 or a 6 worth 0..3) on one opening;
//   - a run card: the 1st on an opening is a 2 or 3; the 2nd a 3 or 5 greater than the 1st;
//     from the 3rd on the card's value is the sum of the two before (2-3-5-8);
//   - the small wild, a 4: it takes the place of any card on the table, keeps that card's role
//     and value, and the card it replaced goes into the player's hand;
//   - the big wild, a 6: any value (0..3 as a 1st card, 3..5 as a 2nd, forced to the sum later),
//     or laid on the end of a run as a new base with one opening ("restart"), capping that run;
//   - rule 8: right after the opponent placed a natural 7 or 8, the 8 or 7 of the same suit may
//     be put into the side area.
// Whoever empties their hand first wins.
//
// Choices (docs/rules/fib-fibonacci.md, FF-1..FF-20): seat 1 deals the first game; a joker may be
// played whenever its player likes, but on an empty table it is the only play (rule 1, which also
// outranks a pending rule-8 chance); every check uses effective values (a 4 keeps the value of
// what it replaced, a 6 its declared value); a run is closed when capped or when its top value is
// 7 or more; a 6 may still be added to a closed run (the text's "except a wild card"). When the
// draw pile is empty at the start of a turn, every closed run, every base and every side card
// is shuffled into a new pile; open runs stay and float, empty openings are lost. With the pile
// still empty and nothing to play, the player passes; two passes in a row, or the third
// occurrence of the same dry position (FF-14), end the game: fewer cards in hand wins, equal is a
// draw.
//
// Options: seriesGames (default 1, FF-17): a series alternates the dealer and the seat that wins
// more games wins it. turnLimit (default 500, FF-18) is an addition: drawing and playing can cycle
// the cards for ever while the pile never runs dry, which FF-14 does not catch, so a game also
// ends as a stalemate after turnLimit turns, and every game provably ends.
//
// Cards are dealt one at a time from the top of the given deck, starting with seat 0 (the
// dealer's left); the 11th card is the top of the draw pile.
//
// Moves on the wire (cards in the shared notation, "X1", "7S"; runs and bases by their index in
// the view):
//   {"move":"draw"}  {"move":"pass"}
//   {"move":"joker","card":"X1"}  or with a bonus: ...,"bonus":"2C","opening":"A"|"B"
//   {"move":"run","card":"5H","run":3}  a 6 adds "value" (its declared or forced value)
//   {"move":"restart","card":"6C","run":3}
//   {"move":"four","card":"4C"} with "base":i, or "run":i and "position":p, or "sideCard":i
//   {"move":"pair","card":"8S"}
//
// Views: public are the table (bases, runs with their cards and effective values, columns), the
// side area, the draw pile and hand counts, the last play, the rule-8 chance, passes and the
// series score. A seat sees its own hand and how often the current dry position has come up
// (FF-20: a spectator, who cannot work out the hands, does not); nobody sees the draw pile or
// the other hand.
#pragma once

#include <cstdint>

#include "engine/core/game.hpp"

namespace campfire::fib_fibonacci {

inline constexpr int kHandSize = 5;
inline constexpr int kDeckSize = 26;
// Table sizes, counted in physical cards (a 4 can free a 6 for another use, but then stays
// where it was put). From the 5th card on a run holds only 6s and 4s, so no run is longer than 8.
// Bases are jokers, 6s or 4s (at most 6); each has at most 2 openings, and every run with a card
// starts with a distinct 2, 3, 6 or 4 (at most 12): never more than 24 runs. The side area holds
// 7s, 8s and the 4s that replaced them (at most 10). The schema declares the view within these.
inline constexpr int kMaxRunLength = 8;
inline constexpr int kMaxRuns = 24;
inline constexpr int kMaxBases = 6;
inline constexpr int kMaxSide = 10;
inline constexpr int kMaxValue = 99;
inline constexpr int kMaxSeries = 3;
inline constexpr int kMinTurnLimit = 50;
inline constexpr int kMaxTurnLimit = 1000;

// Action kinds.
enum Move : std::uint8_t {
  kDraw = 1,
  kPass = 2,
  kJoker = 3,    // {joker} or {joker, bonus card, opening (0: A, 1: B), value}
  kRun = 4,      // {card, run, value}; value is 0 for a natural card
  kRestart = 5,  // {six, run}
  kFour = 6,     // {four, zone, index, position}
  kPair = 7,     // {card}
};

// Where a 4 goes: a base (index), a run card (run index, position) or a side card (index).
enum Zone : std::int32_t { kZoneBase = 0, kZoneRun = 1, kZoneSide = 2 };

const Game& game();

}  // namespace campfire::fib_fibonacci
