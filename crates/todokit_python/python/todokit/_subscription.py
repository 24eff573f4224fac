"""`Subscription`: a live feed of one conversation's list."""

from __future__ import annotations

import asyncio
import time

from . import _todokit
from ._types import State

class Subscription:
    """A live feed of one conversation's list: the list as it stands, then
    every version committed after it, by anyone (this process, the CLI,
    another process on the same store). Each item is what
    :meth:`Todokit.state` gives.

    Iterate it with ``for`` or ``async for``. It ends when closed: by
    :meth:`close`, by leaving a ``with`` block, or by closing its kit. A
    store error is raised once from the iteration; iterating again goes on.
    Waiting holds no thread in ``async for`` where the event loop can
    watch a pipe (``add_reader``, as every loop on Linux and macOS has);
    on a loop that cannot (Windows' default Proactor loop), each waiting
    step waits on a worker thread of the loop's executor, a tenth of a
    second at a time. An open subscription never keeps the interpreter
    from exiting.
    """

    #: How long a blocking wait sleeps before looking for signals (Ctrl-C).
    _SLICE = 0.1

    def __init__(self, native: _todokit.Feed) -> None:
        self._feed = native
        # Every `async for` step waiting on this feed: one reader on the
        # pipe serves them all, and a wake lets each poll again (what one
        # does not take, the others wait for).
        self._waiters: list[asyncio.Future[None]] = []

    def _poll(self) -> State | None:
        result: State | None = self._feed.poll()
        return result

    def get(self, timeout: float | None = None) -> State | None:
        """The next state, waiting up to ``timeout`` seconds (for ever when
        ``None``): ``None`` when none came in time or the feed is closed."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            state = self._poll()
            if state is not None or self._feed.closed:
                return state
            remaining = self._SLICE if deadline is None else min(self._SLICE, deadline - time.monotonic())
            if remaining <= 0:
                return None
            self._feed.wait(remaining)

    def __iter__(self) -> Subscription:
        return self

    def __next__(self) -> State:
        state = self.get()
        if state is None:
            raise StopIteration
        return state

    def __aiter__(self) -> Subscription:
        return self

    async def __anext__(self) -> State:
        loop = asyncio.get_running_loop()
        while True:
            state = self._poll()
            if state is not None:
                return state
            if self._feed.closed:
                raise StopAsyncIteration
            if not self._waiters and not self._watch(loop):
                await loop.run_in_executor(None, self._feed.wait, self._SLICE)
                continue
            woken: asyncio.Future[None] = loop.create_future()
            self._waiters.append(woken)
            try:
                await woken
            finally:
                if woken in self._waiters:  # cancelled, not woken
                    self._waiters.remove(woken)
                    if not self._waiters:
                        self._unwatch(loop)

    def _watch(self, loop: asyncio.AbstractEventLoop) -> bool:
        """Has ``loop`` watch the feed's pipe; ``False`` when it cannot."""
        fd = self._feed.fileno()
        if fd is None:
            return False
        try:
            loop.add_reader(fd, self._wake_all, loop)
        except NotImplementedError:  # a Proactor loop
            return False
        return True

    def _unwatch(self, loop: asyncio.AbstractEventLoop) -> None:
        fd = self._feed.fileno()
        if fd is not None:
            loop.remove_reader(fd)

    def _wake_all(self, loop: asyncio.AbstractEventLoop) -> None:
        # The byte stays in the pipe until a poll reads it, so the reader
        # goes now, before the loop could call it again.
        self._unwatch(loop)
        waiters, self._waiters = self._waiters, []
        for woken in waiters:
            if not woken.done():
                woken.set_result(None)

    def close(self) -> None:
        """Ends the feed (an iteration in progress stops)."""
        self._feed.close()

    @property
    def closed(self) -> bool:
        """Whether the feed ended."""
        return self._feed.closed

    def __enter__(self) -> Subscription:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    async def __aenter__(self) -> Subscription:
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.close()

