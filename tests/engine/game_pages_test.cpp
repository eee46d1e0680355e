// protocol/games/<id>.md is made from each game's declaration (engine/core/game_page.hpp): the
// committed pages must be exactly what the declarations give, and PROTOCOL.md links each one.
// `make game-pages` writes them anew (this test with CAMPFIRE_WRITE_GAME_PAGES=1).
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "engine/core/game_page.hpp"
#include "engine/core/registry.hpp"
#include "engine/core/schema.hpp"

namespace campfire {
namespace {

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(GamePages, CommittedPagesAreTheDeclarations) {
  const bool write = std::getenv("CAMPFIRE_WRITE_GAME_PAGES") != nullptr;
  const std::string protocol = read(CAMPFIRE_SOURCE_DIR "/protocol/PROTOCOL.md");
  for (const Game* g : Registry::builtin().games()) {
    const std::string id = g->info().id;
    const std::string path = CAMPFIRE_SOURCE_DIR "/protocol/games/" + id + ".md";
    const std::string page = game_page(*g);
    if (write) {
      std::ofstream(path) << page;
      std::cout << "wrote " << path << "\n";
    }
    EXPECT_EQ(read(path), page) << "protocol/games/" << id
                                << ".md differs from the game's declaration: run make game-pages";
    EXPECT_NE(protocol.find("(games/" + id + ".md)"), std::string::npos)
        << "PROTOCOL.md does not link games/" << id << ".md";
  }
}

// A page names every field, move and event the game declares.
TEST(GamePages, APageNamesEverythingDeclared) {
  for (const Game* g : Registry::builtin().games()) {
    SCOPED_TRACE(g->info().id);
    const std::string page = game_page(*g);
    const schema::GameSchema s = g->schema();
    std::vector<std::string> fields;
    schema::member_paths(s.view, "", fields);
    for (const std::string& f : fields) {
      EXPECT_NE(page.find("`" + f + "`"), std::string::npos) << f;
    }
    for (const auto& m : s.moves) EXPECT_NE(page.find("### `" + m.name + "`"), std::string::npos);
    for (const auto& e : s.events) EXPECT_NE(page.find("### `" + e.type + "`"), std::string::npos);
    for (const auto& c : s.cards) EXPECT_NE(page.find("| `" + c.code + "` |"), std::string::npos);
    EXPECT_NE(page.find("## A game in progress"), std::string::npos);
  }
}

}  // namespace
}  // namespace campfire
