#!/usr/bin/python3
"""Checks the shuffle of a finished Campfire game from its replay (GET /api/replays/CODE), as
PROTOCOL.md's "Fair shuffles" describes, with nothing but Python's standard library:

- the revealed server seed hashes to the commitment every state carried;
- the derived seed is SHA-256 of the server seed and every seat's contribution, and the game's
  seed is its first 8 bytes;
- the dealt deck order is that seed's shuffle (xoshiro256** seeded by SplitMix64, Fisher-Yates
  from the back) of the replay's list of the game's cards.

What it cannot check without the engine: that this list is the game's own, and that every
action was legal and led to the result. campfire-verify checks those too.

Usage: verify.py REPLAY.json   (prints "fair" and exits 0, or each difference and exits 1)
"""

import hashlib
import json
import re
import sys

MASK = (1 << 64) - 1
HEX64 = re.compile(r"^[0-9a-f]{64}$")
ENTROPY = re.compile(r"^[0-9a-f]{16,128}$")


def sha256_hex(text):
    return hashlib.sha256(text.encode("ascii")).hexdigest()


class Rng:
    """xoshiro256** seeded through SplitMix64, as the engine's campfire::Rng."""

    def __init__(self, seed):
        self.s = []
        state = seed
        for _ in range(4):
            state = (state + 0x9E3779B97F4A7C15) & MASK
            z = state
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
            self.s.append(z ^ (z >> 31))

    @staticmethod
    def rotl(x, k):
        return ((x << k) | (x >> (64 - k))) & MASK

    def next(self):
        s = self.s
        result = (self.rotl((s[1] * 5) & MASK, 7) * 9) & MASK
        t = (s[1] << 17) & MASK
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = self.rotl(s[3], 45)
        return result

    def below(self, bound):
        """Uniform in [0, bound) by rejection on a power-of-two mask."""
        if bound <= 1:
            return 0
        mask = (1 << (bound - 1).bit_length()) - 1
        while True:
            x = self.next() & mask
            if x < bound:
                return x

    def shuffle(self, items):
        for i in range(len(items), 1, -1):
            j = self.below(i)
            items[i - 1], items[j] = items[j], items[i - 1]


def check(replay):
    """Returns the list of differences (empty when the shuffle is fair)."""
    problems = []
    f = replay.get("fairness")
    if not isinstance(f, dict):
        return ["fairness: the replay has none (a room from before fair shuffles)"]
    if f.get("fixed") is True:
        return ["fixed deal: the room's creator chose the deal (a test-mode seed or deck order), "
                "so it is not provably fair"]
    seats = replay.get("seats")
    server_seed = f.get("serverSeed")
    if not isinstance(server_seed, str) or not HEX64.match(server_seed):
        return ["serverSeed: missing or not 64 lowercase hex digits"]
    hashed = sha256_hex("campfire-commitment-v1:" + server_seed)
    if f.get("commitment") != hashed:
        problems.append(f"commitment: the revealed server seed does not match it (the commitment "
                        f"is {f.get('commitment')!r}, the server seed hashes to {hashed})")
    given = f.get("contributions")
    if not isinstance(given, list) or len(given) != seats:
        return problems + ["contributions: not a list with one entry per seat"]
    parts = []
    for seat, c in enumerate(given):
        if c is None:
            parts.append("")
        elif isinstance(c, str) and ENTROPY.match(c):
            parts.append(c)
        else:
            problems.append(f"contributions: seat {seat}'s is not lowercase hex of 16 to 128 digits")
            parts.append("")
    derived = sha256_hex("campfire-seed-v1:" + server_seed + "".join(":" + p for p in parts))
    if f.get("derivedSeed") != derived:
        problems.append(f"derived seed: the replay says {f.get('derivedSeed')!r}, the server seed "
                        f"and the contributions give {derived}")
    seed = int(derived[:16], 16)
    if str(replay.get("seed")) != str(seed):
        problems.append(f"seed: the replay deals from {replay.get('seed')!r}, the derived seed "
                        f"gives {seed}")
    cards = f.get("cards")
    deck = f.get("deck")
    if not isinstance(cards, list) or not isinstance(deck, list):
        return problems + ["deck order: the replay lacks the game's cards or the dealt deck"]
    dealt = list(cards)
    Rng(seed).shuffle(dealt)
    if dealt != deck:
        same = 0
        while same < min(len(deck), len(dealt)) and deck[same] == dealt[same]:
            same += 1
        if same < min(len(deck), len(dealt)):
            problems.append(f"deck order differs at position {same} (0 is the top): the replay "
                            f"says {deck[same]!r}, the seed deals {dealt[same]!r}")
        else:
            problems.append(f"deck order: the replay lists {len(deck)} cards, the seed deals "
                            f"{len(dealt)}")
    return problems


def main():
    if len(sys.argv) != 2 or sys.argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(sys.argv) == 2 else 2
    try:
        with open(sys.argv[1], encoding="utf-8") as f:
            replay = json.load(f)
    except (OSError, ValueError) as e:
        print(f"verify.py: cannot read {sys.argv[1]}: {e}", file=sys.stderr)
        return 2
    problems = check(replay if isinstance(replay, dict) else {})
    if not problems:
        print("fair (commitment, seed derivation and deck order; campfire-verify also replays "
              "the actions)")
        return 0
    print("not fair:")
    for p in problems:
        print("  " + p)
    return 1


if __name__ == "__main__":
    sys.exit(main())
