#include "server/sqlite_vfs.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <new>
#include <stdexcept>
#include <string>

namespace campfire::server::sqlite {

namespace {

// SQLite's WAL format (https://sqlite.org/fileformat2.html#walformat): each frame starts with a
// header of this size, whose second big-endian word is the database's size in pages after the
// commit for the commit's last frame, and 0 for every other frame.
constexpr int kFrameHeader = 24;
// A buffer that grows to this is written out whatever it holds (a commit of many pages, or the
// WAL written ahead at start). The system's files write at most 128 KiB a call.
constexpr std::size_t kMostHeld = std::size_t{64} << 10;

sqlite3_vfs* system_vfs = nullptr;

// A WAL file: the layer's state, then the system's file, in the memory SQLite gives xOpen.
struct WalFile {
  sqlite3_file base;  // first, so that SQLite's pointer is this one's
  sqlite3_file* real = nullptr;
  std::string held;  // writes not made yet, that follow each other from held_at
  sqlite3_int64 held_at = 0;
  bool commit_frame_next = false;  // the last write was the header of a commit's last frame
};

constexpr std::size_t real_offset() {
  constexpr std::size_t a = alignof(std::max_align_t);
  return (sizeof(WalFile) + a - 1) / a * a;
}

WalFile* wal(sqlite3_file* f) {
  return reinterpret_cast<WalFile*>(f);
}

int write_out(WalFile* w) {
  if (w->held.empty()) return SQLITE_OK;
  int rc = SQLITE_OK;
  for (std::size_t done = 0; rc == SQLITE_OK && done < w->held.size();) {
    const std::size_t n = std::min(kMostHeld, w->held.size() - done);
    rc = w->real->pMethods->xWrite(w->real, w->held.data() + done, static_cast<int>(n),
                                   w->held_at + static_cast<sqlite3_int64>(done));
    done += n;
  }
  // Written or not, the writes are over: a failure fails the commit they belonged to.
  w->held.clear();
  w->commit_frame_next = false;
  return rc;
}

int wal_close(sqlite3_file* f) {
  WalFile* w = wal(f);
  const int written = write_out(w);
  const int rc = w->real->pMethods->xClose(w->real);
  w->~WalFile();
  return written != SQLITE_OK ? written : rc;
}

int wal_write(sqlite3_file* f, const void* data, int n, sqlite3_int64 at) {
  WalFile* w = wal(f);
  if (!w->held.empty() && at != w->held_at + static_cast<sqlite3_int64>(w->held.size())) {
    if (const int rc = write_out(w); rc != SQLITE_OK) return rc;
  }
  if (w->held.empty()) w->held_at = at;
  const auto* bytes = static_cast<const unsigned char*>(data);
  w->held.append(reinterpret_cast<const char*>(bytes), static_cast<std::size_t>(n));
  if (n == kFrameHeader) {
    const std::uint32_t pages = (std::uint32_t{bytes[4]} << 24) | (std::uint32_t{bytes[5]} << 16) |
                                (std::uint32_t{bytes[6]} << 8) | std::uint32_t{bytes[7]};
    w->commit_frame_next = pages != 0;
    return SQLITE_OK;
  }
  // The commit's last page: out before SQLite publishes the frames.
  if (w->commit_frame_next || w->held.size() >= kMostHeld) return write_out(w);
  return SQLITE_OK;
}

// What the WAL does besides writing: write out what is held, then do what the system's file does
// (`flushed`), or just do that (`passed`; nothing held matters to it). The file's methods are
// these with the system's method named.
template <auto Method, typename... Args>
int flushed(sqlite3_file* f, Args... args) {
  WalFile* w = wal(f);
  if (const int rc = write_out(w); rc != SQLITE_OK) return rc;
  return (w->real->pMethods->*Method)(w->real, args...);
}

template <auto Method, typename Result, typename... Args>
Result passed(sqlite3_file* f, Args... args) {
  return (wal(f)->real->pMethods->*Method)(wal(f)->real, args...);
}

sqlite3_io_methods wal_methods_for(const sqlite3_io_methods& real) {
  sqlite3_io_methods m{};
  m.iVersion = real.iVersion;
  m.xClose = wal_close;
  m.xRead = flushed<&sqlite3_io_methods::xRead>;
  m.xWrite = wal_write;
  m.xTruncate = flushed<&sqlite3_io_methods::xTruncate>;
  m.xSync = flushed<&sqlite3_io_methods::xSync>;
  m.xFileSize = flushed<&sqlite3_io_methods::xFileSize>;
  m.xLock = flushed<&sqlite3_io_methods::xLock>;
  m.xUnlock = flushed<&sqlite3_io_methods::xUnlock>;
  m.xCheckReservedLock = passed<&sqlite3_io_methods::xCheckReservedLock>;
  m.xFileControl = flushed<&sqlite3_io_methods::xFileControl>;
  m.xSectorSize = passed<&sqlite3_io_methods::xSectorSize>;
  m.xDeviceCharacteristics = passed<&sqlite3_io_methods::xDeviceCharacteristics>;
  if (real.iVersion >= 2) {
    if (real.xShmMap != nullptr) m.xShmMap = passed<&sqlite3_io_methods::xShmMap>;
    if (real.xShmLock != nullptr) m.xShmLock = passed<&sqlite3_io_methods::xShmLock>;
    if (real.xShmBarrier != nullptr) m.xShmBarrier = passed<&sqlite3_io_methods::xShmBarrier>;
    if (real.xShmUnmap != nullptr) m.xShmUnmap = passed<&sqlite3_io_methods::xShmUnmap>;
  }
  if (real.iVersion >= 3) {
    if (real.xFetch != nullptr) m.xFetch = flushed<&sqlite3_io_methods::xFetch>;
    if (real.xUnfetch != nullptr) m.xUnfetch = passed<&sqlite3_io_methods::xUnfetch>;
  }
  return m;
}

// The methods of the system's WAL files wrapped, made for the first WAL file opened (all of the
// system VFS's files have the same methods).
const sqlite3_io_methods* wal_methods(const sqlite3_io_methods* real) {
  static const sqlite3_io_methods methods = wal_methods_for(*real);
  return &methods;
}

int open_file(sqlite3_vfs*, const char* name, sqlite3_file* f, int flags, int* out_flags) {
  if ((flags & SQLITE_OPEN_WAL) == 0) {
    // Anything but a WAL is the system's file itself, in the same memory.
    return system_vfs->xOpen(system_vfs, name, f, flags, out_flags);
  }
  auto* w = new (f) WalFile();
  w->real = reinterpret_cast<sqlite3_file*>(reinterpret_cast<char*>(f) + real_offset());
  const int rc = system_vfs->xOpen(system_vfs, name, w->real, flags, out_flags);
  if (rc != SQLITE_OK || w->real->pMethods == nullptr) {
    // SQLite closes a file whose open failed only when it has methods: this one has none.
    w->~WalFile();
    f->pMethods = nullptr;
    return rc != SQLITE_OK ? rc : SQLITE_CANTOPEN;
  }
  w->base.pMethods = wal_methods(w->real->pMethods);
  return SQLITE_OK;
}

int delete_file(sqlite3_vfs*, const char* name, int sync_dir) {
  return system_vfs->xDelete(system_vfs, name, sync_dir);
}
int access(sqlite3_vfs*, const char* name, int flags, int* out) {
  return system_vfs->xAccess(system_vfs, name, flags, out);
}
int full_pathname(sqlite3_vfs*, const char* name, int n, char* out) {
  return system_vfs->xFullPathname(system_vfs, name, n, out);
}
void* dl_open(sqlite3_vfs*, const char* name) {
  return system_vfs->xDlOpen(system_vfs, name);
}
void dl_error(sqlite3_vfs*, int n, char* out) {
  system_vfs->xDlError(system_vfs, n, out);
}
void (*dl_sym(sqlite3_vfs*, void* handle, const char* symbol))(void) {
  return system_vfs->xDlSym(system_vfs, handle, symbol);
}
void dl_close(sqlite3_vfs*, void* handle) {
  system_vfs->xDlClose(system_vfs, handle);
}
int randomness(sqlite3_vfs*, int n, char* out) {
  return system_vfs->xRandomness(system_vfs, n, out);
}
int sleep_for(sqlite3_vfs*, int microseconds) {
  return system_vfs->xSleep(system_vfs, microseconds);
}
int current_time(sqlite3_vfs*, double* out) {
  return system_vfs->xCurrentTime(system_vfs, out);
}
int last_error(sqlite3_vfs*, int n, char* out) {
  return system_vfs->xGetLastError(system_vfs, n, out);
}
int current_time_ms(sqlite3_vfs*, sqlite3_int64* out) {
  return system_vfs->xCurrentTimeInt64(system_vfs, out);
}

sqlite3_vfs make_vfs() {
  system_vfs = sqlite3_vfs_find(nullptr);
  if (system_vfs == nullptr) throw std::runtime_error("journal: SQLite has no default VFS");
  sqlite3_vfs v{};
  // Version 2 at most: the system calls (version 3) are the system VFS's business.
  v.iVersion = system_vfs->iVersion >= 2 && system_vfs->xCurrentTimeInt64 != nullptr ? 2 : 1;
  v.szOsFile = static_cast<int>(real_offset()) + system_vfs->szOsFile;
  v.mxPathname = system_vfs->mxPathname;
  v.zName = "campfire";
  v.xOpen = open_file;
  v.xDelete = delete_file;
  v.xAccess = access;
  v.xFullPathname = full_pathname;
  v.xDlOpen = dl_open;
  v.xDlError = dl_error;
  v.xDlSym = dl_sym;
  v.xDlClose = dl_close;
  v.xRandomness = randomness;
  v.xSleep = sleep_for;
  v.xCurrentTime = current_time;
  v.xGetLastError = last_error;
  if (v.iVersion >= 2) v.xCurrentTimeInt64 = current_time_ms;
  return v;
}

}  // namespace

const char* batching_vfs() {
  static sqlite3_vfs vfs = make_vfs();
  static std::once_flag registered;
  std::call_once(registered, [] {
    if (sqlite3_vfs_register(&vfs, 0) != SQLITE_OK) {
      throw std::runtime_error("journal: cannot register its SQLite VFS");
    }
  });
  return vfs.zName;
}

}  // namespace campfire::server::sqlite
