// A blocking WebSocket connection speaking protocol v1, for the terminal client, the reference
// bot and the tests. Beast stays inside connection.cpp.
#pragma once

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace campfire::client {

using json = nlohmann::json;

class Connection {
 public:
  // Connects to ws://host:port/ws (wss:// when `tls`; certificates are not verified when
  // `insecure`), offering permessage-deflate unless `compression` is false. Throws
  // std::runtime_error on failure.
  Connection(const std::string& host, std::uint16_t port, bool tls = false, bool insecure = false,
             const std::string& path = "/ws", bool compression = true);
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  void send(const json& message);
  void send_text(const std::string& text);  // raw frame, for tests of malformed input
  void send_binary(const std::string& bytes);
  // The next message, or nullopt when none arrives within `timeout` or the connection closed
  // (tell them apart with open()). A timeout leaves the connection usable, so short timeouts
  // can be used to poll.
  std::optional<json> receive(std::chrono::milliseconds timeout = std::chrono::seconds(5));
  std::optional<std::string> receive_text(std::chrono::milliseconds timeout);
  bool open() const;
  void close();
  // Drops the TCP connection without a closing handshake, as a failing network would.
  void abort();

  // Sends a request with a fresh id and waits for the reply carrying that id, keeping every
  // other message for later receive() calls. Returns nullopt on timeout.
  std::optional<json> request(json message,
                              std::chrono::milliseconds timeout = std::chrono::seconds(5));

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::int64_t next_id_ = 1;
};

}  // namespace campfire::client
