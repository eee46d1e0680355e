// The error codes: one list (protocol/error_codes.def) behind the enum, its spelling, its parsing
// and the table in PROTOCOL.md.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/error_codes.hpp"

namespace campfire::protocol {
namespace {

struct Row {
  std::string code;
  std::string text;
};

std::string trimmed(const std::string& s) {
  const auto first = s.find_first_not_of(' ');
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(' ') - first + 1);
}

// The rows of the table that follows the "| code | meaning |" header in PROTOCOL.md.
std::vector<Row> documented_rows() {
  std::ifstream in(std::string(CAMPFIRE_SOURCE_DIR) + "/protocol/PROTOCOL.md");
  EXPECT_TRUE(in.good()) << "PROTOCOL.md cannot be read";
  std::vector<Row> rows;
  std::string line;
  int headers = 0;
  bool in_table = false;
  while (std::getline(in, line)) {
    if (line == "| code | meaning |") {
      ++headers;
      in_table = true;
      std::getline(in, line);
      EXPECT_EQ(line, "|---|---|");
      continue;
    }
    if (!in_table) continue;
    if (line.empty() || line[0] != '|') {
      in_table = false;
      continue;
    }
    // | `code` | meaning |
    const auto middle = line.find(" | ", 1);
    EXPECT_NE(middle, std::string::npos) << line;
    EXPECT_EQ(line.back(), '|') << line;
    if (middle == std::string::npos || line.back() != '|') continue;
    std::string code = trimmed(line.substr(1, middle - 1));
    EXPECT_TRUE(code.size() > 2 && code.front() == '`' && code.back() == '`') << line;
    if (code.size() > 2) code = code.substr(1, code.size() - 2);
    rows.push_back({code, trimmed(line.substr(middle + 3, line.size() - middle - 4))});
  }
  EXPECT_EQ(headers, 1) << "PROTOCOL.md should have exactly one error code table";
  return rows;
}

TEST(ErrorCodes, TheDocumentedTableIsTheListInOrder) {
  const std::vector<Row> rows = documented_rows();
  ASSERT_EQ(rows.size(), kErrorCodes.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i].code, to_string(kErrorCodes[i])) << "row " << i + 1;
    EXPECT_EQ(rows[i].text, meaning(kErrorCodes[i])) << "row " << i + 1 << ": " << rows[i].code;
  }
}

TEST(ErrorCodes, SpellingsAreDistinctAndRoundTrip) {
  std::set<std::string_view> seen;
  for (const ErrorCode code : kErrorCodes) {
    const std::string_view wire = to_string(code);
    EXPECT_TRUE(seen.insert(wire).second) << wire << " is listed twice";
    ASSERT_FALSE(wire.empty());
    for (const char c : wire) {
      EXPECT_TRUE((c >= 'a' && c <= 'z') || c == '_') << wire;
    }
    EXPECT_FALSE(meaning(code).empty()) << wire;
    const auto parsed = parse_error_code(wire);
    ASSERT_TRUE(parsed.has_value()) << wire;
    EXPECT_EQ(*parsed, code) << wire;
  }
}

TEST(ErrorCodes, KnownSpellingsOnTheWire) {
  EXPECT_EQ(to_string(ErrorCode::kBadJson), "bad_json");
  EXPECT_EQ(to_string(ErrorCode::kNotYourTurn), "not_your_turn");
  EXPECT_EQ(to_string(ErrorCode::kRateLimited), "rate_limited");
  EXPECT_EQ(to_string(ErrorCode::kNoSuchReplay), "no_such_replay");
}

TEST(ErrorCodes, ParseRefusesWhatIsNotACode) {
  for (const char* wire : {"", "chess", "must_match", "BAD_JSON", "bad_json ", " bad_json",
                           "bad-json", "bad_jso", "bad_json\n"}) {
    EXPECT_FALSE(parse_error_code(wire).has_value()) << '"' << wire << '"';
  }
}

}  // namespace
}  // namespace campfire::protocol
