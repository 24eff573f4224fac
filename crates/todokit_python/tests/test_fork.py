"""A kit is refused in a forked child, which must make its own."""

from __future__ import annotations

import os
import sys

import pytest

import todokit


@pytest.mark.skipif(sys.platform == "win32", reason="fork() is POSIX")
def test_a_kit_used_after_fork_raises_and_a_new_one_works() -> None:
    kit = todokit.Todokit(memory=True)
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child reports through the pipe
        os.close(read)
        try:
            kit.state("c")
            outcome = b"no error"
        except todokit.TodokitError as error:
            fresh = todokit.Todokit(memory=True)
            outcome = (b"refused " if "after fork()" in str(error) else b"other ") + str(
                fresh.state("c")["version"]
            ).encode()
        os.write(write, outcome)
        os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        outcome = pipe.read()
    os.waitpid(pid, 0)
    assert outcome == b"refused 0"
    assert kit.state("c")["version"] == 0
    kit.close()
