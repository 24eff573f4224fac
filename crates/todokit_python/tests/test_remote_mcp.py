"""`todokit serve`'s MCP endpoint over Streamable HTTP, driven by the
official Python MCP SDK's client (`mcp.client.streamable_http`): every
profile's tools listed and called, resources read and followed, a tenant
kept to its namespace."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import mcp.types as types
import pytest
import todokit
from mcp.client.session import ClientSession, IncomingMessage
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from conftest import binary, todokit_cli


# The TLS-only PostgreSQL cluster scripts/with-postgres.sh starts.
TLS_URL = os.environ.get("TODOKIT_TEST_POSTGRES_TLS_URL")


@contextmanager
def serving(store: Path | str, *args: str) -> Iterator[str]:
    """`todokit serve` on a free loopback port; yields its base URL."""
    process = subprocess.Popen(
        [binary(), "--store", str(store), "serve", "--bind", "127.0.0.1:0", *args],
        stdout=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert process.stdout is not None
        first = process.stdout.readline()
        base = first.split("http://", 1)[1].strip().rstrip("/")
        yield f"http://{base}"
    finally:
        process.terminate()
        process.wait(timeout=10)


@asynccontextmanager
async def session(
    url: str, headers: dict[str, str] | None = None, heard: list[IncomingMessage] | None = None
) -> AsyncIterator[ClientSession]:
    """An initialized MCP session with `url`, every request carrying
    `headers`; what the server sends unasked is appended to `heard`."""

    async def hear(message: IncomingMessage) -> None:
        if heard is not None:
            heard.append(message)

    async with (
        create_mcp_http_client(headers=headers) as http,
        streamable_http_client(url, http_client=http) as (read, write),
        ClientSession(read, write, message_handler=hear) as client,
    ):
        await client.initialize()
        yield client


def dumped(value: Any) -> Any:
    """A result as the JSON the server sent."""
    return json.loads(value.model_dump_json(by_alias=True, exclude_none=True))


def test_every_profile_lists_and_calls_its_tools_over_http(store: Path, tmp_path: Path) -> None:
    async def main(base: str) -> list[str]:
        differences = []
        for name in todokit.profiles():
            # A durable store, as the server's is (some answers say which).
            reference = todokit.Todokit(name, store_dir=tmp_path / "reference")
            example = reference.profile.example
            assert example is not None, name
            expected_answer = reference.call(f"ex-{name}", example["tool"], example["arguments"])
            headers = {"Todokit-Conversation": f"ex-{name}"}
            async with session(f"{base}/mcp/{name}", headers) as client:
                tools = await client.list_tools()
                called = await client.call_tool(example["tool"], json.loads(example["arguments"]))
            listed = [dumped(tool) for tool in tools.tools]
            if listed != reference.definitions("mcp"):
                differences.append(f"{name}: tools/list differs from schema --target mcp")
            text = called.content[0].text if isinstance(called.content[0], types.TextContent) else None
            # The model reads the profile's text: no structured content
            # unless the server is asked for it (--structured-content).
            answer = (text, called.is_error, called.structured_content)
            if answer != (expected_answer.content, expected_answer.is_error, None):
                differences.append(f"{name}: {answer!r} != {expected_answer.content!r}")
        return differences

    with serving(store) as base:
        assert asyncio.run(main(base)) == []
    # Each call was stored under the conversation its header named.
    listed = {c["id"]: c["version"] for c in todokit.Todokit(store_dir=store).conversations()}
    assert listed == {f"ex-{name}": 1 for name in todokit.profiles()}


# A session opened with `initialize` (the protocol before 2026-07-28) follows
# a resource with resources/subscribe, which the SDK marks as deprecated.
@pytest.mark.filterwarnings("ignore:resources/subscribe is removed")
def test_resources_are_read_and_followed_over_http(store: Path) -> None:
    uri = "todokit://conversations/plan"
    one = json.dumps({"todos": [{"content": "Plan it", "status": "in_progress", "activeForm": "Planning it"}]})
    todokit_cli(store, "call", "TodoWrite", one, conversation="plan")

    async def main(base: str) -> tuple[list[str], str, list[str]]:
        heard: list[IncomingMessage] = []
        async with session(f"{base}/mcp", heard=heard) as client:
            listed = [str(r.uri) for r in (await client.list_resources()).resources]
            read = await client.read_resource(uri)
            first = read.contents[0]
            text = first.text if isinstance(first, types.TextResourceContents) else ""
            await client.subscribe_resource(uri)
            # Another process commits; the server tells this session.
            two = json.dumps({"todos": [{"content": "Plan it", "status": "completed", "activeForm": "Planning it"}]})
            await asyncio.to_thread(todokit_cli, store, "call", "TodoWrite", two, conversation="plan")
            for _ in range(100):
                if any(isinstance(m, types.ResourceUpdatedNotification) for m in heard):
                    break
                await asyncio.sleep(0.1)
            updated = [str(m.params.uri) for m in heard if isinstance(m, types.ResourceUpdatedNotification)]
        return listed, text, updated

    with serving(store) as base:
        listed, text, updated = asyncio.run(main(base))
    assert (listed, "Plan it" in text, updated[:1]) == ([uri], True, [uri])


def test_a_tenant_token_opens_its_namespace_only(store: Path, tmp_path: Path) -> None:
    tokens = tmp_path / "tokens"
    tokens.write_text("t-acme acme\nt-initech initech\n")
    one = {"todos": [{"content": "Acme's task", "status": "pending", "activeForm": "Doing it"}]}

    async def main(base: str) -> tuple[list[str], list[str], bool]:
        acme = {"Authorization": "Bearer t-acme"}
        async with session(f"{base}/mcp", acme) as client:
            await client.call_tool("TodoWrite", one)
            acme_sees = [str(r.uri) for r in (await client.list_resources()).resources]
        async with session(f"{base}/mcp", {"Authorization": "Bearer t-initech"}) as client:
            initech_sees = [str(r.uri) for r in (await client.list_resources()).resources]
        refused = False
        try:
            async with session(f"{base}/mcp", {"Authorization": "Bearer wrong"}):
                pass
        except Exception:  # noqa: BLE001 - the SDK raises its own error for a 401
            refused = True
        return acme_sees, initech_sees, refused

    with serving(store, "--token-file", str(tokens)) as base:
        acme_sees, initech_sees, refused = asyncio.run(main(base))
    stored = [c["id"] for c in todokit.Todokit(store_dir=store).conversations()]
    assert (acme_sees, initech_sees, refused, stored) == (
        ["todokit://conversations/default"],
        [],
        True,
        ["acme/default"],
    )


@pytest.mark.skipif(TLS_URL is None, reason="needs TODOKIT_TEST_POSTGRES_TLS_URL (scripts/with-postgres.sh sets it)")
@pytest.mark.filterwarnings("ignore:resources/subscribe is removed")
def test_two_processes_on_a_tls_only_postgresql_serve_one_conversation() -> None:
    assert TLS_URL is not None
    conversation = f"py-remote-{os.getpid()}"
    uri = f"todokit://conversations/{conversation}"
    headers = {"Todokit-Conversation": conversation}

    def todos(status: str) -> dict[str, Any]:
        return {"todos": [{"content": "Ship it", "status": status, "activeForm": "Shipping it"}]}

    async def main(first: str, second: str) -> tuple[bool, list[str]]:
        heard: list[IncomingMessage] = []
        async with session(f"{first}/mcp", headers) as writer:
            await writer.call_tool("TodoWrite", todos("pending"))
            async with session(f"{second}/mcp", headers, heard) as follower:
                read = await follower.read_resource(uri)
                first_content = read.contents[0]
                text = first_content.text if isinstance(first_content, types.TextResourceContents) else ""
                await follower.subscribe_resource(uri)
                # A call on the first process; the second tells its client.
                await writer.call_tool("TodoWrite", todos("in_progress"))
                for _ in range(100):
                    if any(isinstance(m, types.ResourceUpdatedNotification) for m in heard):
                        break
                    await asyncio.sleep(0.1)
        updated = [str(m.params.uri) for m in heard if isinstance(m, types.ResourceUpdatedNotification)]
        return "Ship it" in text, updated[:1]

    with serving(TLS_URL) as first, serving(TLS_URL) as second:
        assert asyncio.run(main(first, second)) == (True, [uri])
