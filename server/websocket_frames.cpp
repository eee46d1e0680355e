#include "server/websocket_frames.hpp"

#include <openssl/evp.h>
#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <vector>

namespace campfire::server::ws {

namespace {

constexpr std::string_view kGuid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
constexpr std::string_view kBase64 =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
// What a sync flush ends with, and what a permessage-deflate message leaves off.
constexpr unsigned char kFlushTail[4] = {0x00, 0x00, 0xff, 0xff};
// A compressed message may be a little longer than its text: what it may carry over the limit
// before it is refused unread.
constexpr std::size_t kDeflateSlack = 1024;

bool is_control(Opcode op) {
  return static_cast<std::uint8_t>(op) >= 8;
}

bool known_opcode(std::uint8_t op) {
  return op <= 2 || (op >= 8 && op <= 10);
}

// Close codes a peer may send (RFC 6455 7.4; 1012-1014 registered since).
bool valid_close_code(std::uint16_t code) {
  return (code >= 1000 && code <= 1003) || (code >= 1007 && code <= 1014) ||
         (code >= 3000 && code <= 4999);
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

// A window size parameter's value: 8-15, as a plain or quoted token.
std::optional<int> window_bits(std::string_view value) {
  if (value.size() >= 2 && value.front() == '"' && value.back() == '"') {
    value = value.substr(1, value.size() - 2);
  }
  if (value.empty() || value.size() > 2) return std::nullopt;
  int n = 0;
  for (char c : value) {
    if (c < '0' || c > '9') return std::nullopt;
    n = n * 10 + (c - '0');
  }
  if (n < 8 || n > 15 || (value.size() == 2 && value[0] == '0')) return std::nullopt;
  return n;
}

// The answer to one permessage-deflate offer (its parameters, after the name), or nothing if
// the server cannot take it.
std::optional<DeflateAnswer> answer_offer(std::string_view params, const DeflateSettings& s) {
  bool server_no_takeover = false, client_no_takeover = false;
  bool client_bits = false;
  std::optional<int> server_bits;
  while (!params.empty()) {
    const std::size_t semi = params.find(';');
    std::string_view param = trim(params.substr(0, semi));
    params = semi == std::string_view::npos ? std::string_view() : params.substr(semi + 1);
    if (param.empty()) return std::nullopt;
    std::string_view name = param, value;
    bool has_value = false;
    if (const std::size_t eq = param.find('='); eq != std::string_view::npos) {
      name = trim(param.substr(0, eq));
      value = trim(param.substr(eq + 1));
      has_value = true;
    }
    // Each parameter at most once (RFC 7692 7: a repeated one declines the offer).
    if (iequals(name, "server_no_context_takeover")) {
      if (has_value || server_no_takeover) return std::nullopt;
      server_no_takeover = true;
    } else if (iequals(name, "client_no_context_takeover")) {
      if (has_value || client_no_takeover) return std::nullopt;
      client_no_takeover = true;
    } else if (iequals(name, "server_max_window_bits")) {
      if (server_bits) return std::nullopt;
      server_bits = has_value ? window_bits(value) : std::nullopt;
      if (!server_bits) return std::nullopt;
    } else if (iequals(name, "client_max_window_bits")) {
      if (client_bits) return std::nullopt;
      if (has_value && !window_bits(value)) return std::nullopt;
      client_bits = true;
    } else {
      return std::nullopt;  // a parameter the server does not know
    }
  }
  DeflateAnswer answer{"permessage-deflate; client_no_context_takeover", s};
  if (server_no_takeover) {
    answer.settings.fresh_each_message = true;
    answer.header += "; server_no_context_takeover";
  }
  if (server_bits) {
    // The server's windows start at 512 bytes, as zlib's do.
    if (*server_bits < 9) return std::nullopt;
    answer.settings.window_bits = std::min(s.window_bits, *server_bits);
    answer.header += "; server_max_window_bits=" + std::to_string(answer.settings.window_bits);
  }
  return answer;
}

// One decompressor per thread: every client starts each message afresh
// (client_no_context_takeover), so nothing of one message is needed for the next.
class ThreadInflater {
 public:
  ThreadInflater() {
    std::memset(&z_, 0, sizeof z_);
    ok_ = inflateInit2(&z_, -15) == Z_OK;
  }
  ~ThreadInflater() {
    if (ok_) inflateEnd(&z_);
  }
  ThreadInflater(const ThreadInflater&) = delete;
  ThreadInflater& operator=(const ThreadInflater&) = delete;

  // Inflates `in` (with the flush tail the sender left off) into `out`, at most `limit` bytes.
  // 0: done; 1: over the limit; 2: not a valid deflate stream.
  int inflate_message(std::string_view in, std::string& out, std::size_t limit) {
    if (!ok_ || inflateReset(&z_) != Z_OK) return 2;
    out.clear();
    for (int part = 0; part < 2; ++part) {
      const auto* src = part == 0 ? reinterpret_cast<const unsigned char*>(in.data()) : kFlushTail;
      z_.next_in = const_cast<Bytef*>(src);
      z_.avail_in = static_cast<uInt>(part == 0 ? in.size() : sizeof kFlushTail);
      while (z_.avail_in > 0) {
        if (out.size() > limit) return 1;
        const std::size_t at = out.size();
        const std::size_t room =
            std::min<std::size_t>(std::max<std::size_t>(in.size() * 4, 256), limit + 1 - at);
        out.resize(at + room);
        z_.next_out = reinterpret_cast<Bytef*>(out.data() + at);
        z_.avail_out = static_cast<uInt>(room);
        const int rc = inflate(&z_, Z_SYNC_FLUSH);
        out.resize(at + room - z_.avail_out);
        if (rc == Z_STREAM_END) {
          // A last block: nothing may follow it but the flush tail.
          if (part == 0 && z_.avail_in > 0) return 2;
          return out.size() > limit ? 1 : 0;
        }
        if (rc == Z_BUF_ERROR && z_.avail_out > 0) break;  // the input is used up
        if (rc != Z_OK && rc != Z_BUF_ERROR) return 2;
      }
    }
    return out.size() > limit ? 1 : 0;
  }

 private:
  z_stream z_;
  bool ok_ = false;
};

ThreadInflater& thread_inflater() {
  thread_local ThreadInflater inflater;
  return inflater;
}

}  // namespace

bool valid_key(std::string_view key) {
  key = trim(key);
  if (key.size() != 24 || key.substr(22) != "==") return false;
  for (std::size_t i = 0; i < 22; ++i) {
    if (kBase64.find(key[i]) == std::string_view::npos) return false;
  }
  // The last character before the padding carries two bits of the sixteenth byte and four
  // zero bits.
  return (kBase64.find(key[21]) & 0x0f) == 0;
}

std::string accept_key(std::string_view key) {
  key = trim(key);
  std::string joined(key);
  joined += kGuid;
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  EVP_Digest(joined.data(), joined.size(), digest, &length, EVP_sha1(), nullptr);
  std::string out(4 * ((length + 2) / 3), '\0');
  const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()), digest,
                                static_cast<int>(length));
  out.resize(static_cast<std::size_t>(n));
  return out;
}

