"""Forgetting conversations from Python: ``forget`` and ``prune`` on a
folder (checked against the command's view of the same folder) and on
PostgreSQL."""

from __future__ import annotations

import asyncio
import os
import time
import uuid
from datetime import timedelta
from pathlib import Path

import pytest

import todokit
from conftest import cli_json

ONE = {"todos": [{"content": "Run the tests", "status": "in_progress", "activeForm": "Running the tests"}]}
URL = os.environ.get("TODOKIT_TEST_POSTGRES_URL")


def two_days_back(path: Path) -> None:
    then = time.time() - 2 * 86400
    os.utime(path, (then, then))


def test_forget_and_prune_remove_conversations_whole_from_a_folder(store: Path) -> None:
    with todokit.Todokit(store_dir=store) as kit:
        for conversation in ("old", "kept", "gone"):
            assert not kit.call(conversation, "TodoWrite", ONE).is_error
        two_days_back(store / "c-old.json")
        forgotten = (kit.forget("gone"), kit.forget("gone"), kit.forget("never"))
        named = kit.prune(timedelta(days=1), dry_run=True)
        still_there = sorted(c["id"] for c in cli_json(store, "conversations", "--format", "json"))
        pruned = kit.prune(86400.0)
        left = sorted(c["id"] for c in cli_json(store, "conversations", "--format", "json"))
        assert (forgotten, named, still_there, pruned, left) == (
            (True, False, False),
            ["old"],
            ["kept", "old"],
            ["old"],
            ["kept"],
        )
        assert kit.state("gone")["version"] == 0
        assert sorted(p.name for p in store.iterdir() if not p.name.startswith(".")) == ["c-kept.json", "c-kept.lock"]


def test_a_prune_idle_for_no_time_or_no_number_is_refused_and_nothing_goes() -> None:
    with todokit.Todokit(memory=True) as kit:
        kit.call("c", "TodoWrite", ONE)
        for idle in (0, -1.0, float("nan"), float("inf"), timedelta(0)):
            with pytest.raises(ValueError):
                kit.prune(idle)
        for wrong in ("1d", None, True):
            with pytest.raises(TypeError):
                kit.prune(wrong)  # type: ignore[arg-type]
        assert kit.state("c")["version"] == 1


def test_forget_and_prune_awaited() -> None:
    async def main() -> tuple[bool, list[str]]:
        with todokit.Todokit(memory=True) as kit:
            kit.call("c", "TodoWrite", ONE)
            return await kit.aforget("c"), await kit.aprune(60, dry_run=True)

    assert asyncio.run(main()) == (True, [])


@pytest.mark.skipif(URL is None, reason="needs TODOKIT_TEST_POSTGRES_URL (scripts/with-postgres.sh sets it)")
def test_forget_on_postgres_is_seen_by_another_kit_and_a_fresh_list_is_not_pruned() -> None:
    assert URL is not None
    prefix = f"py-{uuid.uuid4()}/"
    with todokit.Todokit(database_url=URL) as writer, todokit.Todokit(database_url=URL) as reader:
        for name in ("a", "b"):
            assert not writer.call(prefix + name, "TodoWrite", ONE).is_error
        assert writer.forget(prefix + "a") is True
        assert reader.state(prefix + "a")["version"] == 0
        assert reader.prune(timedelta(hours=1), prefix=prefix) == []
        assert [c["id"] for c in reader.conversations() if c["id"].startswith(prefix)] == [prefix + "b"]
