// A JSON Schema (2020-12) validator for the keywords the games' declarations produce
// (engine/core/schema.cpp): type, const, enum, minimum, maximum, items, minItems, maxItems,
// properties, required, additionalProperties: false, anyOf, oneOf and "#/$defs/..." references.
// Any other keyword is an error, so a schema this validator cannot fully judge never passes.
// Fast enough to check every view, move and event of the generic suite's playouts; the schema
// test checks a sample with Debian's python3-jsonschema as well.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace campfire::testing {

class SchemaCheck {
 public:
  using json = nlohmann::json;

  explicit SchemaCheck(json document) : doc_(std::move(document)) {}

  // Why `instance` does not match $defs/`def` (with the path inside it); nullopt when it does.
  std::optional<std::string> check(const json& instance, const std::string& def) const {
    return at(instance, doc_.at("$defs").at(def), "");
  }

 private:
  static bool has_type(const json& v, const std::string& type) {
    if (type == "integer") return v.is_number_integer();
    if (type == "string") return v.is_string();
    if (type == "boolean") return v.is_boolean();
    if (type == "null") return v.is_null();
    if (type == "array") return v.is_array();
    if (type == "object") return v.is_object();
    return false;
  }

  std::optional<std::string> at(const json& v, const json& s, const std::string& path) const {
    const auto fail = [&](const std::string& why) {
      return std::optional<std::string>((path.empty() ? "/" : path) + ": " + why + " (" +
                                        v.dump().substr(0, 200) + ")");
    };
    for (const auto& [key, rule] : s.items()) {
      if (key == "description" || key == "title" || key == "$schema" || key == "$defs") continue;
      if (key == "$ref") {
        const std::string ref = rule.get<std::string>();
        const std::string prefix = "#/$defs/";
        if (ref.rfind(prefix, 0) != 0) return fail("unsupported reference " + ref);
        if (auto e = at(v, doc_.at("$defs").at(ref.substr(prefix.size())), path)) return e;
      } else if (key == "type") {
        if (!has_type(v, rule.get<std::string>())) return fail("not of type " + rule.dump());
      } else if (key == "const") {
        if (v != rule) return fail("not " + rule.dump());
      } else if (key == "enum") {
        bool found = false;
        for (const json& allowed : rule) found = found || v == allowed;
        if (!found) return fail("not one of " + rule.dump());
      } else if (key == "minimum") {
        if (v.is_number() && v.get<double>() < rule.get<double>())
          return fail("below " + rule.dump());
      } else if (key == "maximum") {
        if (v.is_number() && v.get<double>() > rule.get<double>())
          return fail("above " + rule.dump());
      } else if (key == "minItems") {
        if (v.is_array() && v.size() < rule.get<std::size_t>()) return fail("too few items");
      } else if (key == "maxItems") {
        if (v.is_array() && v.size() > rule.get<std::size_t>()) return fail("too many items");
      } else if (key == "items") {
        if (!v.is_array()) continue;
        for (std::size_t i = 0; i < v.size(); ++i) {
          if (auto e = at(v[i], rule, path + "/" + std::to_string(i))) return e;
        }
      } else if (key == "properties") {
        if (!v.is_object()) continue;
        for (const auto& [name, sub] : rule.items()) {
          const auto it = v.find(name);
          if (it == v.end()) continue;
          if (auto e = at(*it, sub, path + "/" + name)) return e;
        }
      } else if (key == "required") {
        if (!v.is_object()) continue;
        for (const json& name : rule) {
          if (!v.contains(name.get<std::string>())) return fail("lacks " + name.dump());
        }
      } else if (key == "additionalProperties") {
        if (rule != json(false)) return fail("unsupported additionalProperties " + rule.dump());
        if (!v.is_object()) continue;
        const json& declared = s.contains("properties") ? s.at("properties") : json::object();
        for (const auto& [name, unused] : v.items()) {
          if (!declared.contains(name)) return fail("undeclared member \"" + name + "\"");
        }
      } else if (key == "anyOf" || key == "oneOf") {
        int matched = 0;
        std::string reasons;
        for (const json& alternative : rule) {
          if (auto e = at(v, alternative, path)) {
            reasons += "\n    " + *e;
          } else {
            ++matched;
          }
        }
        if (matched == 0) return fail("matches none of " + key + ":" + reasons);
        if (key == "oneOf" && matched > 1) return fail("matches more than one of oneOf");
      } else {
        return fail("unsupported keyword " + key);
      }
    }
    return std::nullopt;
  }

  json doc_;
};

}  // namespace campfire::testing
