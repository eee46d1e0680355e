// A JSON Schema (2020-12) validator for the keywords the games' declarations produce
// (engine/core/schema.cpp): type, const, enum, minimum, maximum, items, minItems, maxItems,
// properties, required, additionalProperties: false, anyOf, oneOf and "#/$defs/..." references.
// Any other keyword is an error, so a schema this validator cannot fully judge never passes.
// Fast enough to check the views, moves and events of the generic suite's playouts; the schema
// test checks a sample with Debian's python3-jsonschema as well.
#pragma once

#include <nlohmann/json.hpp>

#include <algorithm>
#include <optional>
#include <string>
#include <unordered_map>

namespace campfire::testing {

class SchemaCheck {
 public:
  using json = nlohmann::json;

  explicit SchemaCheck(json document) : doc_(std::move(document)) {
    for (const auto& [name, def] : doc_.at("$defs").items()) refs_.emplace("#/$defs/" + name, &def);
  }
  // refs_ points into doc_'s nodes, which a move keeps and a copy would not.
  SchemaCheck(SchemaCheck&&) = default;
  SchemaCheck(const SchemaCheck&) = delete;
  SchemaCheck& operator=(const SchemaCheck&) = delete;

  // Why `instance` does not match $defs/`def` (with the path inside it); nullopt when it does.
  // A quick pass that builds no text decides; only a mismatch is walked again for its reason.
  std::optional<std::string> check(const json& instance, const std::string& def) const {
    const json& schema = doc_.at("$defs").at(def);
    if (matches(instance, schema)) return std::nullopt;
    if (auto why = at(instance, schema, "")) return why;
    return "the quick check and the explained check disagree";
  }

 private:
  // The same judgement as at(), without reasons: no strings are built on the way.
  bool matches(const json& v, const json& s) const {
    for (const auto& [key, rule] : s.items()) {
      if (key == "description" || key == "title" || key == "$schema" || key == "$defs") continue;
      if (key == "$ref") {
        const auto it = refs_.find(rule.get_ref<const std::string&>());
        if (it == refs_.end() || !matches(v, *it->second)) return false;
      } else if (key == "type") {
        if (!has_type(v, rule.get_ref<const std::string&>())) return false;
      } else if (key == "const") {
        if (v != rule) return false;
      } else if (key == "enum") {
        if (std::find(rule.begin(), rule.end(), v) == rule.end()) return false;
      } else if (key == "minimum") {
        if (v.is_number() && v.get<double>() < rule.get<double>()) return false;
      } else if (key == "maximum") {
        if (v.is_number() && v.get<double>() > rule.get<double>()) return false;
      } else if (key == "minItems") {
        if (v.is_array() && v.size() < rule.get<std::size_t>()) return false;
      } else if (key == "maxItems") {
        if (v.is_array() && v.size() > rule.get<std::size_t>()) return false;
      } else if (key == "items") {
        if (!v.is_array()) continue;
        for (const json& item : v) {
          if (!matches(item, rule)) return false;
        }
      } else if (key == "properties") {
        if (!v.is_object()) continue;
        for (const auto& [name, sub] : rule.items()) {
          const auto it = v.find(name);
          if (it != v.end() && !matches(*it, sub)) return false;
        }
      } else if (key == "required") {
        if (!v.is_object()) continue;
        for (const json& name : rule) {
          if (v.find(name.get_ref<const std::string&>()) == v.end()) return false;
        }
      } else if (key == "additionalProperties") {
        if (rule != json(false)) return false;
        if (!v.is_object()) continue;
        const auto declared = s.find("properties");
        for (const auto& [name, unused] : v.items()) {
          if (declared == s.end() || declared->find(name) == declared->end()) return false;
        }
      } else if (key == "anyOf" || key == "oneOf") {
        int matched = 0;
        for (const json& alternative : rule) {
          if (matches(v, alternative)) ++matched;
          if (matched > 0 && key == "anyOf") break;
        }
        if (matched == 0 || (key == "oneOf" && matched > 1)) return false;
      } else {
        return false;
      }
    }
    return true;
  }

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
  std::unordered_map<std::string, const json*> refs_;  // "#/$defs/<name>" -> its schema
};

}  // namespace campfire::testing
