"""`make bench`: what the Python package costs, measured in one run.

1. A call from Python over the same call in Rust: the README's one-item
   `TodoWrite`, arguments as text, details not read, memory store, median
   of 15 batches. The Rust figure comes from `cargo bench -p todokit
   --bench binding_anchor`, run just before (its JSON is argv[1]).
2. `TodokitMiddleware` with `deepagents` against LangChain's own
   `TodoListMiddleware`, both through `create_agent` with the same scripted
   model making 10 `write_todos` calls then answering: the median of 15
   runs each (interleaved), on the memory store and on the file store.
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
import time
import uuid
from typing import Any

from langchain.agents import create_agent
from langchain.agents.middleware import TodoListMiddleware
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, HumanMessage

import todokit
from todokit.langchain import TodokitMiddleware

ARGUMENTS = '{"todos": [{"content": "Run the tests", "status": "in_progress", "activeForm": "Running the tests"}]}'
BATCHES = 15
CALLS = 2_000
RUNS = 15


class Scripted(GenericFakeChatModel):
    """LangChain's scripted model; tools bound are ignored."""

    def bind_tools(self, tools: Any, **kwargs: Any) -> Scripted:
        return self


def turns() -> list[AIMessage]:
    """Ten `write_todos` calls moving a five-item plan along, then the answer."""
    messages = []
    for step in range(10):
        todos = [
            {"content": f"Step {i + 1}", "status": "completed" if i < step // 2 else "in_progress" if i == step // 2 else "pending"}
            for i in range(5)
        ]
        call = {"name": "write_todos", "args": {"todos": todos}, "id": f"call-{step}", "type": "tool_call"}
        messages.append(AIMessage("", tool_calls=[call]))
    messages.append(AIMessage("All five steps are done."))
    return messages


def python_call_ns() -> float:
    with todokit.Todokit("claude-code", memory=True) as kit:
        per_call = []
        for batch in range(BATCHES + 1):
            started = time.perf_counter_ns()
            for _ in range(CALLS):
                kit.call("bench", "TodoWrite", ARGUMENTS)
            if batch:
                per_call.append((time.perf_counter_ns() - started) / CALLS)
        return statistics.median(per_call)


def agent_run_seconds(middleware: Any) -> float:
    agent = create_agent(Scripted(messages=iter(turns())), middleware=[middleware])
    started = time.perf_counter()
    result = agent.invoke({"messages": [HumanMessage("Do the five steps.")]}, {"configurable": {"thread_id": str(uuid.uuid4())}})
    elapsed = time.perf_counter() - started
    assert result["messages"][-1].content == "All five steps are done.", result["messages"][-1]
    return elapsed


def middleware_ratio(kit: todokit.Todokit) -> tuple[float, float, float]:
    ours: list[float] = []
    theirs: list[float] = []
    agent_run_seconds(TodoListMiddleware())  # warm-up: imports, first compile
    agent_run_seconds(TodokitMiddleware(kit))
    for _ in range(RUNS):
        theirs.append(agent_run_seconds(TodoListMiddleware()))
        ours.append(agent_run_seconds(TodokitMiddleware(kit)))
    mine, langchain = statistics.median(ours), statistics.median(theirs)
    return mine, langchain, mine / langchain


def main() -> None:
    anchor = json.loads(sys.argv[1])["rust_call_ns"]
    python = python_call_ns()
    print("Python package (todokit), one run:")
    print(f"  call, README's one-item TodoWrite, memory store: Rust {anchor / 1000:.2f} µs, "
          f"Python {python / 1000:.2f} µs: {(python - anchor) / 1000:+.2f} µs per call (goal: at most +5 µs)")
    with todokit.Todokit("deepagents", memory=True) as kit:
        mine, theirs, ratio = middleware_ratio(kit)
    print(f"  create_agent, 10 write_todos calls, memory store: TodoListMiddleware {theirs * 1000:.1f} ms, "
          f"TodokitMiddleware {mine * 1000:.1f} ms: x{ratio:.3f} (goal: at most x1.05)")
    with tempfile.TemporaryDirectory() as folder, todokit.Todokit("deepagents", store_dir=folder) as kit:
        mine, theirs, ratio = middleware_ratio(kit)
    print(f"  create_agent, 10 write_todos calls, file store:   TodoListMiddleware {theirs * 1000:.1f} ms, "
          f"TodokitMiddleware {mine * 1000:.1f} ms: x{ratio:.3f}")


if __name__ == "__main__":
    main()
