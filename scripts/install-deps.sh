#!/usr/bin/env bash
# Installs the Debian packages Campfire builds and tests with. Idempotent and non-interactive:
# packages already present are left alone, and apt runs only when something is missing.
set -euo pipefail

packages=(
  build-essential cmake ninja-build ccache pkg-config
  libboost1.81-dev nlohmann-json3-dev libspdlog-dev libcli11-dev libsqlite3-dev libssl-dev
  libjemalloc-dev zlib1g-dev libhiredis-dev libgtest-dev libgmock-dev libbenchmark-dev libncurses-dev
  python3 python3-websockets
)
# CAMPFIRE_DEPS=build installs only what compiling the server needs (the container's build
# stage); the default also brings the test tools: clang for the fuzz targets, chromium with
# node for the browser client's tests (a node that brings its own npm is kept as it is), tmux,
# in which the terminal client's tests run it full screen, redis-server for the cluster's
# tests (each starts its own), pngquant, which keeps the README's screenshots small, and
# python3-jsonschema, which checks the games' JSON Schemas.
if [[ "${CAMPFIRE_DEPS:-all}" != "build" ]]; then
  packages+=(clang libclang-rt-14-dev chromium tmux redis-server pngquant python3-jsonschema)
  if ! command -v node >/dev/null || ! command -v npm >/dev/null; then packages+=(nodejs npm); fi
fi

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$p")
done

if ((${#missing[@]} == 0)); then
  exit 0
fi

echo "Installing: ${missing[*]}"
sudo_cmd=()
if [[ $(id -u) -ne 0 ]]; then sudo_cmd=(sudo); fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
