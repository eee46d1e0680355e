#include "engine/core/options.hpp"

#include <algorithm>
#include <memory>
#include <utility>

namespace campfire {

OptionSpec OptionSpec::boolean(std::string key, bool def, std::string description) {
  OptionSpec s;
  s.key = std::move(key);
  s.type = Type::kBool;
  s.default_value = def;
  s.description = std::move(description);
  return s;
}

OptionSpec OptionSpec::integer(std::string key, int def, int min, int max,
                               std::string description) {
  OptionSpec s;
  s.key = std::move(key);
  s.type = Type::kInt;
  s.default_value = def;
  s.min = min;
  s.max = max;
  s.description = std::move(description);
  return s;
}

OptionSpec OptionSpec::choice(std::string key, std::string def, std::vector<std::string> choices,
                              std::string description) {
  OptionSpec s;
  s.key = std::move(key);
  s.type = Type::kChoice;
  s.default_value = std::move(def);
  s.choices = std::move(choices);
  s.description = std::move(description);
  return s;
}

json OptionSpec::to_json() const {
  json j = {{"key", key}, {"default", default_value}, {"description", description}};
  switch (type) {
    case Type::kBool:
      j["type"] = "bool";
      break;
    case Type::kInt:
      j["type"] = "int";
      j["min"] = min;
      j["max"] = max;
      break;
    case Type::kChoice:
      j["type"] = "choice";
      j["choices"] = choices;
      break;
  }
  return j;
}

Expected<Options> Options::parse(const std::vector<OptionSpec>& specs, const json& given) {
  if (!given.is_null() && !given.is_object()) {
    return make_error("bad_options", "options must be a JSON object");
  }
  json values = json::object();
  if (given.is_object()) {
    for (const auto& item : given.items()) {
      // A named copy, not a structured binding: clang 14 cannot capture those in a lambda.
      const std::string& key = item.key();
      const bool known = std::any_of(specs.begin(), specs.end(),
                                     [&](const OptionSpec& s) { return s.key == key; });
      if (!known) return make_error("bad_options", "unknown option '" + key + "'");
    }
  }
  for (const OptionSpec& spec : specs) {
    const json* value = &spec.default_value;
    if (given.is_object()) {
      auto it = given.find(spec.key);
      if (it != given.end()) value = &*it;
    }
    switch (spec.type) {
      case OptionSpec::Type::kBool:
        if (!value->is_boolean()) {
          return make_error("bad_options", "option '" + spec.key + "' must be true or false");
        }
        break;
      case OptionSpec::Type::kInt: {
        if (!value->is_number_integer()) {
          return make_error("bad_options", "option '" + spec.key + "' must be a whole number");
        }
        const auto v = value->get<long long>();
        if (v < spec.min || v > spec.max) {
          return make_error("bad_options", "option '" + spec.key + "' must be between " +
                                               std::to_string(spec.min) + " and " +
                                               std::to_string(spec.max));
        }
        break;
      }
      case OptionSpec::Type::kChoice: {
        const bool listed = value->is_string() &&
                            std::find(spec.choices.begin(), spec.choices.end(),
                                      value->get<std::string>()) != spec.choices.end();
        if (!listed) {
          std::string list;
          for (const auto& c : spec.choices) list += (list.empty() ? "" : ", ") + c;
          return make_error("bad_options", "option '" + spec.key + "' must be one of: " + list);
        }
        break;
      }
    }
    values[spec.key] = *value;
  }
  Options out;
  out.values_ = std::make_shared<const json>(std::move(values));
  return out;
}

const std::shared_ptr<const json>& Options::none() {
  static const auto empty = std::make_shared<const json>(json::object());
  return empty;
}

}  // namespace campfire
