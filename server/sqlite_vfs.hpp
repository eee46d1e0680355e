// The journal's SQLite files, through a thin layer over the system's own (the default VFS) that
// gathers the writes of one commit to the WAL into one.
//
// SQLite writes a WAL frame as two writes, its 24-byte header and then its page, so a commit of
// five actions (nine pages or so) made eighteen `pwrite` calls, about a tenth of the server's
// system calls under load. This layer keeps the writes that follow each other in the WAL in a
// buffer, and writes the buffer out as one call when the commit's last frame (the one whose
// header gives the database's size) has been written, before SQLite goes on to publish the
// frames in the WAL index; so no other connection, in this process or another, can see a frame
// that is not in the file yet, and a write that fails fails the commit, as before. Anything else
// done to the WAL (a read, a sync, its size, a write elsewhere, a lock, closing it) writes the
// buffer out first. Every other file passes straight to the system's VFS.
#pragma once

namespace campfire::server::sqlite {

// The name of the layer's VFS, registered on the first call (not as the default).
const char* batching_vfs();

}  // namespace campfire::server::sqlite
