// campfire-cli when it does not run on a terminal (a pipe, a script): one loop polls both stdin
// and the server, and prints what happens as lines. Commands run one at a time: each waits for
// its reply, and a move number (or `wait`) waits until it is your turn, so a script can play
// without reading the screen. --json prints every message as one JSON line and sends each JSON
// line read from stdin. A dropped connection is made again and the seat taken back.
#pragma once

#include "clients/cli/session.hpp"

namespace campfire::cli {

// Runs until `quit` or the end of the input (once every reply came); the exit code.
int run_line_mode(Session& session, bool json_mode, bool interactive);

}  // namespace campfire::cli
