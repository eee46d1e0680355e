// Provably fair shuffles: what a room commits to before anyone plays, how the seed of its shuffle
// is derived from the server's secret and the players' entropy, and how a finished game's replay
// is checked against both. The words and encodings are those of protocol/PROTOCOL.md ("Fair
// shuffles"); anyone can recompute them with a SHA-256 tool.
//
//   commitment  = SHA-256("campfire-commitment-v1:" + serverSeed)
//   material    = "campfire-seed-v1:" + serverSeed + ":" + c0 + ":" + c1 + ... + ":" + c(n-1)
//   derivedSeed = SHA-256(material)
//   seed        = the first 8 bytes of derivedSeed as a big-endian unsigned 64-bit integer
//
// serverSeed is 64 lowercase hex digits (32 random bytes); c_s is seat s's contribution in
// lowercase hex, or empty when the seat gave none. Hashes are written as lowercase hex.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/game.hpp"
#include "engine/core/registry.hpp"
#include "engine/core/types.hpp"
#include "protocol/requests.hpp"

namespace campfire::fairness {

using json = nlohmann::json;

inline constexpr std::string_view kCommitmentPrefix = "campfire-commitment-v1:";
inline constexpr std::string_view kSeedPrefix = "campfire-seed-v1:";
// A contribution: 16 to 128 hex digits (8 to 64 bytes), either case; kept in lowercase. The
// protocol reads it (`contribute`), so its form is the protocol's.
using protocol::kMaxEntropyDigits;
using protocol::kMinEntropyDigits;

std::string sha256_hex(std::string_view bytes);
// 32 bytes from the operating system's generator, as 64 lowercase hex digits.
std::string new_server_seed();
std::string commitment(std::string_view server_seed);
// The contribution in lowercase, or an error (`bad_request`) saying what is wrong with it.
inline Expected<std::string> parse_entropy(const json& value) {
  return protocol::clean_entropy(value);
}

struct Derivation {
  std::string material;  // the exact bytes hashed
  std::string digest;    // derivedSeed, 64 hex digits
  std::uint64_t seed = 0;
};
// `contributions` has one entry per seat, empty for a seat that gave none.
Derivation derive(std::string_view server_seed, const std::vector<std::string>& contributions);

// The game's cards in the engine's fixed order, and the order a seed deals them (top card first),
// as card codes.
json cards(const Game& game, const Options& options, int seats);
json dealt(const Game& game, const Options& options, int seats, std::uint64_t seed);

// What a room keeps about its shuffle. A room whose deal was fixed by its creator (a test-mode
// `seed` or `deckOrder`) has no server seed and takes no contributions.
struct Record {
  bool fixed = false;
  std::string server_seed;                 // empty when fixed
  std::string commitment_hex;              // commitment(server_seed), once; empty when fixed
  std::vector<std::string> contributions;  // per seat; empty when none

  static Record fresh(int seats);
  static Record fixed_deal(int seats);
  // The seed the game is dealt from (when not fixed).
  Derivation derivation() const;
  // The state's `fairness`: the commitment and which seats contributed, never what.
  json public_json() const;
  // What the journal keeps (the server seed is secret until the end; the contributions are kept
  // with their seats).
  json stored_json() const;
  static std::optional<Record> from_stored(const json& stored, int seats);
  // The replay's `fairness` of a game dealt from `seed` (or from `deck_order` when it is an
  // array): everything needed to check it.
  json reveal(const Game& game, const Options& options, int seats, std::uint64_t seed,
              const json& deck_order) const;
};

// The outcome of checking a replay: `fair` when every check passed; otherwise each difference
// in words. `checks` lists what was checked, for the report.
struct Verdict {
  bool fair = false;
  std::vector<std::string> problems;
  std::vector<std::string> checks;
};
Verdict verify(const Registry& registry, const json& replay);

}  // namespace campfire::fairness
