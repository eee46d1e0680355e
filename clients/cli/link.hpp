// The client's line to the server: a protocol connection that comes back by itself. When the
// connection drops (a network fault, a server restart) it reports the loss and keeps trying in
// the background, waiting a little longer after each failure; the caller then greets the server
// again and takes its seat back. Sends are paced under the server's rate limit.
#pragma once

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "clients/common/connection.hpp"
#include "clients/common/pacer.hpp"

namespace campfire::cli {

using json = nlohmann::json;

struct Endpoint {
  std::string host = "127.0.0.1";
  std::uint16_t port = 8080;
  bool tls = false;
  bool insecure = false;

  std::string text() const { return host + ":" + std::to_string(port); }
};

class Link {
 public:
  enum class Kind {
    message,    // a message from the server
    connected,  // a (new) connection is up: say hello again
    lost,       // the connection dropped; reconnecting has begun
    failed,     // an attempt to connect failed; another follows
  };
  struct Event {
    Kind kind = Kind::message;
    json message;     // for `message`
    std::string why;  // for `lost` and `failed`
  };

  explicit Link(Endpoint endpoint);
  ~Link();
  Link(const Link&) = delete;
  Link& operator=(const Link&) = delete;

  // Connects before returning; throws std::runtime_error when the server cannot be reached.
  void connect_now();
  // Starts connecting in the background; poll() reports when it is up.
  void connect_later();

  // The next event within `timeout`, or nullopt.
  std::optional<Event> poll(std::chrono::milliseconds timeout);
  // Sends when connected; false (nothing sent) otherwise.
  bool send(const json& message);
  bool connected() const { return conn_ != nullptr; }
  void close();

  const Endpoint& endpoint() const { return endpoint_; }
  // Failed attempts since the connection was last up.
  int failures() const { return failures_; }
  std::chrono::steady_clock::time_point next_attempt() const { return next_try_; }
  const std::string& last_error() const { return last_error_; }

 private:
  struct Attempt;
  void start_attempt();
  void lose(const std::string& why);

  Endpoint endpoint_;
  std::unique_ptr<client::Connection> conn_;
  std::shared_ptr<Attempt> attempt_;  // a connection being made on another thread
  std::chrono::steady_clock::time_point next_try_{};
  bool waiting_ = false;  // down, and the next attempt is scheduled
  int failures_ = 0;
  std::string last_error_;
  client::Pacer pacer_;
};

}  // namespace campfire::cli
