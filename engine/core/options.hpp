// Per-game option declarations (variants and extensions of a rule text) and their validation.
#pragma once

#include <nlohmann/json.hpp>

#include <memory>
#include <string>
#include <vector>

#include "engine/core/types.hpp"

namespace campfire {

using json = nlohmann::json;

struct OptionSpec {
  enum class Type { kBool, kInt, kChoice };

  std::string key;
  Type type = Type::kBool;
  json default_value;
  std::string description;
  int min = 0;                       // kInt only
  int max = 0;                       // kInt only
  std::vector<std::string> choices;  // kChoice only

  static OptionSpec boolean(std::string key, bool def, std::string description);
  static OptionSpec integer(std::string key, int def, int min, int max, std::string description);
  static OptionSpec choice(std::string key, std::string def, std::vector<std::string> choices,
                           std::string description);

  json to_json() const;
};

// A validated option set: every declared key present with a value of the declared type. It never
// changes once parsed, so copies share one set of values (a room keeps its match's and lists it
// in the lobby without a second copy).
class Options {
 public:
  Options() = default;

  // Fills defaults and checks keys, types and ranges against the declaration.
  static Expected<Options> parse(const std::vector<OptionSpec>& specs, const json& given);

  bool get_bool(const std::string& key) const { return values_->at(key).get<bool>(); }
  int get_int(const std::string& key) const { return values_->at(key).get<int>(); }
  std::string get_choice(const std::string& key) const {
    return values_->at(key).get<std::string>();
  }
  const json& to_json() const { return *values_; }

 private:
  // The empty set, shared by every default-made Options.
  static const std::shared_ptr<const json>& none();

  std::shared_ptr<const json> values_ = none();
};

}  // namespace campfire
