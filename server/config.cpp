#include "server/config.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstdio>
#include <random>

#include "server/cluster/directory.hpp"
#include "server/cluster/redis.hpp"
#include "server/proxy_trust.hpp"

namespace campfire::server {

std::string normalize_origin(std::string_view origin) {
  std::string o;
  for (char ch : origin) {
    if (!std::isspace(static_cast<unsigned char>(ch))) {
      o += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    }
  }
  while (!o.empty() && o.back() == '/') o.pop_back();
  const auto sep = o.find("://");
  if (sep == std::string::npos || sep == 0 || sep + 3 >= o.size()) return {};
  if (o.find('/', sep + 3) != std::string::npos) return {};
  return o;
}

namespace {

std::string random_node_id() {
  std::random_device rd;
  char buf[16];
  std::snprintf(buf, sizeof buf, "node-%06x", static_cast<unsigned>(rd()) & 0xffffffu);
  return buf;
}

}  // namespace

std::string check_cluster(Config& c) {
  if (c.cluster.empty()) {
    if (!c.node_id.empty() || !c.advertise.empty()) {
      return "--node-id and --advertise need --cluster";
    }
    return {};
  }
  std::string why;
  if (!cluster::parse_redis_url(c.cluster, &why)) return "--cluster: " + why;
  if (c.node_id.empty()) c.node_id = random_node_id();
  if (!cluster::valid_node_id(c.node_id)) {
    return "--node-id: '" + c.node_id + "': use 1 to 64 letters, digits, '.', '_' or '-'";
  }
  if (!c.advertise.empty() && c.advertise.find(':') == std::string::npos) {
    return "--advertise: '" + c.advertise + "' is not HOST:PORT";
  }
  return {};
}

Config parse_config(int argc, char** argv) {
  Config c;
  CLI::App app{"Campfire: an authoritative multiplayer card-game server"};
  app.add_option("--bind", c.bind, "address to listen on")->envname("CAMPFIRE_BIND");
  app.add_option("--port", c.port, "port for HTTP and WebSocket")->envname("CAMPFIRE_PORT");
  app.add_option("--threads", c.threads, "worker threads")
      ->envname("CAMPFIRE_THREADS")
      ->check(CLI::Range(1, 256));
  app.add_option("--data-dir", c.data_dir, "directory for the journal and replays")
      ->envname("CAMPFIRE_DATA_DIR");
  app.add_option("--web-root", c.web_root, "directory with the browser client's files")
      ->envname("CAMPFIRE_WEB_ROOT");
  app.add_option("--log-level", c.log_level, "trace, debug, info, warn, error or off")
      ->envname("CAMPFIRE_LOG_LEVEL")
      ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "critical", "off"}));
  app.add_flag("--json-logs", c.json_logs, "log one JSON object per line")
      ->envname("CAMPFIRE_JSON_LOGS");
  app.add_flag("--test-mode", c.test_mode,
               "accept seed and deckOrder in create_room (never in production)")
      ->envname("CAMPFIRE_TEST_MODE");
  app.add_option("--max-rooms", c.max_rooms, "most rooms at once")
      ->envname("CAMPFIRE_MAX_ROOMS")
      ->check(CLI::Range(1, 10000000));
  app.add_option("--max-connections-per-address", c.max_connections_per_address,
                 "most simultaneous connections from one address")
      ->envname("CAMPFIRE_MAX_CONNECTIONS_PER_ADDRESS")
      ->check(CLI::Range(1, 10000000));
  app.add_option("--max-frame-bytes", c.max_frame_bytes, "largest WebSocket message accepted")
      ->envname("CAMPFIRE_MAX_FRAME_BYTES")
      ->check(CLI::Range(512, 16 * 1024 * 1024));
  app.add_option("--rate", c.messages_per_second, "messages per second per connection")
      ->envname("CAMPFIRE_RATE")
      ->check(CLI::Range(0.1, 1e6));
  app.add_option("--burst", c.message_burst, "burst of messages allowed above the rate")
      ->envname("CAMPFIRE_BURST")
      ->check(CLI::Range(1.0, 1e6));
  app.add_option("--handshake-timeout", c.handshake_timeout_s,
                 "seconds a connection has for its HTTP request and WebSocket handshake")
      ->envname("CAMPFIRE_HANDSHAKE_TIMEOUT")
      ->check(CLI::Range(0.05, 3600.0));
  app.add_option("--idle-timeout", c.idle_timeout_s,
                 "seconds of silence (no message, no pong) before a WebSocket is closed")
      ->envname("CAMPFIRE_IDLE_TIMEOUT")
      ->check(CLI::Range(0.1, 86400.0));
  app.add_option("--bad-token-burst", c.bad_token_burst,
                 "wrong rejoin tokens one address may send at once")
      ->envname("CAMPFIRE_BAD_TOKEN_BURST")
      ->check(CLI::Range(1.0, 1e6));
  app.add_option("--bad-tokens-per-minute", c.bad_tokens_per_minute,
                 "wrong rejoin tokens one address may send a minute after its burst")
      ->envname("CAMPFIRE_BAD_TOKENS_PER_MINUTE")
      ->check(CLI::Range(0.01, 1e6));
  app.add_option("--max-queued-frames", c.max_queued_frames,
                 "outbound messages a slow reader may have waiting before it is disconnected")
      ->envname("CAMPFIRE_MAX_QUEUED_FRAMES")
      ->check(CLI::Range(16, 1000000));
  app.add_flag("--no-compression", c.no_compression,
               "never compress WebSocket messages, even for clients that offer permessage-deflate")
      ->envname("CAMPFIRE_NO_COMPRESSION");
  app.add_option("--finished-room-ttl", c.finished_room_ttl_s,
                 "seconds a finished or abandoned room stays before it is dropped")
      ->envname("CAMPFIRE_FINISHED_ROOM_TTL")
      ->check(CLI::Range(1, 30 * 24 * 3600));
  app.add_option("--bot-delay-ms", c.bot_delay_ms,
                 "server bots move after this many milliseconds to twice as many")
      ->envname("CAMPFIRE_BOT_DELAY_MS")
      ->check(CLI::Range(0, 60000));
  app.add_option("--bot-reaction-min-ms", c.bot_reaction_min_ms,
                 "shortest reaction of a server bot in a timed window such as a slap")
      ->envname("CAMPFIRE_BOT_REACTION_MIN_MS")
      ->check(CLI::Range(0, 60000));
  app.add_option("--bot-reaction-max-ms", c.bot_reaction_max_ms,
                 "longest reaction of a server bot in a timed window")
      ->envname("CAMPFIRE_BOT_REACTION_MAX_MS")
      ->check(CLI::Range(0, 60000));
  app.add_option("--bot-think-ms", c.bot_think_ms,
                 "search budget of an expert bot per move, in milliseconds of one core")
      ->envname("CAMPFIRE_BOT_THINK_MS")
      ->check(CLI::Range(1, 600000));
  app.add_option("--bot-threads", c.bot_threads,
                 "threads on which expert bots search (shared by every room)")
      ->envname("CAMPFIRE_BOT_THREADS")
      ->check(CLI::Range(1, 64));
  app.add_option("--window-scale", c.window_scale,
                 "test mode only: multiply every timed window's length (e.g. 0.05)")
      ->envname("CAMPFIRE_WINDOW_SCALE")
      ->check(CLI::Range(0.001, 100.0));
  auto* cert =
      app.add_option("--tls-cert", c.tls_cert, "certificate chain (PEM): serve https:// and wss://")
          ->envname("CAMPFIRE_TLS_CERT")
          ->check(CLI::ExistingFile);
  auto* key = app.add_option("--tls-key", c.tls_key, "private key (PEM) of --tls-cert")
                  ->envname("CAMPFIRE_TLS_KEY")
                  ->check(CLI::ExistingFile);
  cert->needs(key);
  key->needs(cert);
  app.add_option("--allowed-origins", c.allowed_origins,
                 "origins whose pages may open a WebSocket, comma-separated (default: any)")
      ->envname("CAMPFIRE_ALLOWED_ORIGINS")
      ->delimiter(',');
  app.add_option("--trusted-proxies", c.trusted_proxies,
                 "load balancers whose X-Forwarded-For names the client (addresses or networks "
                 "such as 10.0.0.0/8, comma-separated; default: none)")
      ->envname("CAMPFIRE_TRUSTED_PROXIES")
      ->delimiter(',');
  app.add_option("--admin-token", c.admin_token,
                 "bearer token of the admin API (default: admin API off)")
      ->envname("CAMPFIRE_ADMIN_TOKEN");
  app.add_option("--journal", c.journal, "where rooms are kept across restarts: sqlite or none")
      ->envname("CAMPFIRE_JOURNAL")
      ->check(CLI::IsMember({"sqlite", "none"}));
  app.add_flag("--journal-fsync", c.journal_fsync,
               "sync every journal commit to disk (survives power loss, slower)")
      ->envname("CAMPFIRE_JOURNAL_FSYNC");
  app.add_option("--journal-wal-mb", c.journal_wal_mb,
                 "MB the journal's WAL file is written out to at start and kept at, so that "
                 "commits overwrite it rather than grow it; checkpoints come at four fifths of "
                 "it, so more means fewer of them (0: it grows as they append, checkpoints at "
                 "32 MB)")
      ->envname("CAMPFIRE_JOURNAL_WAL_MB")
      ->check(CLI::Range(0, 4096));
  app.add_option("--replay-retention-hours", c.replay_retention_h,
                 "how long finished games stay downloadable as replays")
      ->envname("CAMPFIRE_REPLAY_RETENTION_HOURS")
      ->check(CLI::Range(0, 24 * 3650));
  app.add_option("--disconnect-grace", c.disconnect_grace_s,
                 "seconds a disconnected player's seat waits (rooms may choose their own)")
      ->envname("CAMPFIRE_DISCONNECT_GRACE")
      ->check(CLI::Range(0.0, 86400.0));
  app.add_option("--abandoned-room-ttl", c.abandoned_room_ttl_s,
                 "seconds a started room with nobody connected is kept before it is closed")
      ->envname("CAMPFIRE_ABANDONED_ROOM_TTL")
      ->check(CLI::Range(1, 365 * 86400));
  app.add_option("--cluster", c.cluster,
                 "make this server a node of a cluster on Redis: redis://HOST:PORT[/DB]")
      ->envname("CAMPFIRE_CLUSTER");
  app.add_option("--node-id", c.node_id,
                 "this node's name in the cluster: letters, digits, . _ - (default: random)")
      ->envname("CAMPFIRE_NODE_ID");
  app.add_option("--advertise", c.advertise,
                 "HOST:PORT where other nodes and clients reach this node (default: this host "
                 "and --port)")
      ->envname("CAMPFIRE_ADVERTISE");
  app.add_option("--cluster-lease-ms", c.cluster_lease_ms,
                 "how long a node's rooms wait after it stops answering before others take "
                 "them over")
      ->envname("CAMPFIRE_CLUSTER_LEASE_MS")
      ->check(CLI::Range(500, 600000));
  try {
    app.parse(argc, argv);
    if (const std::string why = check_cluster(c); !why.empty()) {
      throw CLI::ValidationError(why);
    }
    if (!c.test_mode) c.window_scale = 1.0;
    if (c.bot_reaction_max_ms < c.bot_reaction_min_ms) {
      throw CLI::ValidationError("--bot-reaction-max-ms",
                                 "must not be below --bot-reaction-min-ms");
    }
    for (auto& origin : c.allowed_origins) {
      origin = normalize_origin(origin);
      if (origin.empty()) {
        throw CLI::ValidationError(
            "--allowed-origins",
            "each origin is scheme://host[:port], e.g. https://cards.example.org");
      }
    }
    if (std::string why; !ProxyTrust::parse(c.trusted_proxies, &why)) {
      throw CLI::ValidationError("--trusted-proxies", why);
    }
    if (!c.admin_token.empty() && c.admin_token.size() < 16) {
      throw CLI::ValidationError("--admin-token", "use at least 16 characters");
    }
  } catch (const CLI::ParseError& e) {
    // --help and --version end well; a bad flag or value is a usage error (status 2).
    const int printed = app.exit(e);
    std::exit(printed == 0 ? 0 : 2);
  }
  return c;
}

}  // namespace campfire::server
