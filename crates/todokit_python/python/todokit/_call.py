"""How the async twins run their work off the event loop."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Callable, TypeVar

_T = TypeVar("_T")

#: The threads the async twins run their calls on. Python's own threads:
#: a call's result is handed to the event loop by asyncio, never settled
#: from one of the store's native threads (which would crash the
#: interpreter at exit), and idle ones never keep the interpreter alive.
_EXECUTOR = ThreadPoolExecutor(max_workers=4, thread_name_prefix="todokit")


async def _off_loop(work: Callable[[], _T]) -> _T:
    return await asyncio.get_running_loop().run_in_executor(_EXECUTOR, work)

