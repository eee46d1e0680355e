// Move-choosing strategies shared by campfire-bot and the server's seat-filling bots. A strategy
// sees exactly what a client sees: its view and its legal actions.
#pragma once

#include <nlohmann/json.hpp>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/rng.hpp"

namespace campfire::bot {

using json = nlohmann::json;

class Strategy {
 public:
  virtual ~Strategy() = default;
  // The index of the chosen entry of `legal` (never empty).
  virtual std::size_t choose(const json& view, const json& legal, Rng& rng) = 0;
};

// "random": uniform over the legal actions. Returns null for an unknown name.
std::unique_ptr<Strategy> make_strategy(std::string_view name);
const std::vector<std::string>& strategy_names();

}  // namespace campfire::bot
