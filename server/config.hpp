// Everything an operator can set, by flag or environment variable (see README).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/token_bucket.hpp"

namespace campfire::server {

struct Config {
  std::string bind = "0.0.0.0";
  std::uint16_t port = 8080;
  int threads = 2;
  std::string data_dir = "data";
  std::string web_root;  // empty: the clients/web folder found next to the binary or source
  std::string log_level = "info";
  bool json_logs = false;
  bool test_mode = false;

  // Limits.
  int max_rooms = 10000;
  int max_connections_per_address = 200;
  std::size_t max_frame_bytes = 64 * 1024;
  double messages_per_second = 20;
  double message_burst = 40;
  std::size_t max_queued_frames = 512;  // outbound frames waiting for a slow reader
  // No permessage-deflate, even for clients that offer it (browsers and most WebSocket
  // libraries do).
  bool no_compression = false;
  // A connection must finish its HTTP request and WebSocket handshake within this time; an open
  // WebSocket that sends nothing (not even the pong to the server's ping) for idle_timeout_s is
  // closed, so half-open connections are noticed.
  double handshake_timeout_s = 30;
  double idle_timeout_s = 300;
  // Wrong rejoin tokens: each address may try `bad_token_burst` at once, then this many a minute.
  double bad_token_burst = 10;
  double bad_tokens_per_minute = 10;
  Rate message_rate() const { return {messages_per_second, message_burst}; }
  Rate rejoin_rate() const { return {bad_tokens_per_minute / 60.0, bad_token_burst}; }
  int bot_delay_ms = 600;  // server bots move after this to twice this
  // In a timed window (Spider Monkey's slap) server bots react after a time drawn from this
  // range, which a person can beat.
  int bot_reaction_min_ms = 800;
  int bot_reaction_max_ms = 2000;
  int bot_think_ms = 700;         // an expert bot's search budget per move
  int bot_threads = 1;            // workers that run expert bots' searches
  int finished_room_ttl_s = 600;  // finished or abandoned rooms are dropped after this
  double window_scale = 1.0;      // test mode only: multiplies every timed window

  // TLS: with both files (PEM) the one port serves https:// and wss:// only.
  std::string tls_cert;
  std::string tls_key;
  // Origins (scheme://host[:port]) whose pages may open a WebSocket; empty: any origin.
  std::vector<std::string> allowed_origins;
  // Load balancers (addresses or networks, e.g. 10.0.0.0/8) whose X-Forwarded-For names the
  // client a WebSocket is for; empty: every peer is the client itself.
  std::vector<std::string> trusted_proxies;
  // Bearer token of the admin API under /api/admin/; empty: the admin API is off.
  std::string admin_token;
  // The journal: every room and accepted action, kept so a restart loses nothing.
  std::string journal = "sqlite";    // sqlite or none
  bool journal_fsync = false;        // sync each commit to disk (power-cut-safe, slower)
  // The journal's WAL file is written out to this many MB (2^20 bytes) at start and kept so, so
  // that commits overwrite blocks already on disk; 0: it grows as commits append to it.
  int journal_wal_mb = 40;
  int replay_retention_h = 168;      // finished games stay downloadable this long
  double disconnect_grace_s = 60;    // default grace for a disconnected player's seat
  int abandoned_room_ttl_s = 86400;  // a started room with no player connected is closed after this

  // A cluster on Redis: empty runs one process with the journal above. Otherwise
  // redis://HOST:PORT[/DB]; the journal, the room directory and the leases are then in Redis.
  std::string cluster;
  std::string node_id;    // this node's name in the cluster (default: a random one)
  std::string advertise;  // where others reach this node (default: this host and --port)
  int cluster_lease_ms = 5000;  // a dead node's rooms are taken over once its lease expires
};

// An origin in the form browsers send it (lower case, no path, no trailing slash), or empty when
// `origin` is not scheme://host[:port].
std::string normalize_origin(std::string_view origin);

// Checks the cluster settings (the URL, the node id, the address to advertise) and gives a
// node without --node-id a random one; returns what is wrong in one line, or nothing.
std::string check_cluster(Config& c);

// Parses argv and CAMPFIRE_* environment variables; exits the process on --help or bad input.
Config parse_config(int argc, char** argv);

}  // namespace campfire::server
