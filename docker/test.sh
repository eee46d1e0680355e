#!/usr/bin/env bash
# Builds the Campfire image and checks it for real, with Docker or podman:
#   1. the image runs as a non-root user and declares its port, volume and health check;
#   2. a container with a named volume becomes healthy and serves every game's rules page;
#   3. campfire-bot plays a whole game against it over the published port;
#   4. a room with moves played survives a restart of the container (the journal in the volume):
#      the player rejoins with its token and the game goes on from where it was.
# Usage: docker/test.sh [path to campfire-bot]   (make container-test builds it and passes it)
set -euo pipefail
cd "$(dirname "$0")/.."

bot=${1:-build/default/clients/campfire-bot}
[[ -x "$bot" ]] || { echo "docker/test.sh: no campfire-bot at $bot (make container-test builds it)" >&2; exit 2; }

engine=$(docker/deps.sh | tail -n 1)
image=${CAMPFIRE_TEST_IMAGE:-campfire:test}
name=campfire-test-$$
volume=campfire-test-data-$$
work=$(mktemp -d)
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

cleanup() {
  "$engine" rm -f "$name" >/dev/null 2>&1 || true
  "$engine" volume rm -f "$volume" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

step() { echo; echo "== $*"; }
fail() {
  echo "FAILED: $*" >&2
  echo "--- container log (last 40 lines)" >&2
  "$engine" logs --tail 40 "$name" >&2 2>&1 || true
  exit 1
}

step "building $image with $engine"
build_args=(build -f docker/Dockerfile -t "$image")
# podman keeps HEALTHCHECK only in the Docker image format.
[[ "$engine" == podman ]] && build_args+=(--format docker)
start=$(date +%s)
"$engine" "${build_args[@]}" .
echo "image built in $(($(date +%s) - start)) s, $("$engine" image inspect --format '{{.Size}}' "$image" | awk '{printf "%.0f MB", $1 / 1e6}')"

step "image settings"
user=$("$engine" image inspect --format '{{.Config.User}}' "$image")
[[ -n "$user" && "$user" != root && "$user" != 0 ]] || fail "the image runs as root (User='$user')"
"$engine" image inspect --format '{{json .Config.ExposedPorts}}' "$image" | grep -q '"8080/tcp"' ||
  fail "port 8080 is not exposed"
"$engine" image inspect --format '{{json .Config.Volumes}}' "$image" | grep -q '/var/lib/campfire' ||
  fail "/var/lib/campfire is not a volume"
"$engine" image inspect --format '{{json .Config.Healthcheck}}' "$image" | grep -q healthz ||
  fail "no HEALTHCHECK on /healthz"
echo "user $user, port 8080, volume /var/lib/campfire, health check on /healthz"

run_container() {
  "$engine" run -d --name "$name" -p "127.0.0.1:$port:8080" -v "$volume:/var/lib/campfire" \
    -e CAMPFIRE_BOT_DELAY_MS=20 -e CAMPFIRE_JSON_LOGS=true "$image" >/dev/null
}

# Healthy by the image's own HEALTHCHECK (run on demand: podman needs systemd for its timers),
# and reachable on the published port.
wait_healthy() {
  local deadline=$((SECONDS + 60))
  while ((SECONDS < deadline)); do
    local healthy=no
    if [[ "$engine" == podman ]]; then
      "$engine" healthcheck run "$name" >/dev/null 2>&1 && healthy=yes
    else
      [[ $("$engine" inspect --format '{{.State.Health.Status}}' "$name") == healthy ]] && healthy=yes
    fi
    if [[ $healthy == yes ]] && curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1; then
      return 0
    fi
    [[ $("$engine" inspect --format '{{.State.Running}}' "$name") == true ]] ||
      fail "the container stopped"
    sleep 1
  done
  fail "not healthy within 60 s"
}

step "starting $name on 127.0.0.1:$port with volume $volume"
run_container
start=$(date +%s)
wait_healthy
echo "healthy after $(($(date +%s) - start)) s: $(curl -fsS "http://127.0.0.1:$port/healthz")"
[[ $("$engine" exec "$name" id -u) != 0 ]] || fail "the server runs as root"

step "every game's rules page is served from the image"
games=$(curl -fsS "http://127.0.0.1:$port/api/games" |
  /usr/bin/python3 -c 'import json, sys; print(" ".join(g["id"] for g in json.load(sys.stdin)))')
[[ -n "$games" ]] || fail "/api/games lists no game"
for id in $games; do
  type=$(curl -fsS -o "$work/rules.md" -w '%{content_type}' "http://127.0.0.1:$port/api/games/$id/rules") ||
    fail "no rules page for $id"
  [[ "$type" == "text/markdown; charset=utf-8" ]] || fail "the rules of $id are served as '$type'"
  cmp -s "$work/rules.md" "docs/rules/$id.md" || fail "the rules page of $id differs from docs/rules/$id.md"
  echo "$id: $(wc -c <"$work/rules.md") bytes of rules"
done

step "campfire-bot plays a whole game over the published port"
"$bot" --port "$port" --game pinocchio --seats 4 --fill-bots --quiet >"$work/bot.log" 2>&1 ||
  { cat "$work/bot.log"; fail "campfire-bot did not finish its game"; }
cat "$work/bot.log"
grep -q "game over" "$work/bot.log" || fail "campfire-bot printed no result"
curl -fsS "http://127.0.0.1:$port/metrics" | grep -E '^campfire_(actions_total|rooms\{)' ||
  fail "/metrics shows no actions"

step "a room survives a restart"
/usr/bin/python3 docker/restart_check.py begin --port "$port" --state "$work/room.json" ||
  fail "could not set up the room"
start=$(date +%s)
"$engine" restart "$name" >/dev/null
wait_healthy
echo "restarted and healthy in $(($(date +%s) - start)) s"
/usr/bin/python3 docker/restart_check.py resume --port "$port" --state "$work/room.json" ||
  fail "the room did not survive the restart"

step "all container checks passed"
