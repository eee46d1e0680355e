// The one source of randomness for every engine.
//
// Algorithm: xoshiro256** (Blackman and Vigna, 2018) seeded through SplitMix64; bounded integers
// by rejection sampling on a power-of-two mask, and an explicit Fisher-Yates shuffle. The standard
// library's shuffle and distributions are never used: their output differs between library
// implementations and a journal replayed elsewhere must give the same game.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace campfire {

class Rng {
 public:
  explicit Rng(std::uint64_t seed = 0) { reseed(seed); }

  void reseed(std::uint64_t seed) {
    for (auto& word : s_) word = splitmix64(seed);
  }

  std::uint64_t next() {
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }

  // Uniform in [0, bound); bound must be positive. Rejection keeps it exactly uniform.
  std::uint64_t below(std::uint64_t bound) {
    if (bound <= 1) return 0;
    std::uint64_t mask = bound - 1;
    mask |= mask >> 1;
    mask |= mask >> 2;
    mask |= mask >> 4;
    mask |= mask >> 8;
    mask |= mask >> 16;
    mask |= mask >> 32;
    for (;;) {
      const std::uint64_t x = next() & mask;
      if (x < bound) return x;
    }
  }

  // Fisher-Yates, from the back: element i swaps with a uniform position in [0, i].
  template <class T>
  void shuffle(std::vector<T>& items) {
    for (std::size_t i = items.size(); i > 1; --i) {
      const std::size_t j = static_cast<std::size_t>(below(i));
      std::swap(items[i - 1], items[j]);
    }
  }

  bool operator==(const Rng&) const = default;

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  static std::uint64_t splitmix64(std::uint64_t& state) {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }

  std::array<std::uint64_t, 4> s_{};
};

}  // namespace campfire
