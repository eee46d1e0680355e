// The server's compressor for permessage-deflate (RFC 7692): Campfire's own, written for what a
// game server sends, a few hundred bytes at a time, each message mostly what the ones before it
// said.
//
// It finds repeats with one probe of a hash table (the most recent place the next four bytes
// were seen, in this message or the ones kept before it) and writes them with DEFLATE's fixed
// Huffman codes (RFC 1951, 3.2.6), so a message costs one pass over its bytes and no code tables
// are built or sent. On the update frames of Pinocchio and Tricky Tribes (campfire_room_bench's
// deflate benchmarks) it sends about a tenth more than zlib at level 2 with dynamic codes (0.22
// and 0.25 of the text against 0.20 and 0.23) in a quarter of zlib's time (0.7-0.8 µs a frame
// against 3-4), and holds 8 KiB while a connection is active (2^window_bits bytes of history and
// a table of 2^hash_bits 16-bit positions) against zlib's 26 KiB.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace campfire::server::ws {

struct DeflateSettings {
  // The history kept: matches reach at most 2^window_bits - 1 bytes back. Never more than the
  // client allows (server_max_window_bits).
  int window_bits = 12;
  // The table of places by the hash of four bytes.
  int hash_bits = 11;
  // The client asked the server to start every message afresh (server_no_context_takeover).
  bool fresh_each_message = false;
};

// One connection's compressor, made when first needed and let go of when the connection falls
// idle (a sender may start its window afresh at any message).
class Deflater {
 public:
  explicit Deflater(const DeflateSettings& settings);
  // Compresses one message, its history the messages compressed before: `out` gets the payload
  // of a frame with RSV1 set (a DEFLATE block and an empty stored block, less the stored
  // block's last four bytes, 00 00 ff ff, as RFC 7692 says).
  void compress(std::string_view message, std::string& out);
  // Bytes the compressor holds for its history (its buffer's capacity).
  std::size_t held() const { return buffer_.capacity(); }

 private:
  void keep_history();

  std::uint32_t max_distance_;
  int hash_shift_;
  bool fresh_;
  // The history (at most max_distance_ bytes) followed by the message being compressed.
  std::vector<std::uint8_t> buffer_;
  // Where buffer_[0] lies in everything this compressor has seen.
  std::uint32_t base_ = 0;
  // For each hash, the low 16 bits of the position (in everything seen) of the last four bytes
  // with it.
  std::vector<std::uint16_t> table_;
};

}  // namespace campfire::server::ws
