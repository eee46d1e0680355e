#!/usr/bin/env bash
# Prepares this machine for docker/test.sh: a container engine and a debian:bookworm base image.
# Docker is used when its engine answers; otherwise podman (with runc) is installed from Debian.
# When no registry can be reached, the base image is made locally with debootstrap.
# Idempotent; needs root (or sudo) only for what is missing. Not part of `make test`.
set -euo pipefail

sudo_cmd=()
if [[ $(id -u) -ne 0 ]]; then sudo_cmd=(sudo); fi

if docker info >/dev/null 2>&1; then
  engine=docker
else
  engine=podman
  missing=()
  for p in podman podman-compose runc debootstrap uidmap slirp4netns fuse-overlayfs netavark aardvark-dns iptables curl; do
    status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
    [[ "$status" == "install ok installed" ]] || missing+=("$p")
  done
  if ((${#missing[@]} > 0)); then
    echo "Installing: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    "${sudo_cmd[@]}" apt-get update -qq
    "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
  fi
  # runc works where crun's cgroup handling does not; the default file limits of podman are too
  # low for a server holding thousands of connections.
  conf=/etc/containers/containers.conf
  if ! grep -qs '^[[:space:]]*runtime[[:space:]]*=[[:space:]]*"runc"' "$conf" ||
     ! grep -qs '^[[:space:]]*default_ulimits' "$conf"; then
    echo "Setting runtime = \"runc\" and default_ulimits in $conf"
    tmp=$(mktemp)
    if [[ -f "$conf" ]]; then
      # Drop earlier settings of these keys and their (empty) sections' duplicates.
      grep -v -E '^[[:space:]]*(runtime|default_ulimits)[[:space:]]*=' "$conf" >"$tmp" || true
    fi
    python3 - "$tmp" <<'PY'
import sys, re
path = sys.argv[1]
text = open(path).read()
def put(text, section, line):
    m = re.search(r'^\[' + section + r'\][^\n]*\n', text, re.M)
    if m:
        return text[:m.end()] + line + "\n" + text[m.end():]
    return text.rstrip("\n") + ("\n\n" if text.strip() else "") + "[" + section + "]\n" + line + "\n"
text = put(text, "engine", 'runtime = "runc"')
text = put(text, "containers", 'default_ulimits = ["nofile=20000:20000", "nproc=32768:32768"]')
open(path, "w").write(text)
PY
    "${sudo_cmd[@]}" mkdir -p /etc/containers
    "${sudo_cmd[@]}" install -m 644 "$tmp" "$conf"
    rm -f "$tmp"
  fi
fi

# The base image: from a registry when one answers, else built here with debootstrap.
if ! "$engine" image inspect debian:bookworm >/dev/null 2>&1; then
  if ! timeout 120 "$engine" pull docker.io/library/debian:bookworm; then
    echo "No registry reachable: making debian:bookworm with debootstrap (a few minutes)"
    if ! command -v debootstrap >/dev/null; then
      "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends debootstrap
    fi
    root=$(mktemp -d)
    trap '"${sudo_cmd[@]}" rm -rf "$root"' EXIT
    "${sudo_cmd[@]}" debootstrap --variant=minbase bookworm "$root" http://deb.debian.org/debian
    # What the official image has: security updates in the sources, a clean apt cache.
    echo "deb http://deb.debian.org/debian-security bookworm-security main" |
      "${sudo_cmd[@]}" tee -a "$root/etc/apt/sources.list" >/dev/null
    "${sudo_cmd[@]}" rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*
    "${sudo_cmd[@]}" tar -C "$root" -c . |
      "$engine" import --change 'CMD ["bash"]' - docker.io/library/debian:bookworm
  fi
fi
echo "$engine"
