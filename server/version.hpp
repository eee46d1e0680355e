// How the server names itself: in the handshake's Server header and in the welcome message.
// Kept equal to the project's version in the top CMakeLists.txt.
#pragma once

namespace campfire::server {

inline constexpr const char* kServerName = "campfire 0.1.0";

}  // namespace campfire::server
