// Card faces in a terminal: French cards as rank and suit sign in the suit's colour, Pinocchio's
// clothes in their colour, face-down cards as a back.
#pragma once

#include <string>

#include "clients/cli/text.hpp"

namespace campfire::cli {

// "7S" -> "7♠", "TH" -> "10♥", "X1" -> "Joker"; anything else unchanged.
std::string french_words(const std::string& code);
// The style of a French card's face: red for hearts and diamonds, magenta for jokers.
Style french_style(const std::string& code);
// A French card as a small face: " 7♠ " on a light background, "Joker" for a joker.
Line french_card(const std::string& code);
// Cards one after another, separated by a space ("—" when there are none).
Line french_cards(const std::vector<std::string>& codes);

// Cards drawn large, three rows high, for a terminal with room to spare:
//   ┌───┐┌───┐
//   │7♣ ││10♥│
//   └───┘└───┘
Lines big_french_cards(const std::vector<std::string>& codes);

// "blue-bow-tie" -> "Blue Bow Tie"; other codes are left as they are.
std::string pinocchio_words(const std::string& code);
// A Pinocchio card in words, in its colour.
Line pinocchio_card(const std::string& code);

// A face-down card ("░░░"), or with a caption ("[3]": a slot number).
Line card_back(const std::string& caption = "");

}  // namespace campfire::cli
