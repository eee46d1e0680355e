#include "server/http_routes.hpp"

#include <openssl/crypto.h>
#include <openssl/sha.h>
#include <spdlog/spdlog.h>

#include <string>
#include <string_view>
#include <unordered_map>

#include "engine/core/registry.hpp"
#include "engine/core/schema.hpp"
#include "protocol/messages.hpp"
#include "protocol/protocol.hpp"
#include "server/cluster_admin.hpp"
#include "server/game_replay.hpp"
#include "server/rules_docs.hpp"

namespace campfire::server {

namespace {

constexpr std::size_t kMaxNoticeLength = 500;
constexpr std::size_t kMaxReasonLength = 200;

std::string_view mime_type(std::string_view path) {
  const auto dot = path.rfind('.');
  const std::string_view ext = dot == std::string_view::npos ? "" : path.substr(dot);
  if (ext == ".html") return "text/html; charset=utf-8";
  if (ext == ".js" || ext == ".mjs") return "text/javascript; charset=utf-8";
  if (ext == ".css") return "text/css; charset=utf-8";
  if (ext == ".svg") return "image/svg+xml";
  if (ext == ".png") return "image/png";
  if (ext == ".json") return "application/json";
  if (ext == ".ico") return "image/x-icon";
  if (ext == ".woff2") return "font/woff2";
  return "application/octet-stream";
}

template <class Body>
void common_headers(http::response<Body>& res, unsigned version, bool keep_alive) {
  res.version(version);
  res.set(http::field::server, "campfire");
  res.set("X-Content-Type-Options", "nosniff");
  res.keep_alive(keep_alive);
}

}  // namespace

StringResponse text_response(unsigned version, bool keep_alive, http::status status,
                             std::string_view type, std::string body) {
  StringResponse res{status, version};
  common_headers(res, version, keep_alive);
  res.set(http::field::content_type, type);
  res.set(http::field::cache_control, "no-store");
  res.body() = std::move(body);
  res.prepare_payload();
  return res;
}

StringResponse text_response(const Request& req, http::status status, std::string_view type,
                             std::string body) {
  return text_response(req.version(), req.keep_alive(), status, type, std::move(body));
}

namespace {

StringResponse json_response(const Request& req, http::status status, const json& body) {
  return text_response(req, status, "application/json",
                       body.dump(-1, ' ', false, json::error_handler_t::replace));
}

StringResponse json_error(const Request& req, http::status status, const std::string& message) {
  return json_response(req, status, {{"error", message}});
}

// Compares the digests, so neither the token's content nor its length shows in the timing.
bool same_secret(std::string_view given, std::string_view expected) {
  unsigned char a[SHA256_DIGEST_LENGTH];
  unsigned char b[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(given.data()), given.size(), a);
  SHA256(reinterpret_cast<const unsigned char*>(expected.data()), expected.size(), b);
  return CRYPTO_memcmp(a, b, sizeof a) == 0;
}

// A JSON object body, or nullopt (with the error already answered).
std::optional<json> json_body(const Request& req, const Respond& respond) {
  if (req.body().empty()) return json::object();
  json body = json::parse(req.body(), nullptr, false);
  if (body.is_discarded() || !body.is_object()) {
    respond(json_error(req, http::status::bad_request, "the body must be a JSON object"));
    return std::nullopt;
  }
  return body;
}

// Cleans operator text the way chat is cleaned; nullopt (answered) when it is unusable.
std::optional<std::string> text_field(const Request& req, const json& body, const char* field,
                                      std::size_t max_length, bool required,
                                      const Respond& respond) {
  auto it = body.find(field);
  if (it == body.end() && !required) return std::string();
  if (it == body.end() || !it->is_string()) {
    respond(json_error(req, http::status::bad_request,
                       std::string("\"") + field + "\" must be a string"));
    return std::nullopt;
  }
  std::string text;
  for (char ch : it->get<std::string>()) {
    text += (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f) ? ' ' : ch;
  }
  const auto first = text.find_first_not_of(' ');
  const auto last = text.find_last_not_of(' ');
  text = first == std::string::npos ? std::string() : text.substr(first, last - first + 1);
  if (text.empty() && required) {
    respond(json_error(req, http::status::bad_request, std::string("\"") + field + "\" is empty"));
    return std::nullopt;
  }
  if (text.size() > max_length) {
    respond(json_error(
        req, http::status::bad_request,
        std::string("\"") + field + "\" is longer than " + std::to_string(max_length) + " bytes"));
    return std::nullopt;
  }
  return text;
}

// GET /api/admin/rooms: every room as the room itself describes it, in code order; in a
// cluster every node's, each with its "node", and the nodes that did not answer in time.
void admin_rooms(ServerContext& ctx, const Request& req, Respond respond) {
  const unsigned version = req.version();
  const bool keep_alive = req.keep_alive();
  auto answer = [version, keep_alive, respond = std::move(respond)](json body) {
    respond(text_response(version, keep_alive, http::status::ok, "application/json", body.dump()));
  };
  if (!ctx.admin) {
    return ctx.describe_rooms([answer](json rooms) { answer({{"rooms", std::move(rooms)}}); });
  }
  ctx.admin->rooms([answer](json rooms, std::vector<std::string> unanswered) {
    json body = {{"rooms", std::move(rooms)}};
    if (!unanswered.empty()) body["unanswered"] = std::move(unanswered);
    answer(std::move(body));
  });
}

void serve_admin(ServerContext& ctx, const Request& req, const std::string& target,
                 const Respond& respond) {
  const std::string& token = ctx.config.admin_token;
  if (token.empty()) return respond(json_error(req, http::status::not_found, "not found"));
  const auto auth = req[http::field::authorization];
  constexpr std::string_view kBearer = "Bearer ";
  if (auth.empty()) {
    auto res = json_error(req, http::status::unauthorized, "an admin token is needed");
    res.set(http::field::www_authenticate, "Bearer realm=\"campfire-admin\"");
    return respond(std::move(res));
  }
  if (auth.size() <= kBearer.size() || !auth.starts_with(kBearer) ||
      !same_secret(auth.substr(kBearer.size()), token)) {
    spdlog::warn("admin API: wrong token for {} {}", std::string(req.method_string()), target);
    return respond(json_error(req, http::status::forbidden, "wrong admin token"));
  }

  const bool get = req.method() == http::verb::get;
  const bool post = req.method() == http::verb::post;
  if (target == "/api/admin/rooms") {
    if (!get) return respond(json_error(req, http::status::method_not_allowed, "use GET"));
    return admin_rooms(ctx, req, respond);
  }
  constexpr std::string_view kRoomPrefix = "/api/admin/rooms/";
  constexpr std::string_view kCloseSuffix = "/close";
  if (target.starts_with(kRoomPrefix) && target.ends_with(kCloseSuffix) &&
      target.size() > kRoomPrefix.size() + kCloseSuffix.size()) {
    if (!post) return respond(json_error(req, http::status::method_not_allowed, "use POST"));
    const std::string code =
        target.substr(kRoomPrefix.size(), target.size() - kRoomPrefix.size() - kCloseSuffix.size());
    auto body = json_body(req, respond);
    if (!body) return;
    auto reason = text_field(req, *body, "reason", kMaxReasonLength, false, respond);
    if (!reason) return;
    if (reason->empty()) *reason = "the operator closed this room";
    if (!ctx.admin) {
      if (!ctx.lobby.close(code, *reason)) {
        return respond(json_error(req, http::status::not_found, "there is no room " + code));
      }
      return respond(
          json_response(req, http::status::ok,
                        {{"closed", *protocol::normalize_room_code(code)}, {"reason", *reason}}));
    }
    // In a cluster the room's own node closes it, wherever that is.
    const auto normal = protocol::normalize_room_code(code);
    if (!normal)
      return respond(json_error(req, http::status::not_found, "there is no room " + code));
    const unsigned version = req.version();
    const bool keep_alive = req.keep_alive();
    return ctx.admin->close(
        *normal, *reason,
        [version, keep_alive, respond, code = *normal, reason = *reason](ClusterAdmin::Closed c) {
          auto answer = [&](http::status status, const json& said) {
            respond(text_response(version, keep_alive, status, "application/json", said.dump()));
          };
          switch (c) {
            case ClusterAdmin::Closed::kClosed:
              return answer(http::status::ok, {{"closed", code}, {"reason", reason}});
            case ClusterAdmin::Closed::kNoSuchRoom:
              return answer(http::status::not_found, {{"error", "there is no room " + code}});
            case ClusterAdmin::Closed::kUnavailable:
              return answer(http::status::service_unavailable,
                            {{"error", "the node of room " + code +
                                           " did not answer; try again once it is taken over"}});
          }
        });
  }
  if (target == "/api/admin/notice") {
    if (!post) return respond(json_error(req, http::status::method_not_allowed, "use POST"));
    auto body = json_body(req, respond);
    if (!body) return;
    auto text = text_field(req, *body, "text", kMaxNoticeLength, true, respond);
    if (!text) return;
    if (!ctx.admin) {
      const std::size_t sent =
          ctx.broadcast(make_frame(protocol::message::notice("operator", *text).dump()));
      spdlog::info("admin API: notice to {} connections: {}", sent, *text);
      return respond(json_response(req, http::status::ok, {{"sent", sent}}));
    }
    // In a cluster every node passes the notice to its own connections.
    const unsigned version = req.version();
    const bool keep_alive = req.keep_alive();
    return ctx.admin->notice(*text, [version, keep_alive, respond, text = *text](
                                        std::size_t sent, std::vector<std::string> unanswered) {
      spdlog::info("admin API: notice to {} connections of the cluster: {}", sent, text);
      json said = {{"sent", sent}};
      if (!unanswered.empty()) said["unanswered"] = std::move(unanswered);
      respond(
          text_response(version, keep_alive, http::status::ok, "application/json", said.dump()));
    });
  }
  respond(json_error(req, http::status::not_found, "not found"));
}

// The value of `name` in a request target's query string, if it is there.
std::optional<std::string_view> query_value(std::string_view target, std::string_view name) {
  const auto q = target.find('?');
  if (q == std::string_view::npos) return std::nullopt;
  std::string_view rest = target.substr(q + 1);
  while (!rest.empty()) {
    const auto amp = rest.find('&');
    const std::string_view pair = rest.substr(0, amp);
    const auto eq = pair.find('=');
    if (pair.substr(0, eq) == name) {
      return eq == std::string_view::npos ? std::string_view() : pair.substr(eq + 1);
    }
    if (amp == std::string_view::npos) break;
    rest.remove_prefix(amp + 1);
  }
  return std::nullopt;
}

// A whole number in [0, max] from the query: `fallback` when it is absent, nothing when it is
// anything else.
std::optional<int> query_number(std::string_view target, std::string_view name, int fallback,
                                int max) {
  const auto raw = query_value(target, name);
  if (!raw) return fallback;
  if (raw->empty() || raw->size() > 9) return std::nullopt;
  int v = 0;
  for (const char ch : *raw) {
    if (ch < '0' || ch > '9') return std::nullopt;
    v = v * 10 + (ch - '0');
  }
  if (v > max) return std::nullopt;
  return v;
}

// The replay routes answer a refusal as {"error": code, "message": text}.
StringResponse replay_error(const Request& req, http::status status, protocol::ErrorCode code,
                            std::string_view message) {
  return json_response(req, status, {{"error", protocol::to_string(code)}, {"message", message}});
}

// The JSON Schema text of each game, made once.
const std::string* game_schema(const std::string& id) {
  static const std::unordered_map<std::string, std::string> texts = [] {
    std::unordered_map<std::string, std::string> t;
    for (const Game* g : Registry::builtin().games()) {
      t.emplace(g->info().id, schema::to_json_schema(*g).dump());
    }
    return t;
  }();
  const auto it = texts.find(id);
  return it == texts.end() ? nullptr : &it->second;
}

constexpr int kMaxReplaySteps = 100;
constexpr int kDefaultReplaySteps = 40;

// GET /api/replays/CODE/steps?from=F&count=N: a finished game replayed for the replay viewer,
// step by step with every seat's view and the step's events in words (see game_replay.hpp).
// Only a finished game has steps, in test mode too: while it is played they would show every hand.
void replay_steps(ServerContext& ctx, const Request& req, std::string_view raw_code,
                  const Respond& respond) {
  const std::string_view full(req.target().data(), req.target().size());
  const auto from = query_number(full, "from", 0, 1 << 24);
  const auto count = query_number(full, "count", kDefaultReplaySteps, kMaxReplaySteps);
  if (!from || !count) {
    return respond(replay_error(
        req, http::status::bad_request, protocol::ErrorCode::kBadRequest,
        "from and count are whole numbers, count at most " + std::to_string(kMaxReplaySteps)));
  }
  const auto code = protocol::normalize_room_code(raw_code);
  std::optional<StoredRoom> stored;
  if (code) stored = ctx.journal->load(*code);
  if (!stored) {
    return respond(replay_error(req, http::status::not_found, protocol::ErrorCode::kNoSuchReplay,
                                "no finished game with that code is kept"));
  }
  if (!stored->finished()) {
    return respond(replay_error(req, http::status::conflict, protocol::ErrorCode::kStillPlaying,
                                "the replay is ready when the game ends"));
  }
  // Each step's texts name the seats as they were called when its move was made.
  NameHistory names(static_cast<std::size_t>(std::max(stored->seats, 0)));
  for (const StoredSeat& s : stored->seat_list) {
    if (s.seat < 0 || s.seat >= stored->seats) continue;
    auto& history = names[static_cast<std::size_t>(s.seat)];
    for (const SeatName& n : s.names) history.push_back({n.from_move, n.name});
    if (history.empty()) history.push_back({0, s.name});
  }
  auto replay = GameReplay::open(Registry::builtin(), stored->match_json(), std::move(names));
  if (!replay) {
    spdlog::error("replay {}: cannot be replayed: {}", stored->code, replay.error().message);
    return respond(replay_error(req, http::status::internal_server_error,
                                protocol::ErrorCode::kBadReplay, "this game cannot be replayed"));
  }
  json players = stored->replay_json()["players"];
  respond(json_response(req, http::status::ok,
                        {{"room", stored->code},
                         {"game", stored->game},
                         {"seats", stored->seats},
                         {"options", stored->options},
                         {"players", std::move(players)},
                         {"status", stored->status},
                         {"result", stored->result},
                         {"total", replay->steps()},
                         {"from", *from},
                         {"steps", replay->steps_json(*from, *count)}}));
}

}  // namespace

void serve(ServerContext& ctx, Request&& req, const Respond& respond) {
  std::string target(req.target());
  if (const auto q = target.find('?'); q != std::string::npos) target.resize(q);

  if (target.starts_with("/api/admin/")) return serve_admin(ctx, req, target, respond);
  if (req.method() != http::verb::get && req.method() != http::verb::head) {
    return respond(
        text_response(req, http::status::method_not_allowed, "text/plain", "only GET and HEAD\n"));
  }
  if (target == "/healthz") {
    json h = {{"status", ctx.draining ? "draining" : "ok"},
              {"rooms", ctx.lobby.size()},
              {"connections", ctx.connections.load()}};
    if (ctx.cluster) h["node"] = ctx.cluster->node();
    return respond(
        json_response(req, ctx.draining ? http::status::service_unavailable : http::status::ok, h));
  }
  if (target == "/metrics") {
    return respond(text_response(req, http::status::ok, "text/plain; version=0.0.4; charset=utf-8",
                                 ctx.metrics.render(ctx.metrics_snapshot())));
  }
  if (target == "/api/games") {
    return respond(
        text_response(req, http::status::ok, "application/json", ctx.lobby.games_json()));
  }
  constexpr std::string_view kGames = "/api/games/";
  constexpr std::string_view kRules = "/rules";
  if (target.starts_with(kGames) && target.ends_with(kRules) &&
      target.size() > kGames.size() + kRules.size()) {
    // A game's rules for players, as written in docs/rules.
    const std::string id =
        target.substr(kGames.size(), target.size() - kGames.size() - kRules.size());
    if (const auto page = rules_document(id)) {
      return respond(
          text_response(req, http::status::ok, "text/markdown; charset=utf-8", std::string(*page)));
    }
    return respond(json_error(req, http::status::not_found, "there is no game " + id));
  }
  constexpr std::string_view kSchema = "/schema";
  if (target.starts_with(kGames) && target.ends_with(kSchema) &&
      target.size() > kGames.size() + kSchema.size()) {
    // A game's view, moves and events as JSON Schema (protocol/games/<id>.md in words).
    const std::string id =
        target.substr(kGames.size(), target.size() - kGames.size() - kSchema.size());
    if (const std::string* text = game_schema(id)) {
      return respond(text_response(req, http::status::ok, "application/schema+json", *text));
    }
    return respond(json_response(req, http::status::not_found,
                                 {{"error", protocol::to_string(protocol::ErrorCode::kUnknownGame)},
                                  {"message", "there is no game " + id}}));
  }
  if (target == "/api/rooms") {
    const unsigned version = req.version();
    const bool keep_alive = req.keep_alive();
    return ctx.list_rooms([version, keep_alive, respond](json rooms) {
      respond(text_response(version, keep_alive, http::status::ok, "application/json",
                            rooms.dump(-1, ' ', false, json::error_handler_t::replace)));
    });
  }

  constexpr std::string_view kReplays = "/api/replays/";
  constexpr std::string_view kSteps = "/steps";
  if (target.starts_with(kReplays) && target.ends_with(kSteps) &&
      target.size() > kReplays.size() + kSteps.size()) {
    return replay_steps(ctx, req,
                        std::string_view(target).substr(
                            kReplays.size(), target.size() - kReplays.size() - kSteps.size()),
                        respond);
  }
  if (target.rfind("/api/replays/", 0) == 0) {
    // A finished game as JSON: configuration, players, every action and the result. A game still
    // being played is not shown (its log would reveal hidden cards), except in test mode.
    const auto code = protocol::normalize_room_code(target.substr(13));
    std::optional<StoredRoom> stored;
    if (code) stored = ctx.journal->load(*code);
    if (!stored) {
      return respond(replay_error(req, http::status::not_found, protocol::ErrorCode::kNoSuchReplay,
                                  "no finished game with that code is kept"));
    }
    if (!stored->finished() && !ctx.config.test_mode) {
      return respond(replay_error(req, http::status::conflict, protocol::ErrorCode::kStillPlaying,
                                  "the replay is ready when the game ends"));
    }
    auto res =
        text_response(req, http::status::ok, "application/json",
                      stored->replay_json().dump(-1, ' ', false, json::error_handler_t::replace));
    res.set(http::field::content_disposition,
            "attachment; filename=\"campfire-" + stored->code + ".json\"");
    return respond(std::move(res));
  }

  // Static files of the browser client. Paths never climb out of the web root.
  if (target == "/") target = "/index.html";
  if (target.find("..") != std::string::npos || target.find('\\') != std::string::npos ||
      target.find('\0') != std::string::npos) {
    return respond(text_response(req, http::status::bad_request, "text/plain", "bad path\n"));
  }
  const std::string path = ctx.config.web_root + target;
  http::file_body::value_type body;
  boost::beast::error_code fec;
  body.open(path.c_str(), boost::beast::file_mode::scan, fec);
  if (fec) {
    return respond(text_response(req, http::status::not_found, "text/plain", "not found\n"));
  }
  const auto size = body.size();
  if (req.method() == http::verb::head) {
    http::response<http::empty_body> res{http::status::ok, req.version()};
    common_headers(res, req.version(), req.keep_alive());
    res.set(http::field::content_type, mime_type(path));
    res.content_length(size);
    return respond(std::move(res));
  }
  http::response<http::file_body> res{std::piecewise_construct, std::make_tuple(std::move(body)),
                                      std::make_tuple(http::status::ok, req.version())};
  common_headers(res, req.version(), req.keep_alive());
  res.set(http::field::content_type, mime_type(path));
  res.set(http::field::cache_control, "no-cache");
  res.content_length(size);
  respond(std::move(res));
}

}  // namespace campfire::server
