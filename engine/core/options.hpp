// Per-game option declarations (variants and extensions of a rule text) and their validation.
#pragma once

#include <nlohmann/json.hpp>

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

// A validated option set: every declared key present with a value of the declared type.
class Options {
 public:
  Options() = default;

  // Fills defaults and checks keys, types and ranges against the declaration.
  static Expected<Options> parse(const std::vector<OptionSpec>& specs, const json& given);

  bool get_bool(const std::string& key) const { return values_.at(key).get<bool>(); }
  int get_int(const std::string& key) const { return values_.at(key).get<int>(); }
  std::string get_choice(const std::string& key) const {
    return values_.at(key).get<std::string>();
  }
  const json& to_json() const { return values_; }

 private:
  json values_ = json::object();
};

}  // namespace campfire
