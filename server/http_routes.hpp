// What the server answers over HTTP, the WebSocket upgrade aside: health, metrics, the games'
// rules and schemas, the room list, replays, the admin API and the browser client's files.
// HttpSession reads a request and writes the answer; the routes decide the answer.
#pragma once

#include <boost/beast/http.hpp>

#include <functional>
#include <string>
#include <string_view>
#include <variant>

#include "server/context.hpp"

namespace campfire::server {

namespace http = boost::beast::http;

using Request = http::request<http::string_body>;
using StringResponse = http::response<http::string_body>;
using Response =
    std::variant<StringResponse, http::response<http::file_body>, http::response<http::empty_body>>;
// Receives the answer to a request, possibly later and on another thread.
using Respond = std::function<void(Response)>;

// Answers `req` through `respond`, at once or (the admin API, the room list) once other threads
// have answered.
void serve(ServerContext& ctx, Request&& req, const Respond& respond);

// A plain answer with the server's common headers, kept alive as the request asks.
StringResponse text_response(const Request& req, http::status status, std::string_view type,
                             std::string body);
// The same for an answer made once the request itself is gone.
StringResponse text_response(unsigned version, bool keep_alive, http::status status,
                             std::string_view type, std::string body);

}  // namespace campfire::server
