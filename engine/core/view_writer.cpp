#include "engine/core/view_writer.hpp"

#include <stdexcept>

namespace campfire {

void ViewWriter::check_open(bool object) {
  check_item();
  open_.push_back(Open{object, 0, {}});
}

void ViewWriter::check_close() {
  if (!open_.empty()) open_.pop_back();
}

void ViewWriter::check_key(std::string_view name) {
  if (open_.empty() || !open_.back().object) return;
  Open& o = open_.back();
  if (o.items > 0 && name <= o.last) {
    const std::string what =
        name == o.last ? "names member \"" + o.last + "\" twice"
                       : "has member \"" + std::string(name) + "\" after \"" + o.last + "\"";
    throw std::logic_error("the object at " + open_path() + " " + what +
                           ": write each object's members in name order, as dump() orders them");
  }
  o.last.assign(name);
  ++o.items;
}

void ViewWriter::check_item() {
  if (!open_.empty() && !open_.back().object) ++open_.back().items;
}

std::string ViewWriter::open_path() const {
  std::string path = "$";
  for (std::size_t i = 0; i + 1 < open_.size(); ++i) {
    const Open& o = open_[i];
    if (o.object) {
      path += "." + o.last;
    } else {
      path += "[" + std::to_string(o.items - 1) + "]";
    }
  }
  return path;
}

// The escapes nlohmann's dump() uses: the two-character forms where JSON has them, \u00xx
// (lower-case hex) for the other control characters, everything else as it is.
void TextWriter::append_string(std::string_view s) {
  out_ += '"';
  std::size_t run = 0;  // start of the stretch that needs no escaping
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out_.append(s.data() + run, i - run);
    run = i + 1;
    switch (c) {
      case '"':
        out_ += "\\\"";
        break;
      case '\\':
        out_ += "\\\\";
        break;
      case '\b':
        out_ += "\\b";
        break;
      case '\f':
        out_ += "\\f";
        break;
      case '\n':
        out_ += "\\n";
        break;
      case '\r':
        out_ += "\\r";
        break;
      case '\t':
        out_ += "\\t";
        break;
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

json& TreeWriter::place(json v) {
  if (open_.empty()) {
    root_ = std::move(v);
    return root_;
  }
  json& into = *open_.back();
  if (into.is_array()) {
    into.push_back(std::move(v));
    return into.back();
  }
  json& slot = into[key_];
  slot = std::move(v);
  return slot;
}

}  // namespace campfire
