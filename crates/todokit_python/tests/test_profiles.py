"""Every profile's example through every entry point, against the binary."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

import todokit
from conftest import cli_json


@pytest.mark.parametrize("name", todokit.profiles())
def test_each_example_is_stored_and_the_binary_shows_the_same_list(name: str, store: Path) -> None:
    with todokit.Todokit(name, store_dir=store) as kit:
        example = kit.profile.example
        assert example is not None
        result = kit.call("c", example["tool"], example["arguments"])
        state = kit.state("c")
    assert not result.is_error, result.content
    assert isinstance(result.details, dict)
    assert state == cli_json(store, "show", "--format", "json", profile=name)
    assert state["version"] == 1


@pytest.mark.parametrize("name", todokit.profiles())
def test_each_example_as_text_bytes_and_data_stores_the_same_tasks(name: str) -> None:
    tasks = []
    with todokit.Todokit(name, memory=True) as kit:
        example = kit.profile.example
        assert example is not None
        for conversation, arguments in [
            ("text", example["arguments"]),
            ("bytes", example["arguments"].encode()),
            ("data", json.loads(example["arguments"])),
        ]:
            (result,) = kit.call_round(conversation, [(example["tool"], arguments)])
            assert not result.is_error, result.content
            tasks.append([(t["content"], t["status"]) for p in kit.state(conversation)["phases"] for t in p["tasks"]])
    assert tasks[0] == tasks[1] == tasks[2]
    assert tasks[0]


def test_the_profile_and_its_definitions_are_the_binarys(store: Path) -> None:
    with todokit.Todokit("codex", memory=True) as kit:
        profile = kit.profile
        for target in ["json-schema", "openai", "openai-strict", "anthropic", "mcp"]:
            assert kit.definitions(target) == cli_json(store, "schema", "--target", target, profile="codex")  # type: ignore[arg-type]
    assert profile.name == "codex"
    assert [t.name for t in profile.tools] == ["update_plan"]
    assert profile.tools[0].metadata["refused_in"] == ["plan"]
    assert profile.system_prompt
    assert profile.upstream is not None and profile.upstream["pin"]["kind"] == "source"


def test_an_unknown_target_is_a_value_error() -> None:
    with todokit.Todokit(memory=True) as kit, pytest.raises(ValueError):
        kit.definitions("yaml")  # type: ignore[arg-type]


@pytest.mark.parametrize("name", todokit.profiles())
def test_each_example_through_the_async_twins_and_a_feed(name: str, store: Path) -> None:
    async def main() -> tuple[list[bool], todokit.State, todokit.State]:
        with todokit.Todokit(name, store_dir=store) as kit:
            example = kit.profile.example
            assert example is not None
            feed = kit.subscribe("c")
            assert (await feed.__anext__())["version"] == 0
            single = await kit.acall("c", example["tool"], example["arguments"])
            (in_round,) = await kit.acall_round("c", [(example["tool"], example["arguments"])])
            state = await kit.astate("c")
            followed = await asyncio.wait_for(feed.__anext__(), timeout=10)
            while followed["version"] < state["version"]:
                followed = await asyncio.wait_for(feed.__anext__(), timeout=10)
            feed.close()
            return [single.is_error, in_round.is_error], state, followed

    errors, state, followed = asyncio.run(main())
    assert errors == [False, False]
    assert state == followed == cli_json(store, "show", "--format", "json", profile=name)
