// A view is written once and read in two forms: as JSON text, which the room sends after every
// move to every seat, and as a tree (nlohmann::json), which bots and tests read. A game writes its
// view against ViewWriter; the text sink turns the calls into bytes and the tree sink into
// nodes, so the two forms come from the same code and cannot drift apart.
//
// A game writes each object's members in name order (byte order of the names, as the tree's
// dump() orders them), so the text is exactly view().dump() with no re-ordering in the writer.
// Builds without NDEBUG (the sanitizer build) check that order as they write; the generic
// engine tests hold every view's text to the bytes of its tree in every build.
#pragma once

#include <nlohmann/json.hpp>

#include <charconv>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace campfire {

using json = nlohmann::json;

// Whether ViewWriter checks the order: every member name is compared with the one before it in
// its object, and a name that does not come after it throws std::logic_error naming the object
// and both names. Only where NDEBUG is not defined (the sanitizer build): elsewhere a view
// costs no check.
#ifdef NDEBUG
inline constexpr bool kViewWriterChecksOrder = false;
#else
inline constexpr bool kViewWriterChecksOrder = true;
#endif

class ViewWriter {
 public:
  virtual ~ViewWriter() = default;

  ViewWriter& begin_object() {
    if constexpr (kViewWriterChecksOrder) check_open(true);
    open_object();
    return *this;
  }
  ViewWriter& end_object() {
    if constexpr (kViewWriterChecksOrder) check_close();
    close_object();
    return *this;
  }
  ViewWriter& begin_array() {
    if constexpr (kViewWriterChecksOrder) check_open(false);
    open_array();
    return *this;
  }
  ViewWriter& end_array() {
    if constexpr (kViewWriterChecksOrder) check_close();
    close_array();
    return *this;
  }
  // An object member's name; its value comes next. Names come in strictly increasing byte
  // order within an object (so none twice), the order of the tree's dump().
  ViewWriter& key(std::string_view name) {
    if constexpr (kViewWriterChecksOrder) check_key(name);
    write_key(name);
    return *this;
  }

  ViewWriter& value(std::string_view s) {
    if constexpr (kViewWriterChecksOrder) check_item();
    write_string(s);
    return *this;
  }
  ViewWriter& value(const char* s) { return value(std::string_view(s)); }
  ViewWriter& value(const std::string& s) { return value(std::string_view(s)); }
  ViewWriter& value(bool b) {
    if constexpr (kViewWriterChecksOrder) check_item();
    write_bool(b);
    return *this;
  }
  template <std::integral T>
  requires(!std::same_as<T, bool>) ViewWriter& value(T n) {
    if constexpr (kViewWriterChecksOrder) check_item();
    write_integer(static_cast<std::int64_t>(n));
    return *this;
  }
  ViewWriter& null() {
    if constexpr (kViewWriterChecksOrder) check_item();
    write_null();
    return *this;
  }

  // One member.
  template <class T>
  ViewWriter& member(std::string_view name, const T& v) {
    return key(name).value(v);
  }
  // An array of numbers, booleans or strings.
  template <class Range>
  ViewWriter& array(const Range& items) {
    begin_array();
    for (const auto& item : items) value(item);
    return end_array();
  }

 protected:
  virtual void open_object() = 0;
  virtual void close_object() = 0;
  virtual void open_array() = 0;
  virtual void close_array() = 0;
  virtual void write_key(std::string_view name) = 0;
  virtual void write_string(std::string_view s) = 0;
  virtual void write_bool(bool b) = 0;
  virtual void write_integer(std::int64_t n) = 0;
  virtual void write_null() = 0;

 private:
  // The order check (where kViewWriterChecksOrder). Each open container, outermost first: for
  // an object its latest member name, for an array how many items it has so far; the path a
  // failure names ("$.pile[3]") is read from them.
  struct Open {
    bool object = false;
    std::size_t items = 0;
    std::string last;
  };
  void check_open(bool object);
  void check_close();
  void check_key(std::string_view name);
  void check_item();
  std::string open_path() const;

  std::vector<Open> open_;
};

// Appends compact JSON text to a string, strings escaped as nlohmann's dump() escapes them.
class TextWriter final : public ViewWriter {
 public:
  explicit TextWriter(std::string& out) : out_(out) {}

 private:
  void open_object() override { open('{'); }
  void close_object() override { close('}'); }
  void open_array() override { open('['); }
  void close_array() override { close(']'); }
  void write_key(std::string_view name) override {
    separate();
    append_string(name);
    out_ += ':';
    first_ = true;
  }
  void write_string(std::string_view s) override {
    separate();
    append_string(s);
    first_ = false;
  }
  void write_bool(bool b) override {
    separate();
    out_ += b ? "true" : "false";
    first_ = false;
  }
  void write_integer(std::int64_t n) override {
    separate();
    char digits[24];
    const auto end = std::to_chars(digits, digits + sizeof digits, n).ptr;
    out_.append(digits, end);
    first_ = false;
  }
  void write_null() override {
    separate();
    out_ += "null";
    first_ = false;
  }

  void open(char c) {
    separate();
    out_ += c;
    first_ = true;
  }
  void close(char c) {
    out_ += c;
    first_ = false;
  }
  void separate() {
    if (!first_) out_ += ',';
  }
  void append_string(std::string_view s);

  std::string& out_;
  bool first_ = true;  // nothing written yet at this level, or a key waits for its value
};

// Builds the same document as a tree.
class TreeWriter final : public ViewWriter {
 public:
  // The document written so far (the whole of it once every container is closed).
  json take() { return std::move(root_); }

 private:
  void open_object() override { open_.push_back(&place(json::object())); }
  void close_object() override { open_.pop_back(); }
  void open_array() override { open_.push_back(&place(json::array())); }
  void close_array() override { open_.pop_back(); }
  void write_key(std::string_view name) override { key_.assign(name); }
  void write_string(std::string_view s) override { place(json(s)); }
  void write_bool(bool b) override { place(json(b)); }
  void write_integer(std::int64_t n) override { place(json(n)); }
  void write_null() override { place(json(nullptr)); }

  json& place(json v);

  json root_;
  std::vector<json*> open_;  // the containers being filled, innermost last
  std::string key_;          // the member name waiting for its value
};

}  // namespace campfire
