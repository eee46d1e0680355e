// The server's side of the WebSocket wire (RFC 6455) and of permessage-deflate (RFC 7692),
// without any I/O: the opening handshake's checks and answer, reading the frames a client sends
// into whole messages and control frames, and writing the frames the server sends. The
// connection (server/websocket_session.cpp) does the reads and writes.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "server/websocket_deflate.hpp"

namespace campfire::server::ws {

enum class Opcode : std::uint8_t {
  kContinuation = 0,
  kText = 1,
  kBinary = 2,
  kClose = 8,
  kPing = 9,
  kPong = 10,
};

// The close codes the server sends.
enum CloseCode : std::uint16_t {
  kNormal = 1000,
  kGoingAway = 1001,
  kProtocolError = 1002,
  kBadPayload = 1007,  // text that is not UTF-8
  kPolicy = 1008,
  kTooBig = 1009,
  kInternalError = 1011,
  kRestart = 1012,
};

// --- The opening handshake -----------------------------------------------------------------

// Sec-WebSocket-Key must be 16 bytes in base64 (24 characters, the last two "==").
bool valid_key(std::string_view key);
// The Sec-WebSocket-Accept answering `key`: base64 of the SHA-1 of the key and the protocol's
// fixed GUID.
std::string accept_key(std::string_view key);

// The first permessage-deflate offer in a Sec-WebSocket-Extensions header the server can
// accept: the header value to answer with, and the settings for this connection (a client may
// ask for a smaller window or none kept between messages). Nothing when no offer is acceptable
// (the connection then goes on without compression); an offer with a parameter the server
// does not know, or a window of 256 bytes (the server's windows are 512 bytes to 32 KiB), is
// passed over. The server always asks the client to start every message afresh
// (client_no_context_takeover), so one decompressor per thread serves every connection.
struct DeflateAnswer {
  std::string header;
  DeflateSettings settings;
};
std::optional<DeflateAnswer> accept_deflate(std::string_view extensions,
                                            const DeflateSettings& settings);

// --- Reading a client's frames ---------------------------------------------------------------

// Whether `text` is valid UTF-8 (no overlong forms, surrogates or code points past U+10FFFF).
bool valid_utf8(std::string_view text);

class Inflater;

// Turns the bytes a client sends into messages and control frames, checking everything RFC 6455
// requires of them: masking, reserved bits, opcodes, control frames' size and fragmentation,
// continuation order, UTF-8 in text and close reasons, close codes, and the message size limit
// (counted after decompression).
class FrameReader {
 public:
  struct Item {
    enum Kind {
      // Nothing to hand on yet: either more bytes are needed (`consumed` is 0, and `needed`
      // bytes from the buffer's start would give the next item), or a fragment of a message
      // was taken in (`consumed` its bytes, `needed` 0).
      kNeedMore,
      kText,
      kBinary,
      kPing,
      kPong,
      kClose,  // `code` (0 when the frame had none) and `payload` the reason
      kFail,   // the connection must be closed with `code`; `payload` says why
    } kind = kNeedMore;
    std::string_view payload;  // valid until the next call
    std::uint16_t code = 0;
    std::size_t consumed = 0;  // bytes of the buffer this item used up
    std::size_t needed = 0;
  };

  explicit FrameReader(std::size_t max_message) : max_message_(max_message) {}
  ~FrameReader();
  FrameReader(const FrameReader&) = delete;
  FrameReader& operator=(const FrameReader&) = delete;

  // Compressed messages (RSV1) are accepted from now on (after a permessage-deflate answer).
  void allow_deflate() { deflate_ = true; }
  bool deflate() const { return deflate_; }

  // Reads the next item from the bytes at `data` (unmasking them in place). The caller drops
  // `consumed` bytes before calling again; a kNeedMore asks for more bytes first.
  Item next(char* data, std::size_t size);
  // Bytes held for a message that spans frames (zero between messages).
  std::size_t held() const { return message_.capacity(); }
  // Lets go of the memory a long message left behind (none while a message is under way).
  void trim();

 private:
  Item fail(std::uint16_t code, std::string_view why);
  Item finish(Opcode opcode, std::string_view payload, bool compressed, std::size_t consumed);

  std::size_t max_message_;
  bool deflate_ = false;
  // A message that spans frames: its opcode and whether it is compressed, and its bytes so far.
  bool open_ = false;
  Opcode opcode_ = Opcode::kText;
  bool compressed_ = false;
  std::string message_;
  std::string inflated_;
};

// --- Writing the server's frames -------------------------------------------------------------

// The longest header a server frame needs (unmasked, 64-bit length).
constexpr std::size_t kMaxHeader = 10;
// Writes a final frame's header for a payload of `size` bytes into `out`; returns its length.
std::size_t write_header(std::uint8_t* out, Opcode opcode, std::size_t size, bool compressed);
// A whole control frame (ping, pong, close; at most 125 bytes of payload).
std::string control_frame(Opcode opcode, std::string_view payload);
std::string close_frame(std::uint16_t code, std::string_view reason);

}  // namespace campfire::server::ws
