// The SQLite journal: `campfire.db` in WAL mode. Each turn's records are committed together, by the
// event loop that ends the turn or by the journal's writer thread; loads go through a reader of
// their own (server/sqlite_reader.hpp), checkpoints run on a thread beside them
// (server/wal_keeper.hpp), and moves are appended in time order and copied by room when a game
// ends (server/sqlite_moves.hpp).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "server/journal.hpp"

namespace campfire::server {

// When the WAL is copied back into the database. The defaults are the server's; tests make them
// small to see the WAL reset without writing hundreds of megabytes.
struct WalLimits {
  // From this many pages (about 32 MB) a passive checkpoint runs beside the writer, rather than
  // SQLite's 1000: the same durability, an eighth of the syncs, and a room's page rewritten by
  // many commits is copied once.
  int checkpoint_pages = 8192;
  // From this many (about 128 MB) the writer itself, between two commits, copies the rest back
  // and starts the WAL afresh, so that the WAL has a bound under any load.
  int reset_pages = 4 * 8192;
  // When not 0, the WAL file is written out with zeros to this many bytes when the journal opens
  // (never cut short below what it already is), kept when the journal closes, and never
  // truncated: commits then overwrite blocks already allocated and on disk instead of making
  // the file system allocate new ones, which an event loop committing its turn waited for.
  std::int64_t presize_bytes = 0;
};

// The limits for a WAL written ahead to `presize_bytes` (0: not written ahead, the defaults).
// Checkpoints come at four fifths of it, so that the WAL between two of them stays within the
// blocks written ahead (32 MB for the server's 40 MB), and never before SQLite's own 1,000 pages;
// the writer resets it at four times that. A bigger WAL means fewer checkpoints, each with its
// syncs and its closing pass: fewer slow moves under load, for the disk it takes.
WalLimits wal_limits_for(std::int64_t presize_bytes);

// Throws std::runtime_error when the database cannot be opened or is in a later format.
std::unique_ptr<Journal> make_sqlite_journal(const std::string& dir, bool fsync,
                                             const WalLimits& limits = {});

}  // namespace campfire::server
