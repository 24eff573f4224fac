"""The README's Python examples, run as written (the LangChain host with
LangChain's scripted model in place of the one it names)."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import select
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage

from conftest import cli_json
from test_langchain import Scripted, call


def blocks() -> list[str]:
    readme = (Path(__file__).resolve().parents[3] / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Using it from Python", 1)[1].split("\n## ", 1)[0]
    found: list[str] = re.findall(r"```python\n(.*?)```", section, re.S)
    assert len(found) == 2
    return found


def test_the_readme_python_example_runs() -> None:
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(blocks()[0], "README.md", "exec"), {})
    assert "Todos have been modified successfully" in printed.getvalue()
    assert "'version': 1" in printed.getvalue()


def test_the_readme_langchain_host_runs_on_the_default_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = tmp_path / "default-store"
    monkeypatch.setenv("TODOKIT_STORE", str(store))
    namespace: dict[str, Any] = {"__name__": "readme"}
    exec(compile(blocks()[1], "README.md", "exec"), namespace)
    plan = {"todos": [{"content": "Rename the module", "status": "in_progress"}, {"content": "Fix the imports", "status": "pending"}]}
    done = {"todos": [{"content": "Rename the module", "status": "completed"}, {"content": "Fix the imports", "status": "completed"}]}
    model = Scripted(
        messages=iter(
            [
                AIMessage("", tool_calls=[call("write_todos", plan, "r1")]),
                AIMessage("Renamed; the imports come next."),  # strict: sent back
                AIMessage("", tool_calls=[call("write_todos", done, "r2")]),
                AIMessage("Renamed and fixed."),
            ]
        )
    )
    agent = namespace["build_agent"](model)
    result = agent.invoke({"messages": [("user", "Rename the config module.")]}, {"configurable": {"thread_id": "rename-config"}})
    assert result["messages"][-1].content == "Renamed and fixed."
    assert result["todos"] == [{"content": "Rename the module", "status": "completed"}, {"content": "Fix the imports", "status": "completed"}]
    # The command, on its own default store, shows what the agent wrote.
    monkeypatch.delenv("TODOKIT_STORE")
    shown = cli_json(store, "show", "--format", "json", profile="deepagents", conversation="rename-config")
    assert shown["version"] == 2


def quick_start(language: str) -> list[str]:
    readme = (Path(__file__).resolve().parents[3] / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Quick start by host", 1)[1].split("\n## ", 1)[0]
    found: list[str] = re.findall(rf"```{language}\n(.*?)```", section, re.S)
    return found


def first_line(line: str, store: Path) -> str:
    """The first line the shell command `line` prints, with the package's
    own `todokit` command first on PATH; the command is then stopped
    (`watch` runs until told to)."""
    bin_dir = Path(sys.executable).parent
    env = {**os.environ, "TODOKIT_STORE": str(store), "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}
    with subprocess.Popen(["bash", "-c", line], env=env, stdout=subprocess.PIPE, text=True, start_new_session=True) as child:
        try:
            assert child.stdout is not None
            ready, _, _ = select.select([child.stdout], [], [], 30)
            assert ready, f"{line} printed nothing within 30 s"
            return child.stdout.readline().rstrip("\n")
        finally:
            os.killpg(child.pid, signal.SIGTERM)


def test_the_quick_start_langchain_recipe_runs_and_the_command_shows_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = tmp_path / "store"
    monkeypatch.setenv("TODOKIT_STORE", str(store))
    [recipe] = quick_start("python")
    plan = {"todos": [{"content": "Ship it", "status": "in_progress"}]}
    # The recipe's free name, `model`, is yours: here LangChain's scripted model.
    model = Scripted(messages=iter([AIMessage("", tool_calls=[call("write_todos", plan, "q1")]), AIMessage("Shipping.")]))
    namespace: dict[str, Any] = {"__name__": "quickstart", "model": model}
    exec(compile(recipe, "README.md", "exec"), namespace)
    result = namespace["agent"].invoke({"messages": [("user", "Ship it.")]}, {"configurable": {"thread_id": "my-project"}})
    assert result["todos"] == plan["todos"]
    watch = [block for block in quick_start("sh") if block.strip() == "todokit watch --latest"]
    assert len(watch) == 2  # Python's and Rust's
    assert first_line(watch[0].strip(), store) == "my-project: version 1 by deepagents: 0/1 completed; in progress: Ship it"


def test_setup_from_the_package_writes_the_packages_own_command(tmp_path: Path) -> None:
    """`todokit setup` run from the installed console script writes that
    script into the agent's configuration, not the interpreter."""
    script = Path(sys.executable).parent / "todokit"
    project = tmp_path / "my-project"
    project.mkdir()
    env = {**os.environ, "HOME": str(tmp_path)}
    for name in ("TODOKIT_LAUNCHER", "TODOKIT_STORE", "TODOKIT_PROFILE", "TODOKIT_CONVERSATION", "XDG_CONFIG_HOME"):
        env.pop(name, None)
    subprocess.run([str(script), "setup", "opencode"], cwd=project, env=env, check=True, capture_output=True)
    config = json.loads((project / "opencode.json").read_text(encoding="utf-8"))
    command = config["mcp"]["todokit"]["command"]
    assert Path(command[0]).is_absolute()
    assert Path(command[0]).resolve() == script.resolve()
    assert command[1:] == ["--profile", "opencode", "--conversation", "my-project", "mcp"]
