// A small streaming JSON writer for the hot path: a game that writes its view as text with it
// skips building and destroying a JSON tree per seat per move. It writes exactly what
// nlohmann's dump() writes for the same document (compact, strings as UTF-8 with the same
// escapes) as long as the caller emits object keys in sorted order, as nlohmann's objects keep
// them; the generic engine tests compare the two byte for byte.
#pragma once

#include <concepts>
#include <string>
#include <string_view>

namespace campfire {

class JsonOut {
 public:
  explicit JsonOut(std::string& out) : out_(out) {}

  JsonOut& begin_object() { return open('{'); }
  JsonOut& end_object() { return close('}'); }
  JsonOut& begin_array() { return open('['); }
  JsonOut& end_array() { return close(']'); }

  // An object member's name; its value comes next.
  JsonOut& key(std::string_view name) {
    separate();
    append_string(name);
    out_ += ':';
    first_ = true;
    return *this;
  }

  JsonOut& value(std::string_view s) {
    separate();
    append_string(s);
    return done();
  }
  JsonOut& value(const char* s) { return value(std::string_view(s)); }
  JsonOut& value(bool b) {
    separate();
    out_ += b ? "true" : "false";
    return done();
  }
  template <std::integral T>
    requires(!std::same_as<T, bool>)
  JsonOut& value(T n) {
    separate();
    out_ += std::to_string(n);
    return done();
  }
  JsonOut& null() {
    separate();
    out_ += "null";
    return done();
  }
  // Text that is already JSON (a part serialised elsewhere).
  JsonOut& raw(std::string_view json_text) {
    separate();
    out_ += json_text;
    return done();
  }

  // Shorthands for one member.
  template <class T>
  JsonOut& member(std::string_view name, const T& v) {
    return key(name).value(v);
  }
  // An array of numbers or strings.
  template <class Range>
  JsonOut& array(const Range& items) {
    begin_array();
    for (const auto& item : items) value(item);
    return end_array();
  }

 private:
  JsonOut& open(char c) {
    separate();
    out_ += c;
    first_ = true;
    return *this;
  }
  JsonOut& close(char c) {
    out_ += c;
    return done();
  }
  JsonOut& done() {
    first_ = false;
    return *this;
  }
  void separate() {
    if (!first_) out_ += ',';
  }

  // The escapes nlohmann's dump() uses: the two-character forms where JSON has them, \u00xx
  // (lower-case hex) for the other control characters, everything else as it is.
  void append_string(std::string_view s) {
    out_ += '"';
    std::size_t run = 0;  // start of the stretch that needs no escaping
    for (std::size_t i = 0; i < s.size(); ++i) {
      const auto c = static_cast<unsigned char>(s[i]);
      if (c >= 0x20 && c != '"' && c != '\\') continue;
      out_.append(s.data() + run, i - run);
      run = i + 1;
      switch (c) {
        case '"': out_ += "\\\""; break;
        case '\\': out_ += "\\\\"; break;
        case '\b': out_ += "\\b"; break;
        case '\f': out_ += "\\f"; break;
        case '\n': out_ += "\\n"; break;
        case '\r': out_ += "\\r"; break;
        case '\t': out_ += "\\t"; break;
        default: {
          static constexpr char kHex[] = "0123456789abcdef";
          out_ += "\\u00";
          out_ += kHex[c >> 4];
          out_ += kHex[c & 0xF];
        }
      }
    }
    out_.append(s.data() + run, s.size() - run);
    out_ += '"';
  }

  std::string& out_;
  bool first_ = true;  // nothing written yet at this level, or a key waits for its value
};

}  // namespace campfire