std::optional<DeflateAnswer> accept_deflate(std::string_view extensions,
                                            const DeflateSettings& settings) {
  // Offers are separated by commas; a quoted parameter value never holds one here (the only
  // values are window sizes).
  while (!extensions.empty()) {
    const std::size_t comma = extensions.find(',');
    std::string_view offer = trim(extensions.substr(0, comma));
    extensions =
        comma == std::string_view::npos ? std::string_view() : extensions.substr(comma + 1);
    const std::size_t semi = offer.find(';');
    if (!iequals(trim(offer.substr(0, semi)), "permessage-deflate")) continue;
    std::string_view params =
        semi == std::string_view::npos ? std::string_view() : offer.substr(semi + 1);
    if (semi != std::string_view::npos && trim(params).empty()) continue;  // a ";" and nothing
    if (auto answer = answer_offer(params, settings)) return answer;
  }
  return std::nullopt;
}

bool valid_utf8(std::string_view text) {
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  const auto* end = p + text.size();
  while (p < end) {
    // Eight plain ASCII bytes at a time.
    if (end - p >= 8) {
      std::uint64_t chunk;
      std::memcpy(&chunk, p, 8);
      if ((chunk & 0x8080808080808080ULL) == 0) {
        p += 8;
        continue;
      }
    }
    const unsigned char c = *p;
    if (c < 0x80) {
      ++p;
      continue;
    }
    int extra;
    std::uint32_t cp;
    if (c >= 0xc2 && c <= 0xdf) {
      extra = 1;
      cp = c & 0x1f;
    } else if (c >= 0xe0 && c <= 0xef) {
      extra = 2;
      cp = c & 0x0f;
    } else if (c >= 0xf0 && c <= 0xf4) {
      extra = 3;
      cp = c & 0x07;
    } else {
      return false;  // a continuation byte first, an overlong lead (c0, c1) or past f4
    }
    if (end - p <= extra) return false;
    for (int i = 1; i <= extra; ++i) {
      if ((p[i] & 0xc0) != 0x80) return false;
      cp = (cp << 6) | (p[i] & 0x3f);
    }
    if ((extra == 2 && cp < 0x800) || (extra == 3 && (cp < 0x10000 || cp > 0x10ffff)) ||
        (cp >= 0xd800 && cp <= 0xdfff)) {
      return false;
    }
    p += extra + 1;
  }
  return true;
}

