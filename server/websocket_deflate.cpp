#include "server/websocket_deflate.hpp"

#include <algorithm>
#include <array>
#include <cstring>

namespace campfire::server::ws {

namespace {

// DEFLATE's lengths (3-258) and distances (1-32768) as symbols with extra bits (RFC 1951, 3.2.5).
constexpr std::array<std::uint16_t, 29> kLengthBase = {3,  4,  5,  6,  7,  8,  9,  10,
                                                       11, 13, 15, 17, 19, 23, 27, 31,
                                                       35, 43, 51, 59, 67, 83, 99, 115,
                                                       131, 163, 195, 227, 258};
constexpr std::array<std::uint8_t, 29> kLengthExtra = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1,
                                                       1, 1, 2, 2, 2, 2, 3, 3, 3, 3,
                                                       4, 4, 4, 4, 5, 5, 5, 5, 0};
constexpr std::array<std::uint16_t, 30> kDistanceBase = {
    1,   2,   3,   4,   5,   7,    9,    13,   17,   25,   33,   49,   65,    97,    129,
    193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
constexpr std::array<std::uint8_t, 30> kDistanceExtra = {0, 0, 0, 0, 1, 1, 2,  2,  3,  3,
                                                         4, 4, 5, 5, 6, 6, 7,  7,  8,  8,
                                                         9, 9, 10, 10, 11, 11, 12, 12, 13, 13};

constexpr std::size_t kMinMatch = 4;
constexpr std::size_t kMaxMatch = 258;
constexpr std::size_t kStoredMax = 65535;

// Huffman codes go into the stream from their first bit, and the stream is written from each
// byte's lowest bit: a code is written reversed.
constexpr std::uint32_t reversed(std::uint32_t code, int bits) {
  std::uint32_t r = 0;
  for (int i = 0; i < bits; ++i) {
    r = (r << 1) | (code & 1);
    code >>= 1;
  }
  return r;
}

struct Code {
  std::uint32_t bits = 0;  // the code, reversed, with any extra bits above it
  std::uint8_t count = 0;  // how many bits
};

// The fixed literal/length code (RFC 1951, 3.2.6).
constexpr Code fixed_symbol(int symbol) {
  if (symbol < 144) return {reversed(0x30 + symbol, 8), 8};
  if (symbol < 256) return {reversed(0x190 + (symbol - 144), 9), 9};
  if (symbol < 280) return {reversed(symbol - 256, 7), 7};
  return {reversed(0xc0 + (symbol - 280), 8), 8};
}

struct Tables {
  std::array<Code, 256> literal;
  std::array<Code, kMaxMatch + 1> length;     // by length: the symbol's code and its extra bits
  std::array<std::uint8_t, 256> near;         // distance code by distance - 1, up to 256
  std::array<std::uint8_t, 256> far;          // distance code by (distance - 1) >> 7, beyond
  std::array<std::uint8_t, 30> distance;      // a distance code's five bits, reversed

  Tables() {
    for (int b = 0; b < 256; ++b) literal[b] = fixed_symbol(b);
    for (std::size_t c = 0; c < kLengthBase.size(); ++c) {
      const Code symbol = fixed_symbol(257 + static_cast<int>(c));
      const std::size_t span = std::size_t{1} << kLengthExtra[c];
      // 258 has a code of its own: the last of 284's span is never written with 284.
      for (std::size_t extra = 0; extra < span && kLengthBase[c] + extra <= kMaxMatch; ++extra) {
        length[kLengthBase[c] + extra] = {
            symbol.bits | static_cast<std::uint32_t>(extra << symbol.count),
            static_cast<std::uint8_t>(symbol.count + kLengthExtra[c])};
      }
    }
    for (std::size_t c = 0; c < kDistanceBase.size(); ++c) {
      distance[c] = static_cast<std::uint8_t>(reversed(static_cast<std::uint32_t>(c), 5));
      const std::uint32_t span = std::uint32_t{1} << kDistanceExtra[c];
      for (std::uint32_t d = kDistanceBase[c]; d < kDistanceBase[c] + span; ++d) {
        if (d <= 256) {
          near[d - 1] = static_cast<std::uint8_t>(c);
        } else {
          far[(d - 1) >> 7] = static_cast<std::uint8_t>(c);
        }
      }
    }
  }
};

const Tables& tables() {
  static const Tables t;
  return t;
}

// Bits into bytes, lowest first, as DEFLATE orders them.
class BitWriter {
 public:
  explicit BitWriter(std::string& out) : out_(out) {}
  void put(std::uint32_t bits, int count) {
    pending_ |= static_cast<std::uint64_t>(bits) << filled_;
    filled_ += count;
    if (filled_ >= 32) {
      for (int i = 0; i < 4; ++i) out_.push_back(static_cast<char>(pending_ >> (8 * i)));
      pending_ >>= 32;
      filled_ -= 32;
    }
  }
  // Writes what is left, the last byte padded with zeros.
  void align() {
    while (filled_ > 0) {
      out_.push_back(static_cast<char>(pending_));
      pending_ >>= 8;
      filled_ = std::max(0, filled_ - 8);
    }
  }

 private:
  std::string& out_;
  std::uint64_t pending_ = 0;
  int filled_ = 0;
};

std::uint32_t load32(const std::uint8_t* p) {
  std::uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

}  // namespace

Deflater::Deflater(const DeflateSettings& settings)
    : max_distance_((std::uint32_t{1} << std::clamp(settings.window_bits, 9, 15)) - 1),
      hash_shift_(32 - std::clamp(settings.hash_bits, 8, 16)),
      fresh_(settings.fresh_each_message),
      table_(std::size_t{1} << std::clamp(settings.hash_bits, 8, 16), 0) {}

void Deflater::compress(std::string_view message, std::string& out) {
  const Tables& t = tables();
  // Positions count everything seen; before they could overflow, they start again from the
  // history kept, whose places go back into the table.
  if (std::uint64_t{base_} + buffer_.size() + message.size() >= (std::uint64_t{1} << 32)) {
    base_ = 0;
    for (std::size_t k = 0; k + kMinMatch <= buffer_.size(); ++k) {
      table_[(load32(buffer_.data() + k) * 2654435761u) >> hash_shift_] =
          static_cast<std::uint16_t>(k);
    }
  }
  // The table and the history are read at scattered places, each a likely cache miss: a busy
  // server's compressor has usually been pushed out of the caches by the other connections'
  // frames since its last one. Asked for all at once, in order, the misses overlap.
  for (std::size_t k = 0; k < table_.size(); k += 64 / sizeof(std::uint16_t)) {
    __builtin_prefetch(table_.data() + k, 1);
  }
  for (std::size_t k = 0; k < buffer_.size(); k += 64) __builtin_prefetch(buffer_.data() + k);
  const std::size_t start = buffer_.size();
  buffer_.insert(buffer_.end(), message.begin(), message.end());
  const std::uint8_t* b = buffer_.data();
  const std::size_t end = buffer_.size();
  // Matches may start no earlier than the history kept (or this message, starting afresh).
  const std::uint32_t low = fresh_ ? base_ + static_cast<std::uint32_t>(start) : base_;

  out.clear();
  out.reserve(message.size() + message.size() / 8 + 16);
  BitWriter w(out);
  w.put(0b010, 3);  // a block, not the last, with the fixed codes
  std::size_t i = start;
  while (i + kMinMatch <= end) {
    const std::uint32_t v = load32(b + i);
    std::uint16_t& slot = table_[(v * 2654435761u) >> hash_shift_];
    const std::uint32_t here = base_ + static_cast<std::uint32_t>(i);
    // The table keeps a position's low 16 bits, which name it within any window: an entry left
    // from 64 KiB or more ago names some other place, which the bytes' comparison then refuses
    // unless it happens to match too (a match anyway).
    const std::uint32_t distance = static_cast<std::uint16_t>(here - slot);
    slot = static_cast<std::uint16_t>(here);
    if (distance != 0 && distance <= max_distance_ && distance <= here - low) {
      const std::uint32_t at = here - distance;
      if (load32(b + (at - base_)) == v) {
        const std::uint8_t* from = b + (at - base_);
        const std::size_t most = std::min(kMaxMatch, end - i);
        std::size_t length = kMinMatch;
        while (length < most && from[length] == b[i + length]) ++length;
        const Code& l = t.length[length];
        w.put(l.bits, l.count);
        const std::uint8_t c = distance <= 256 ? t.near[distance - 1] : t.far[(distance - 1) >> 7];
        w.put(t.distance[c] | ((distance - kDistanceBase[c]) << 5), 5 + kDistanceExtra[c]);
        // The places inside the match are remembered too: the next message repeats them.
        const std::size_t stop = i + length;
        for (std::size_t k = i + 1; k < stop && k + kMinMatch <= end; ++k) {
          table_[(load32(b + k) * 2654435761u) >> hash_shift_] =
              static_cast<std::uint16_t>(base_ + static_cast<std::uint32_t>(k));
        }
        i = stop;
        continue;
      }
    }
    w.put(t.literal[b[i]].bits, t.literal[b[i]].count);
    ++i;
  }
  for (; i < end; ++i) w.put(t.literal[b[i]].bits, t.literal[b[i]].count);
  w.put(0, 7);  // the end of the block
  w.put(0, 3);  // the flush's empty stored block: its header, then the byte's padding
  w.align();

  // Bytes that do not repeat (random or mostly beyond ASCII) cost up to nine bits each with the
  // fixed codes: such a message goes as stored blocks, which cost five bytes per 65,535.
  const std::size_t chunks = std::max<std::size_t>(1, (message.size() + kStoredMax - 1) / kStoredMax);
  const std::size_t stored = message.size() + 5 * chunks + 1;
  if (out.size() > stored) {
    out.clear();
    std::size_t done = 0;
    do {
      const std::size_t n = std::min(kStoredMax, message.size() - done);
      out.push_back('\0');  // a stored block, not the last, its header padded to the byte
      out.push_back(static_cast<char>(n & 0xff));
      out.push_back(static_cast<char>(n >> 8));
      out.push_back(static_cast<char>(~n & 0xff));
      out.push_back(static_cast<char>((~n >> 8) & 0xff));
      out.append(message.substr(done, n));
      done += n;
    } while (done < message.size());
    out.push_back('\0');  // the flush's empty stored block, less its last four bytes
  }
  keep_history();
}

void Deflater::keep_history() {
  // What a later match can reach: the last max_distance_ bytes (none, starting afresh).
  const std::size_t keep = fresh_ ? 0 : std::min<std::size_t>(buffer_.size(), max_distance_);
  const std::size_t drop = buffer_.size() - keep;
  if (drop == 0) return;
  buffer_.erase(buffer_.begin(), buffer_.begin() + static_cast<std::ptrdiff_t>(drop));
  base_ += static_cast<std::uint32_t>(drop);
  // A long message (a big list of rooms, say) leaves no large buffer behind it.
  if (buffer_.capacity() > 8 * std::size_t{max_distance_ + 1}) buffer_.shrink_to_fit();
}

}  // namespace campfire::server::ws
