#!/usr/bin/env python3
"""Starts an MCP server over stdio as a client's configuration would and
checks that it answers as one: ``initialize``, ``tools/list`` (the one tool
named) and a ``tools/call`` of it that is not an error, then that it exits
with status 0 once its input closes.

    mcp-stdio-check.py LABEL TOOL ARGUMENTS_JSON -- COMMAND [ARG ...]

Used by the install checks (scripts/python-readme-install.sh,
scripts/dist-test.sh) for ``uvx todokit ... mcp``, ``npx todokit ... mcp``
and the release binary. Standard library only: it runs in whatever Python
the check has.
"""

import json
import subprocess
import sys


def main() -> None:
    if len(sys.argv) < 6 or sys.argv[4] != "--":
        sys.exit(__doc__)
    label, tool, arguments = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
    server = subprocess.Popen(sys.argv[5:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert server.stdin is not None and server.stdout is not None

    def send(message: dict) -> None:
        server.stdin.write(json.dumps({"jsonrpc": "2.0", **message}) + "\n")
        server.stdin.flush()

    def answer(id: int) -> dict:
        while True:
            line = server.stdout.readline()
            if not line:
                sys.exit(f"{label}: the server closed its output (status {server.wait(timeout=30)})")
            message = json.loads(line)
            if message.get("id") == id:
                if "error" in message:
                    sys.exit(f"{label}: request {id} failed: {message['error']}")
                return message["result"]

    send({"id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                                                      "clientInfo": {"name": "install-check", "version": "1"}}})
    name = answer(1)["serverInfo"]["name"]
    if name != "todokit":
        sys.exit(f"{label}: the server calls itself {name!r}")
    send({"method": "notifications/initialized"})
    send({"id": 2, "method": "tools/list"})
    tools = [listed["name"] for listed in answer(2)["tools"]]
    if tools != [tool]:
        sys.exit(f"{label}: tools/list gave {tools}, not [{tool!r}]")
    send({"id": 3, "method": "tools/call", "params": {"name": tool, "arguments": arguments}})
    result = answer(3)
    if result.get("isError"):
        sys.exit(f"{label}: the call failed: {result}")
    server.stdin.close()
    status = server.wait(timeout=30)
    if status != 0:
        sys.exit(f"{label}: the server exited with status {status}")
    print(f"{label}: answered initialize, tools/list and tools/call")


if __name__ == "__main__":
    main()
