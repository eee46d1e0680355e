#include "clients/cli/rules.hpp"

#include "clients/common/http_get.hpp"

namespace campfire::cli {

RulesPage fetch_rules(const Endpoint& server, const std::string& game) {
  RulesPage page;
  // Game ids are lower-case letters and dashes; anything else cannot name a game.
  if (game.empty() ||
      game.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") != std::string::npos) {
    page.error = "there is no game '" + game + "' (games lists them)";
    return page;
  }
  try {
    const auto res = client::http_get(server.host, server.port, server.tls, server.insecure,
                                      "/api/games/" + game + "/rules");
    if (res.status == 200) {
      page.markdown = res.body;
    } else if (res.status == 404) {
      page.error = "the server has no rules for '" + game + "' (games lists the games)";
    } else {
      page.error = "the server could not give the rules (HTTP " + std::to_string(res.status) + ")";
    }
  } catch (const std::exception& e) {
    page.error = std::string("cannot fetch the rules: ") + e.what();
  }
  return page;
}

}  // namespace campfire::cli
