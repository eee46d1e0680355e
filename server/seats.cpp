#include "server/seats.hpp"

#include <openssl/evp.h>
#include <openssl/rand.h>

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <utility>

namespace campfire::server {

void Seats::seat_player(int seat, std::string name, std::string token_hash,
                        const std::shared_ptr<Client>& client, std::size_t from_move) {
  Info& info = (*this)[seat];
  info.occupant = Occupant::kHuman;
  info.name = std::move(name);
  info.names = {{info.name, from_move}};
  info.token_hash = std::move(token_hash);
  info.client = client;
}

void Seats::seat_bot(int seat, std::string name, std::string strategy,
                     std::unique_ptr<bots::Strategy> bot) {
  Info& info = (*this)[seat];
  info.occupant = Occupant::kBot;
  info.name = std::move(name);
  info.names = {{info.name, 0}};
  info.bot = std::move(bot);
  info.bot_name = std::move(strategy);
}

void Seats::restore(int seat, const StoredSeat& stored, std::unique_ptr<bots::Strategy> bot) {
  Info& info = (*this)[seat];
  info.occupant = stored.bot.empty() ? Occupant::kHuman : Occupant::kBot;
  info.name = stored.name;
  info.names = stored.names.empty() ? std::vector<SeatName>{{stored.name, 0}} : stored.names;
  info.token_hash = stored.token_hash;
  if (!stored.bot.empty()) {
    info.bot = std::move(bot);
    info.bot_name = stored.bot;
  }
}

void Seats::go_away(int seat, std::unique_ptr<bots::Strategy> bot) {
  Info& info = (*this)[seat];
  info.occupant = Occupant::kAway;
  info.bot = std::move(bot);
}

void Seats::come_back(int seat, const std::shared_ptr<Client>& client) {
  Info& info = (*this)[seat];
  info.client = client;
  if (info.occupant == Occupant::kAway) {
    info.occupant = Occupant::kHuman;
    info.bot.reset();
  }
}

void Seats::free(int seat) {
  (*this)[seat] = Info{};
}

bool Seats::rename(int seat, std::string name, std::size_t from_move) {
  Info& info = (*this)[seat];
  if (name.empty() || name == info.name) return false;
  info.name = std::move(name);
  // Moves already made keep the old name; the new one applies from `from_move`.
  if (!info.names.empty() && info.names.back().from_move == from_move) info.names.pop_back();
  if (info.names.empty() || info.names.back().name != info.name) {
    info.names.push_back({info.name, from_move});
  }
  return true;
}

void Seats::forget(const Client* client) {
  for (Info& info : seats_) {
    if (!info.bot_plays() && info.client.lock().get() == client) info.client.reset();
  }
}

std::optional<int> Seats::of(const Client* client) const {
  for (int s = 0; s < size(); ++s) {
    const Info& info = (*this)[s];
    if (info.player() && info.client.lock().get() == client) return s;
  }
  return std::nullopt;
}

std::optional<int> Seats::by_token(const std::string& token) const {
  if (token.empty()) return std::nullopt;
  const std::string hash = hash_token(token);
  for (int s = 0; s < size(); ++s) {
    const Info& info = (*this)[s];
    if (info.player() && !info.token_hash.empty() && info.token_hash == hash) return s;
  }
  return std::nullopt;
}

std::optional<int> Seats::first_empty(std::optional<int> only) const {
  for (int s = 0; s < size(); ++s) {
    if ((!only || *only == s) && !(*this)[s].taken()) return s;
  }
  return std::nullopt;
}

bool Seats::full() const {
  return std::all_of(seats_.begin(), seats_.end(), [](const Info& s) { return s.taken(); });
}

int Seats::taken() const {
  return static_cast<int>(
      std::count_if(seats_.begin(), seats_.end(), [](const Info& s) { return s.taken(); }));
}

int Seats::bots() const {
  return static_cast<int>(
      std::count_if(seats_.begin(), seats_.end(), [](const Info& s) { return s.bot_plays(); }));
}

int Seats::connected_players() const {
  return static_cast<int>(std::count_if(seats_.begin(), seats_.end(), [](const Info& s) {
    return s.player() && !s.client.expired();
  }));
}

std::string new_token() {
  // From the process's one cryptographic generator, seeded once by the operating system (the
  // one that makes the shuffles' server seeds), rather than a source opened for every token.
  unsigned char bytes[16];
  if (RAND_bytes(bytes, sizeof bytes) != 1) {
    throw std::runtime_error("the system's random generator failed");
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out(2 * sizeof bytes, '0');
  for (std::size_t i = 0; i < sizeof bytes; ++i) {
    out[2 * i] = kHex[bytes[i] >> 4];
    out[2 * i + 1] = kHex[bytes[i] & 0xf];
  }
  return out;
}

std::string hash_token(const std::string& token) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  EVP_Digest(token.data(), token.size(), digest, &length, EVP_sha256(), nullptr);
  // Every player's seat keeps its hash for the room's life: sized once, not grown by doubling.
  std::string hex;
  hex.reserve(2 * length);
  char buf[3];
  for (unsigned int i = 0; i < length; ++i) {
    std::snprintf(buf, sizeof buf, "%02x", digest[i]);
    hex += buf;
  }
  return hex;
}

}  // namespace campfire::server
