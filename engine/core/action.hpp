// The compact in-memory form of a move. Each game defines what its kinds and arguments mean and
// converts them to and from the JSON objects clients send (Game::action_to_json / action_from_json).
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>

namespace campfire {

struct Action {
  static constexpr int kMaxArgs = 12;
  // Reserved for the system's window timeout; args[0] is the window id it closes.
  static constexpr std::uint8_t kTimeout = 0xFF;

  std::uint8_t kind = 0;
  std::uint8_t argc = 0;
  std::array<std::int32_t, kMaxArgs> args{};

  // Actions are always built through make(), so unused arguments are zero and == is exact.
  static Action make(std::uint8_t kind, std::initializer_list<std::int32_t> args = {}) {
    Action a;
    a.kind = kind;
    for (std::int32_t v : args) a.args[a.argc++] = v;
    return a;
  }
  static Action timeout(std::int32_t window_id) { return make(kTimeout, {window_id}); }

  void push(std::int32_t v) { args[argc++] = v; }
  std::int32_t arg(int i) const { return args[i]; }
  bool is_timeout() const { return kind == kTimeout; }
  bool operator==(const Action&) const = default;
};

}  // namespace campfire
