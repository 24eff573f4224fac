"""`subscribe`: a live feed, sync and async, that ends when closed and
never keeps the interpreter from exiting."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import textwrap
import threading
import uuid
from pathlib import Path

import pytest

import todokit

from conftest import todokit_cli

ONE = {"todos": [{"content": "Run the tests", "status": "in_progress", "activeForm": "Running the tests"}]}
URL = os.environ.get("TODOKIT_TEST_POSTGRES_URL")


def test_a_feed_gives_the_list_now_then_each_commit_from_another_thread() -> None:
    with todokit.Todokit(memory=True) as kit, kit.subscribe("c") as feed:
        first = next(feed)
        writer = threading.Timer(0.05, lambda: kit.call("c", "TodoWrite", ONE))
        writer.start()
        second = feed.get(timeout=10)
        writer.join()
        assert second is not None
        actual = (first["version"], second["version"], second == kit.state("c"))
        assert actual == (0, 1, True)


def test_a_commit_by_the_cli_in_another_process_reaches_the_feed(store: Path) -> None:
    with todokit.Todokit(store_dir=store) as kit, kit.subscribe("c") as feed:
        assert feed.get(timeout=5)["version"] == 0  # type: ignore[index]
        todokit_cli(store, "call", "TodoWrite", '{"todos":[{"content":"From the terminal","status":"pending","activeForm":"Typing"}]}')
        state = feed.get(timeout=10)
        assert state is not None
        assert state["phases"][0]["tasks"][0]["content"] == "From the terminal"


def test_get_with_a_timeout_gives_none_when_nothing_changed() -> None:
    with todokit.Todokit(memory=True) as kit, kit.subscribe("c") as feed:
        assert feed.get(timeout=1) is not None
        assert feed.get(timeout=0.2) is None


def test_closing_the_kit_ends_a_blocked_iteration() -> None:
    kit = todokit.Todokit(memory=True)
    seen: list[int] = []

    def follow() -> None:
        for state in kit.subscribe("c"):
            seen.append(state["version"])

    follower = threading.Thread(target=follow)
    follower.start()
    kit.call("c", "TodoWrite", ONE)
    # The follower has seen at least the list as it stood.
    for _ in range(100):
        if seen:
            break
        threading.Event().wait(0.02)
    kit.close()
    follower.join(timeout=5)
    assert not follower.is_alive()
    assert seen[-1] in (0, 1)


def test_leaving_a_loop_lets_the_feed_go() -> None:
    with todokit.Todokit(memory=True) as kit:
        feed = kit.subscribe("c")
        for _ in feed:
            break
        feed.close()
        assert feed.closed
        assert feed.get(timeout=0) is None
        with pytest.raises(StopIteration):
            next(feed)


def test_async_for_follows_commits_and_holds_no_thread_while_waiting(store: Path) -> None:
    async def main() -> tuple[list[int], int, int]:
        with todokit.Todokit(store_dir=store) as kit:
            versions: list[int] = []
            threads_before = len(os.listdir("/proc/self/task"))

            async def follow(feed: todokit.Subscription) -> None:
                async for state in feed:
                    versions.append(state["version"])
                    if state["version"] == 2:
                        return

            feeds = [kit.subscribe(f"idle-{i}") for i in range(50)]
            idle = [asyncio.ensure_future(follow(feed)) for feed in feeds]
            await asyncio.sleep(0.3)
            threads_waiting = len(os.listdir("/proc/self/task"))
            main_feed = kit.subscribe("c")
            task = asyncio.ensure_future(follow(main_feed))
            await asyncio.sleep(0.05)
            await kit.acall("c", "TodoWrite", ONE)
            await asyncio.sleep(0.05)
            await kit.acall("c", "TodoWrite", ONE)
            await asyncio.wait_for(task, timeout=10)
            for feed in feeds:
                feed.close()
            await asyncio.wait_for(asyncio.gather(*idle), timeout=10)
            return versions[50:], threads_before, threads_waiting

    versions, before, waiting = asyncio.run(main())
    # 50 idle feeds, then the followed one: 0, then each commit (two
    # commits close together may arrive as one newest version).
    assert versions[0] == 0 and versions[-1] == 2
    # Fifty waiting feeds hold no thread each: at most the store's one
    # folder watch and the executor's workers came.
    assert waiting - before <= 6, (before, waiting)


def test_two_waiting_async_steps_each_get_a_version(store: Path) -> None:
    async def main() -> tuple[int, list[int]]:
        with todokit.Todokit(store_dir=store) as kit, kit.subscribe("c") as feed:
            assert (await feed.__anext__())["version"] == 0
            one = asyncio.ensure_future(feed.__anext__())
            two = asyncio.ensure_future(feed.__anext__())
            await asyncio.sleep(0.05)
            await kit.acall("c", "TodoWrite", ONE)
            done, _ = await asyncio.wait({one, two}, timeout=10, return_when=asyncio.FIRST_COMPLETED)
            first = done.pop().result()["version"]
            await kit.acall("c", "TodoWrite", {"todos": []})
            both = await asyncio.wait_for(asyncio.gather(one, two), timeout=10)
            return first, sorted(state["version"] for state in both)

    assert asyncio.run(main()) == (1, [1, 2])


def test_closing_the_kit_ends_an_async_for() -> None:
    async def main() -> list[int]:
        kit = todokit.Todokit(memory=True)
        seen: list[int] = []

        async def follow() -> None:
            async for state in kit.subscribe("c"):
                seen.append(state["version"])

        task = asyncio.ensure_future(follow())
        await asyncio.sleep(0.05)
        kit.close()
        await asyncio.wait_for(task, timeout=5)
        return seen

    assert asyncio.run(main()) == [0]


class NoReaderLoop(asyncio.SelectorEventLoop):
    """A loop that cannot watch a file descriptor, as Windows' default
    Proactor loop cannot: `add_reader` raises `NotImplementedError`."""

    def add_reader(self, *args: object, **kwargs: object) -> None:
        raise NotImplementedError

    def remove_reader(self, *args: object, **kwargs: object) -> bool:
        raise NotImplementedError


def test_async_for_follows_commits_on_a_loop_that_cannot_watch_a_pipe(store: Path) -> None:
    async def main() -> tuple[list[int], list[int]]:
        with todokit.Todokit(store_dir=store) as kit:
            versions: list[int] = []

            async def follow(feed: todokit.Subscription) -> None:
                async for state in feed:
                    versions.append(state["version"])
                    if state["version"] == 2:
                        return

            closed: list[int] = []

            async def until_closed(feed: todokit.Subscription) -> None:
                async for state in feed:
                    closed.append(state["version"])

            idle = kit.subscribe("idle")
            waiting = asyncio.ensure_future(until_closed(idle))
            task = asyncio.ensure_future(follow(kit.subscribe("c")))
            await asyncio.sleep(0.05)
            await kit.acall("c", "TodoWrite", ONE)
            await asyncio.sleep(0.05)
            await kit.acall("c", "TodoWrite", ONE)
            await asyncio.wait_for(task, timeout=10)
            idle.close()
            await asyncio.wait_for(waiting, timeout=5)
            return versions, closed

    loop = NoReaderLoop()
    try:
        versions, closed = loop.run_until_complete(main())
    finally:
        loop.close()
    assert (versions[0], versions[-1], closed) == (0, 2, [0])


EXIT_SCRIPT = textwrap.dedent(
    """
    import asyncio, sys, threading, todokit
    where = sys.argv[1]
    kit = todokit.Todokit(database_url=where) if where.startswith("postgres") else todokit.Todokit(store_dir=where)
    conversation = sys.argv[2]
    blocked = kit.subscribe(conversation)
    next(blocked)
    threading.Thread(target=lambda: [s for s in blocked], daemon=True).start()
    async def main():
        feed = kit.subscribe(conversation)
        await feed.__anext__()
        asyncio.get_running_loop().create_task(feed.__anext__())
        await kit.acall(conversation, "TodoWrite", '{"todos": []}')
        await asyncio.sleep(0.05)
    asyncio.run(main())
    if sys.argv[3] == "exit":
        import os; sys.stdout.flush(); os._exit(0)
    """
)


def exits(where: str, how: str, runs: int) -> list[tuple[int, bytes]]:
    codes = []
    for _ in range(runs):
        conversation = f"exit-{uuid.uuid4()}"
        done = subprocess.run(
            [sys.executable, "-c", EXIT_SCRIPT, where, conversation, how], capture_output=True, timeout=60
        )
        codes.append((done.returncode, done.stderr[-300:]))
    return codes


def test_an_interpreter_with_open_subscriptions_exits_cleanly(tmp_path: Path) -> None:
    runs = 6
    actual = exits(str(tmp_path), "return", runs) + exits(str(tmp_path), "exit", 2)
    assert actual == [(0, b"")] * (runs + 2)


@pytest.mark.skipif(URL is None, reason="needs TODOKIT_TEST_POSTGRES_URL (scripts/with-postgres.sh sets it)")
def test_postgres_feeds_follow_another_kits_commits_and_exit_cleanly() -> None:
    assert URL is not None
    conversation = f"feed-{uuid.uuid4()}"
    with todokit.Todokit(database_url=URL) as kit, todokit.Todokit(database_url=URL) as other:
        feed = kit.subscribe(conversation)
        assert feed.get(timeout=10)["version"] == 0  # type: ignore[index]
        other.call(conversation, "TodoWrite", ONE)
        state = feed.get(timeout=10)
        assert state is not None and state["version"] == 1
    assert exits(URL, "return", 3) == [(0, b"")] * 3
