# Writes OUT, a C++ source holding every game's rules page (DOCS_DIR/<game-id>.md) as bytes, so
# the server answers GET /api/games/<id>/rules from its own binary wherever it is installed.
# Run by the build: cmake -DDOCS_DIR=... -DOUT=... -P embed_rules.cmake
file(GLOB pages "${DOCS_DIR}/*.md")
list(SORT pages)
set(arrays "")
set(entries "")
foreach(page IN LISTS pages)
  get_filename_component(id "${page}" NAME_WE)
  if(id STREQUAL "README")
    continue()
  endif()
  string(MAKE_C_IDENTIFIER "k_${id}" name)
  file(READ "${page}" bytes HEX)
  string(LENGTH "${bytes}" hex_length)
  math(EXPR size "${hex_length} / 2")
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "'\\\\x\\1'," bytes "${bytes}")
  string(APPEND arrays "constexpr char ${name}[] = {${bytes}};\n")
  string(APPEND entries "    {\"${id}\", std::string_view(${name}, ${size})},\n")
endforeach()
file(WRITE "${OUT}.tmp" "// Generated from docs/rules by server/embed_rules.cmake: do not edit.
#include \"server/rules_docs.hpp\"

#include <array>
#include <utility>

namespace campfire::server {
namespace {
${arrays}}  // namespace

std::optional<std::string_view> rules_document(std::string_view game_id) {
  static constexpr std::pair<std::string_view, std::string_view> kPages[] = {
${entries}  };
  for (const auto& [id, text] : kPages) {
    if (id == game_id) return text;
  }
  return std::nullopt;
}

}  // namespace campfire::server
")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUT}.tmp")