FrameReader::~FrameReader() = default;

void FrameReader::trim() {
  if (open_) return;  // a message under way keeps its bytes
  std::string().swap(message_);
  std::string().swap(inflated_);
}

FrameReader::Item FrameReader::fail(std::uint16_t code, std::string_view why) {
  Item item;
  item.kind = Item::kFail;
  item.code = code;
  item.payload = why;
  return item;
}

FrameReader::Item FrameReader::next(char* data, std::size_t size) {
  const auto need = [](std::size_t bytes) {
    Item more;
    more.needed = bytes;
    return more;
  };
  if (size < 2) return need(2);
  const auto* b = reinterpret_cast<const unsigned char*>(data);
  const bool fin = b[0] & 0x80;
  const bool rsv1 = b[0] & 0x40;
  const std::uint8_t op = b[0] & 0x0f;
  const bool masked = b[1] & 0x80;
  std::uint64_t length = b[1] & 0x7f;
  std::size_t header = 2;

  if (b[0] & 0x30) return fail(kProtocolError, "reserved bits set");
  if (!known_opcode(op)) return fail(kProtocolError, "unknown opcode");
  const auto opcode = static_cast<Opcode>(op);
  if (is_control(opcode)) {
    if (!fin) return fail(kProtocolError, "fragmented control frame");
    if (length > 125) return fail(kProtocolError, "control frame over 125 bytes");
    if (rsv1) return fail(kProtocolError, "compressed control frame");
  } else if (opcode == Opcode::kContinuation) {
    if (!open_) return fail(kProtocolError, "continuation with no message begun");
    if (rsv1) return fail(kProtocolError, "RSV1 on a continuation frame");
  } else {
    if (open_) return fail(kProtocolError, "a new message before the last one ended");
    if (rsv1 && !deflate_) return fail(kProtocolError, "RSV1 without permessage-deflate");
  }
  if (!masked) return fail(kProtocolError, "frames from a client must be masked");

  if (length == 126) {
    header += 2;
    if (size < header) return need(header);
    length = (std::uint64_t{b[2]} << 8) | b[3];
    if (length < 126) return fail(kProtocolError, "length not in its shortest form");
  } else if (length == 127) {
    header += 8;
    if (size < header) return need(header);
    length = 0;
    for (int i = 2; i < 10; ++i) length = (length << 8) | b[i];
    if (length >> 63) return fail(kProtocolError, "length with its top bit set");
    if (length <= 0xffff) return fail(kProtocolError, "length not in its shortest form");
  }
  header += 4;  // the mask
  if (size < header) return need(header);

  if (!is_control(opcode)) {
    const bool compressed = opcode == Opcode::kContinuation ? compressed_ : rsv1;
    const std::size_t limit = max_message_ + (compressed ? kDeflateSlack : 0);
    const std::size_t before = open_ ? message_.size() : 0;
    if (length > limit || before + length > limit) return fail(kTooBig, "message too big");
  }
  if (size - header < length) return need(header + static_cast<std::size_t>(length));

  // Unmask in place.
  unsigned char key[4];
  std::memcpy(key, b + header - 4, 4);
  char* payload = data + header;
  const auto n = static_cast<std::size_t>(length);
  for (std::size_t i = 0; i < n; ++i) payload[i] = static_cast<char>(payload[i] ^ key[i & 3]);
  const std::size_t consumed = header + n;
  const std::string_view body(payload, n);

  if (is_control(opcode)) {
    Item item;
    item.consumed = consumed;
    if (opcode == Opcode::kPing) {
      item.kind = Item::kPing;
      item.payload = body;
    } else if (opcode == Opcode::kPong) {
      item.kind = Item::kPong;
      item.payload = body;
    } else {
      if (n == 1) return fail(kProtocolError, "close frame with a one-byte payload");
      item.kind = Item::kClose;
      if (n >= 2) {
        item.code = static_cast<std::uint16_t>((static_cast<unsigned char>(payload[0]) << 8) |
                                               static_cast<unsigned char>(payload[1]));
        if (!valid_close_code(item.code)) return fail(kProtocolError, "invalid close code");
        item.payload = body.substr(2);
        if (!valid_utf8(item.payload)) return fail(kBadPayload, "close reason not UTF-8");
      }
    }
    return item;
  }

  if (opcode != Opcode::kContinuation && fin) {
    // A message in one frame: read where it lies.
    return finish(opcode, body, rsv1, consumed);
  }
  if (opcode != Opcode::kContinuation) {
    open_ = true;
    opcode_ = opcode;
    compressed_ = rsv1;
    message_.clear();
  }
  message_.append(body);
  if (!fin) {
    Item item;
    item.kind = Item::kNeedMore;
    item.consumed = consumed;
    item.needed = 0;
    return item;
  }
  open_ = false;
  return finish(opcode_, message_, compressed_, consumed);
}

