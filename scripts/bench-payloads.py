#!/usr/bin/env python3
"""Writes the four argument texts `make bench` times, byte for byte.

The texts are fixed so that figures stay comparable across runs and with
other tools measured on the same inputs: compact JSON, ASCII only, keys in
the order written, no final newline. Their sizes and sha256 sums are listed
in docs/performance.md, and this script refuses to write anything else.

Usage: scripts/bench-payloads.py DIR
"""

import hashlib
import json
import pathlib
import sys

# name -> (bytes, sha256) as docs/performance.md lists them.
EXPECTED = {
    "w1_full_replace_50": (6785, "daa2a0bf6fb37f082eefb555f8230e4ed715dbebfd38167f6c6a09ee8bcbe0e6"),
    "w2_init": (2338, "cb5df0b5e7ebf5d974ffb95b3c7bf766300bbc9cd97cd503e6e085408452b584"),
    "w2_ops_batch": (272, "23e3907d463310b4ba1257554617b35c1072370cccf2480d54f5869a0e5b4569"),
    "w3_learn_20": (1634, "25983d0f220b40316ec773e011207632ba7ca7fe432ad7f853e0a8bab4b2f9ad"),
}


def task(n):
    """The text of task n: 40 bytes."""
    return "Implement module %02d parser and its tests" % n


def doing(n):
    """The active form of task n: 45 bytes."""
    return "Implementing module %02d lexer+parser and tests" % n


def status_at(n, finished, current="in_progress"):
    """Tasks before `finished` are completed, that one is current, the rest pending."""
    if n < finished:
        return "completed"
    return current if n == finished else "pending"


def write_todos_50():
    """claude-code's TodoWrite: 50 items, ten done, the eleventh in progress."""
    return {
        "todos": [
            {"content": task(n), "status": status_at(n, 10), "activeForm": doing(n)}
            for n in range(50)
        ]
    }


PHASES = ("Foundation", "Parsing", "Storage", "Networking", "Release")


def pi_init():
    """pi's init: five phases of ten tasks each (set up before timing)."""
    return {
        "ops": [
            {
                "op": "init",
                "list": [
                    {"phase": phase, "items": [task(10 * p + k) for k in range(10)]}
                    for p, phase in enumerate(PHASES)
                ],
            }
        ]
    }


def pi_batch():
    """The timed pi batch: finish task 0, start task 25, note on it."""
    note = "Checked feature flags and lints.\nNext: wire the error type."
    return {
        "ops": [
            {"op": "done", "task": task(0)},
            {"op": "start", "task": task(25)},
            {"op": "note", "task": task(25), "text": note},
        ]
    }


def learn_20():
    """learn-claude-code's todo: 20 numbered items, four done, the fifth in progress."""
    return {
        "items": [
            {"id": str(n + 1), "text": task(n), "status": status_at(n, 4)}
            for n in range(20)
        ]
    }


BUILDERS = {
    "w1_full_replace_50": write_todos_50,
    "w2_init": pi_init,
    "w2_ops_batch": pi_batch,
    "w3_learn_20": learn_20,
}


def main(argv):
    if len(argv) != 2:
        print("usage: bench-payloads.py DIR", file=sys.stderr)
        return 2
    out = pathlib.Path(argv[1])
    out.mkdir(parents=True, exist_ok=True)
    for name, build in BUILDERS.items():
        data = json.dumps(build(), separators=(",", ":"), ensure_ascii=True).encode("ascii")
        digest = hashlib.sha256(data).hexdigest()
        if (len(data), digest) != EXPECTED[name]:
            print(f"bench-payloads: {name} came out as {len(data)} bytes {digest}, "
                  f"not {EXPECTED[name]}", file=sys.stderr)
            return 1
        (out / f"{name}.json").write_bytes(data)
        print(f"{name}.json  bytes={len(data)}  sha256={digest}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
