// campfire-cli on a terminal: the table drawn in place, the moves to choose with the arrow keys
// or by number, events and chat beside it, and an input line nothing else writes into.
#pragma once

#include "clients/cli/session.hpp"

namespace campfire::cli {

// Runs until the player quits; the exit code.
int run_full_screen(Session& session);

}  // namespace campfire::cli
