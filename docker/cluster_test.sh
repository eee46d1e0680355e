#!/usr/bin/env bash
# Brings up docker/compose.cluster.yaml for real (Redis, three nodes, HAProxy on one published
# port) and plays through HAProxy while nodes are killed: tests/cluster/soak.py plays every game
# over connections the balancer spreads over the nodes, kills the node that owns the busiest rooms
# again and again (and starts it again), and checks every game finishes with every acknowledged
# move in its place.
# Usage: docker/cluster_test.sh [image]   (make container-test builds the image and passes it)
set -euo pipefail
cd "$(dirname "$0")/.."

engine=$(docker/deps.sh | tail -n 1)
if [[ "$engine" == docker ]]; then compose=(docker compose); else compose=(podman-compose); fi
export CAMPFIRE_IMAGE=${1:-${CAMPFIRE_TEST_IMAGE:-campfire:test}}
project=campfire-cluster-test-$$
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
export CAMPFIRE_PUBLISH=127.0.0.1:$port CAMPFIRE_TEST_MODE=true CAMPFIRE_WINDOW_SCALE=0.05 \
  CAMPFIRE_BOT_DELAY_MS=20
run_compose() { "${compose[@]}" -p "$project" -f docker/compose.cluster.yaml "$@"; }

cleanup() { run_compose down -v >/dev/null 2>&1 || true; }
trap cleanup EXIT

step() { echo; echo "== $*"; }
# The container of one service, by the labels both compose tools put on what they start.
container() {
  "$engine" ps -a -q --filter "label=com.docker.compose.project=$project" \
    --filter "label=com.docker.compose.service=$1" | head -n 1
}
fail() {
  echo "FAILED: $*" >&2
  for s in redis node1 node2 node3 haproxy; do
    c=$(container "$s")
    [[ -n "$c" ]] || continue
    echo "--- $s (last 30 lines)" >&2
    "$engine" logs --tail 30 "$c" >&2 2>&1 || true
  done
  exit 1
}

"$engine" image inspect "$CAMPFIRE_IMAGE" >/dev/null 2>&1 ||
  { echo "docker/cluster_test.sh: no image $CAMPFIRE_IMAGE (make container-test builds it)" >&2; exit 2; }

step "building the Redis and HAProxy images from debian:bookworm"
run_compose build redis haproxy

step "starting Redis, three nodes and HAProxy ($project, published on 127.0.0.1:$port)"
run_compose up -d
deadline=$((SECONDS + 90))
declare -A seen=()
# Round robin: the balancer's answers name each node in turn once all three are up.
while ((SECONDS < deadline)) && ((${#seen[@]} < 3)); do
  node=$(curl -fsS "http://127.0.0.1:$port/healthz" 2>/dev/null |
    python3 -c 'import json, sys; print(json.load(sys.stdin).get("node", ""))' 2>/dev/null || true)
  [[ -n "$node" ]] && seen[$node]=1
  sleep 0.5
done
((${#seen[@]} == 3)) || fail "HAProxy did not reach three nodes within 90 s (saw: ${!seen[*]})"
echo "HAProxy answers from ${!seen[*]}"

step "every game played through HAProxy while nodes are killed and started again"
nodes=()
for s in node1 node2 node3; do
  c=$(container "$s")
  [[ -n "$c" ]] || fail "no container for $s"
  nodes+=("$s=$c")
done
/usr/bin/python3 tests/cluster/soak.py --url "ws://127.0.0.1:$port/ws" --http "http://127.0.0.1:$port" \
  --kill "$engine kill {node}" --start "$engine start {node}" \
  --nodes "$(IFS=,; echo "${nodes[*]}")" --kills 3 --interval 3 ||
  fail "the cluster lost a game or a move"

step "all cluster container checks passed"