FrameReader::Item FrameReader::finish(Opcode opcode, std::string_view payload, bool compressed,
                                      std::size_t consumed) {
  if (compressed) {
    const int rc = thread_inflater().inflate_message(payload, inflated_, max_message_);
    if (rc == 1) return fail(kTooBig, "message too big");
    if (rc != 0) return fail(kProtocolError, "compressed message is not valid deflate data");
    payload = inflated_;
  }
  if (opcode == Opcode::kText && !valid_utf8(payload)) {
    return fail(kBadPayload, "text message not UTF-8");
  }
  Item item;
  item.kind = opcode == Opcode::kText ? Item::kText : Item::kBinary;
  item.payload = payload;
  item.consumed = consumed;
  return item;
}

std::size_t write_header(std::uint8_t* out, Opcode opcode, std::size_t size, bool compressed) {
  out[0] =
      static_cast<std::uint8_t>(0x80 | (compressed ? 0x40 : 0) | static_cast<std::uint8_t>(opcode));
  if (size < 126) {
    out[1] = static_cast<std::uint8_t>(size);
    return 2;
  }
  if (size <= 0xffff) {
    out[1] = 126;
    out[2] = static_cast<std::uint8_t>(size >> 8);
    out[3] = static_cast<std::uint8_t>(size);
    return 4;
  }
  out[1] = 127;
  for (int i = 0; i < 8; ++i) {
    out[2 + i] = static_cast<std::uint8_t>(static_cast<std::uint64_t>(size) >> (56 - 8 * i));
  }
  return 10;
}

std::string control_frame(Opcode opcode, std::string_view payload) {
  payload = payload.substr(0, 125);
  std::uint8_t header[kMaxHeader];
  const std::size_t h = write_header(header, opcode, payload.size(), false);
  std::string frame(reinterpret_cast<const char*>(header), h);
  frame.append(payload);
  return frame;
}

std::string close_frame(std::uint16_t code, std::string_view reason) {
  std::string payload;
  payload += static_cast<char>(code >> 8);
  payload += static_cast<char>(code & 0xff);
  payload.append(reason.substr(0, 123));
  return control_frame(Opcode::kClose, payload);
}

}  // namespace campfire::server::ws
