// Basic vocabulary shared by every game: seats, seat sets, cards and errors.
#pragma once

#include <bit>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace campfire {

// Seats are numbered 0..n-1 clockwise (docs/rules/README.md C1). Negative values name the two
// non-seat viewers: a spectator sees only what is public, the system sends timeouts.
using Seat = int;
inline constexpr Seat kSpectator = -1;
inline constexpr Seat kSystem = -2;
inline constexpr int kMaxSeats = 16;

// A small set of seats as a bit mask; games never have more than kMaxSeats.
class SeatSet {
 public:
  constexpr SeatSet() = default;
  static constexpr SeatSet of(Seat s) { return SeatSet(1u << s); }
  static constexpr SeatSet all(int seats) { return SeatSet((1u << seats) - 1u); }
  static constexpr SeatSet from_bits(std::uint32_t bits) { return SeatSet(bits); }

  constexpr bool contains(Seat s) const { return s >= 0 && s < kMaxSeats && (bits_ >> s) & 1u; }
  constexpr void insert(Seat s) { bits_ |= 1u << s; }
  constexpr void erase(Seat s) { bits_ &= ~(1u << s); }
  constexpr bool empty() const { return bits_ == 0; }
  constexpr int size() const { return std::popcount(bits_); }
  constexpr std::uint32_t bits() const { return bits_; }
  // The lowest seat in the set; only meaningful when not empty.
  constexpr Seat first() const { return std::countr_zero(bits_); }
  constexpr bool operator==(const SeatSet&) const = default;

  template <class F>
  void for_each(F&& f) const {
    for (std::uint32_t b = bits_; b; b &= b - 1) f(static_cast<Seat>(std::countr_zero(b)));
  }

 private:
  constexpr explicit SeatSet(std::uint32_t bits) : bits_(bits) {}
  std::uint32_t bits_ = 0;
};

// A card is a small per-game code (each game documents its own numbering and notation).
using Card = std::uint8_t;
inline constexpr Card kNoCard = 0xFF;

// Why a request was refused: a stable machine-readable code and words for a person.
struct Error {
  std::string code;
  std::string message;
};

// Either a value or the Error explaining why there is none.
template <class T>
class Expected {
 public:
  Expected(T value) : v_(std::move(value)) {}            // NOLINT: implicit by design
  Expected(Error error) : v_(std::move(error)) {}        // NOLINT
  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() { return std::get<0>(v_); }
  const T& value() const { return std::get<0>(v_); }
  T& operator*() { return value(); }
  const T& operator*() const { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  const Error& error() const { return std::get<1>(v_); }

 private:
  std::variant<T, Error> v_;
};

// The result of an apply: empty when accepted, otherwise the refusal.
using Status = std::optional<Error>;

inline Error make_error(std::string code, std::string message) {
  return Error{std::move(code), std::move(message)};
}

}  // namespace campfire
