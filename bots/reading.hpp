// Reading a seat's knowledge, shared by the basic policies and expert's game models.
#pragma once

#include <vector>

#include "bots/policy.hpp"
#include "engine/naked_gibbon/naked_gibbon.hpp"

namespace campfire::bots {

// Naked Gibbon: the cards whose whereabouts the seat does not know.
std::vector<Card> naked_gibbon_unseen(const Situation& s);
// The chance that a player who plays face down on `fire` with three cards drawn from `unseen`
// held at least one keeping the promise (and so, telling the truth when it could, did).
double naked_gibbon_honest_chance(const std::vector<Card>& unseen, naked_gibbon::Jump jump,
                                  int fire);

// Spider Monkey: whether a slap is of a card the seat remembers and of a rank that may be
// slapped now (the only slaps a bot makes: never a guess).
bool spider_monkey_sure_slap(const Situation& s, const Action& slap);
// Whether the seat believes its line is low enough to call "Spider Monkey": every card but at
// most one known, and its estimated sum low or well below everyone else's.
bool spider_monkey_believes_low(const Situation& s);

}  // namespace campfire::bots
