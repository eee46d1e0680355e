#include "bots/policy.hpp"

namespace campfire::bots {

Policy basic_policy(std::string_view game_id) {
  if (game_id == "pinocchio") return &basic_pinocchio;
  if (game_id == "naked-gibbon") return &basic_naked_gibbon;
  if (game_id == "fib-fibonacci") return &basic_fib_fibonacci;
  if (game_id == "spider-monkey") return &basic_spider_monkey;
  if (game_id == "tricky-tribes") return &basic_tricky_tribes;
  return nullptr;
}

}  // namespace campfire::bots
