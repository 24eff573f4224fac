"""The async twins, and an interpreter that used them exiting cleanly."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import textwrap
from pathlib import Path

import todokit

ONE = {"todos": [{"content": "Run the tests", "status": "in_progress", "activeForm": "Running the tests"}]}


def test_every_async_twin_answers_as_its_sync_one(tmp_path: Path) -> None:
    async def main() -> None:
        with todokit.Todokit(store_dir=tmp_path) as kit:
            results = await asyncio.gather(*(kit.acall(f"c{i}", "TodoWrite", ONE) for i in range(20)))
            assert not any(r.is_error for r in results)
            (round_result,) = await kit.acall_round("c0", [("TodoWrite", ONE)])
            assert not round_result.is_error
            assert (await kit.astate("c0"))["version"] == 2
            assert len(await kit.aconversations()) == 20
            assert await kit.aedit("c0", {"action": "done", "name": "run the tests"}) is not None
            assert [n.kind for n in await kit.atake_notices("c0")] == ["user_edit"]

    asyncio.run(main())


def test_an_interpreter_that_awaited_calls_exits_cleanly_every_time(tmp_path: Path) -> None:
    script = textwrap.dedent(
        """
        import asyncio, sys, todokit
        async def main():
            kit = todokit.Todokit(store_dir=sys.argv[1])
            for i in range(100):
                await kit.acall("c", "TodoWrite", '{"todos": []}')
        asyncio.run(main())
        """
    )
    codes = []
    for run in range(10):
        done = subprocess.run([sys.executable, "-c", script, str(tmp_path / str(run))], capture_output=True, timeout=120)
        codes.append((done.returncode, done.stderr[-300:]))
    assert codes == [(0, b"")] * 10
