// JSON merge patches (RFC 7386) between two texts of the same object, for clients that ask for
// state updates as patches. The server keeps the text of the last state each member received and
// writes only what changed: members added or changed with their new text, nested objects as
// patches of their own, removed members as null. Arrays and scalars are replaced whole, as the
// RFC says.
//
// Both texts must come from one writer (the server's own, or nlohmann's dump()), so that a member
// spelled the same way has the same key text and an unchanged value the same bytes. The texts are
// scanned, never parsed into trees; a text that is not well-formed JSON gives no patch.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace campfire::protocol {

// The patch that turns `before` into `after`, both JSON object texts: "{}" when they are equal.
// Empty when a merge patch cannot say the change: `after` or `before` is not an object, a member
// changes to null (a null in a patch removes the member), or a member that was not an object
// becomes an object that holds a null member somewhere (applying it would drop that member).
// The caller then sends the whole state.
std::optional<std::string> merge_patch(std::string_view before, std::string_view after);

// For a patch assembled from parts: appends to `out`, an object text being written (`first` true
// while it has no member yet), the patch member that turns member `key` (with its quotes) from
// `before` into `after`, nothing when they are equal. False when a merge patch cannot say it (as
// above); `out` is then not to be used.
bool append_member_patch(std::string& out, bool& first, std::string_view key,
                         std::string_view before, std::string_view after);

// The same for a member that may be absent before or after (nullopt): one that is removed is
// written as null.
bool append_member_change(std::string& out, bool& first, std::string_view key,
                          std::optional<std::string_view> before,
                          std::optional<std::string_view> after);

}  // namespace campfire::protocol
