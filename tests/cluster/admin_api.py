#!/usr/bin/python3
"""The admin API of a cluster acts on the whole cluster: two local nodes and a Redis.

- GET /api/admin/rooms on either node lists the rooms of both, each with its node;
- POST /api/admin/rooms/CODE/close on one node closes a room the other node owns: its players
  get `room_closed`, and the room is gone from every list;
- POST /api/admin/notice on one node reaches the connections of both;
- a wrong token is refused on every node, and a room nobody has is 404.

Prints a closing line `admin api: N passed, N failed`; exits 0 only when every check passed.
"""
import argparse
import asyncio
import json
import os
import shutil
import sys
import tempfile
import urllib.error
import urllib.request

import websockets

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from soak import Failed, LocalCluster  # noqa: E402

TOKEN = "cluster-admin-secret-0123456789"


class Checks:
    def __init__(self):
        self.passed, self.failed = 0, 0

    def check(self, ok, what):
        print(("ok: " if ok else "FAIL: ") + what, flush=True)
        if ok:
            self.passed += 1
        else:
            self.failed += 1


def admin(base, path, body=None, token=TOKEN):
    """(status, answer) of an admin request."""
    req = urllib.request.Request(base + path, method="POST" if body is not None else "GET",
                                 data=json.dumps(body).encode() if body is not None else None,
                                 headers={"Authorization": f"Bearer {token}",
                                          "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.load(r)
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"{}")


async def player(url, name):
    ws = await websockets.connect(url, ping_interval=None)
    await ws.send(json.dumps({"type": "hello", "id": 1, "protocol": 1, "name": name}))
    await until(ws, lambda m: m.get("id") == 1)
    return ws


async def until(ws, predicate, timeout=10):
    while True:
        m = json.loads(await asyncio.wait_for(ws.recv(), timeout))
        if predicate(m):
            return m


async def room_on(ws, game="pinocchio"):
    await ws.send(json.dumps({"type": "create_room", "id": 2, "game": game, "seats": 3}))
    joined = await until(ws, lambda m: m.get("id") == 2)
    if joined.get("type") != "joined":
        raise Failed(f"create_room refused: {joined}")
    return joined["room"]


async def run(cluster, checks):
    a, b = cluster.nodes()[:2]
    anna = await player(cluster.url(a), "Anna")
    bert = await player(cluster.url(b), "Bert")
    room_a = await room_on(anna)
    room_b = await room_on(bert)

    for node in (a, b):
        # A node learns of the others from Redis a few times a second: give a fresh cluster a
        # moment to see all of itself.
        for _ in range(50):
            status, answer = admin(cluster.http(node), "/api/admin/rooms")
            listed = {r["room"]: r.get("node") for r in answer.get("rooms", [])}
            if len(listed) >= 2:
                break
            await asyncio.sleep(0.1)
        checks.check(status == 200 and listed.get(room_a) == a and listed.get(room_b) == b
                     and "unanswered" not in answer,
                     f"the admin rooms of {node} list both nodes' rooms with their nodes")

    status, answer = admin(cluster.http(b), f"/api/admin/rooms/{room_a}/close",
                           {"reason": "closed for the test"})
    checks.check(status == 200 and answer.get("closed") == room_a,
                 f"{b} closes room {room_a}, which {a} owns")
    closed = await until(anna, lambda m: m.get("type") == "room_closed")
    checks.check(closed.get("room") == room_a and closed.get("reason") == "closed for the test",
                 "the room's player is told why it was closed")
    status, answer = admin(cluster.http(a), "/api/admin/rooms")
    checks.check(room_a not in {r["room"] for r in answer.get("rooms", [])},
                 "the closed room is gone from the list")
    status, _ = admin(cluster.http(b), "/api/admin/rooms/ZZZZZZ/close", {})
    checks.check(status == 404, "closing a room nobody has is 404")

    status, answer = admin(cluster.http(a), "/api/admin/notice", {"text": "maintenance at noon"})
    checks.check(status == 200 and answer.get("sent", 0) >= 2,
                 f"a notice through {a} is sent to the connections of both nodes ({answer})")
    for ws, who in ((anna, a), (bert, b)):
        notice = await until(ws, lambda m: m.get("type") == "notice")
        checks.check(notice.get("reason") == "operator" and notice.get("text") ==
                     "maintenance at noon", f"a connection of {who} gets the operator's notice")

    for node in (a, b):
        status, _ = admin(cluster.http(node), "/api/admin/rooms", token="not-the-token-at-all")
        checks.check(status == 403, f"{node} refuses a wrong admin token")
    await anna.close()
    await bert.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", required=True, help="campfire-server binary")
    args = parser.parse_args()
    workdir = tempfile.mkdtemp(prefix="campfire-admin-")
    checks = Checks()
    cluster = None
    try:
        cluster = LocalCluster(args.server, workdir, nodes=2, extra=["--admin-token", TOKEN])
        asyncio.run(run(cluster, checks))
    except (Failed, OSError, asyncio.TimeoutError, websockets.WebSocketException) as e:
        checks.check(False, str(e) or type(e).__name__)
    finally:
        if cluster:
            cluster.stop()
        if checks.failed:
            print(f"logs kept in {workdir}")
        else:
            shutil.rmtree(workdir, ignore_errors=True)
    print(f"admin api: {checks.passed} passed, {checks.failed} failed")
    return 0 if checks.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
