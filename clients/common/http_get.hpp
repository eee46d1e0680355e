// One HTTP GET to a Campfire server (plain or TLS), for what the server serves over HTTP rather
// than the WebSocket: the rules documents, say. Beast stays inside http_get.cpp.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace campfire::client {

struct HttpResponse {
  int status = 0;
  std::string content_type;
  std::string body;
};

// GETs `target` ("/api/games/pinocchio/rules") from host:port. Throws std::runtime_error when the
// server cannot be reached or does not answer within `timeout`; any HTTP status is returned.
HttpResponse http_get(const std::string& host, std::uint16_t port, bool tls, bool insecure,
                      const std::string& target,
                      std::chrono::milliseconds timeout = std::chrono::seconds(10));

}  // namespace campfire::client
