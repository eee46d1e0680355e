// campfire-cli: play Campfire card games in a terminal. On a terminal it is full screen (the
// table drawn in place, moves chosen with the arrow keys or by number, events and chat beside
// it); through a pipe or a script it reads commands and prints lines; --json speaks the raw
// protocol. Either way it reconnects by itself and takes its seat back.
#include <unistd.h>
#include <CLI/CLI.hpp>

#include <cstdlib>
#include <iostream>
#include <string>

#include "clients/cli/full_screen.hpp"
#include "clients/cli/line_mode.hpp"
#include "clients/cli/seat_store.hpp"
#include "clients/cli/session.hpp"

namespace {

std::string default_name() {
  const char* user = std::getenv("USER");
  return user != nullptr && *user != '\0' ? user : "player";
}

}  // namespace

int main(int argc, char** argv) {
  using namespace campfire::cli;
  Endpoint endpoint;
  std::string name = default_name();
  bool json_mode = false;
  bool lines = false;
  std::string seat_file;
  CLI::App app{"campfire-cli: play Campfire card games in a terminal"};
  app.add_option("--host", endpoint.host, "server host");
  app.add_option("--port", endpoint.port, "server port");
  app.add_option("--name", name, "display name");
  app.add_flag("--tls", endpoint.tls, "connect with wss://");
  app.add_flag("--insecure", endpoint.insecure, "do not verify the server's certificate");
  app.add_flag("--json", json_mode,
               "print every message as a JSON line; send each JSON line read from stdin");
  app.add_flag("--lines", lines, "print lines even on a terminal (as through a pipe)");
  app.add_option("--token-file", seat_file,
                 "where the seats you hold are remembered (default: " +
                     SeatStore::default_path().string() + ")");
  CLI11_PARSE(app, argc, argv);

  try {
    SeatStore seats(seat_file.empty() ? SeatStore::default_path()
                                      : std::filesystem::path(seat_file));
    Session session(endpoint, name, seats);
    const bool terminal = ::isatty(STDIN_FILENO) != 0 && ::isatty(STDOUT_FILENO) != 0;
    if (terminal && !json_mode && !lines) return run_full_screen(session);
    return run_line_mode(session, json_mode, ::isatty(STDIN_FILENO) != 0);
  } catch (const std::exception& e) {
    std::cerr << "campfire-cli: " << e.what() << "\n";
    return 1;
  }
}
