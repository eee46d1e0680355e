// The rules documents are Markdown; this turns the part of it they use (headings, paragraphs,
// lists, emphasis, code, tables, quotes) into wrapped terminal lines.
#pragma once

#include <string_view>

#include "clients/cli/text.hpp"

namespace campfire::cli {

Lines render_markdown(std::string_view markdown, int width);

}  // namespace campfire::cli
