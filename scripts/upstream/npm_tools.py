"""The todo tools of agents shipped on npm, read from their own packages.

Each extractor gets the folder a package was unpacked into and returns the
fixture's `read`, `tools` and `calls`. A bundle's definitions are found by
text that names them (a tool's name, its answer) and cut out whole; an
object literal is evaluated by node in a context of its own
(`js/literal.mjs`), never by hand. A definition that moved or changed its
form stops the script instead of being guessed.
"""

from __future__ import annotations

import io
import json
import re
import shutil
import subprocess
import tarfile
import zlib
from pathlib import Path
from typing import Any, Callable

Json = dict[str, Any]
HERE = Path(__file__).resolve().parent


def find(text: str, anchor: str, start: int = 0) -> int:
    """Where `anchor` first occurs in `text` from `start`; stops when it is not there."""
    at = text.find(anchor, start)
    if at < 0:
        raise SystemExit(f"not found in the package: {anchor!r}")
    return at


def balanced(text: str, start: int) -> str:
    """The bracketed JavaScript expression that opens at `text[start]`,
    reading strings, template literals (with their `${}`) and comments so a
    bracket inside them does not count."""
    closing = {"{": "}", "[": "]", "(": ")"}
    stack = [closing[text[start]]]
    index = start + 1
    while stack:
        char = text[index]
        if stack[-1] == "`":
            if char == "\\":
                index += 1
            elif char == "`":
                stack.pop()
            elif text.startswith("${", index):
                stack.append("}")
                index += 1
        elif char in "\"'":
            index += 1
            while text[index] != char:
                index += 2 if text[index] == "\\" else 1
        elif char == "`":
            stack.append("`")
        elif text.startswith("//", index):
            index = text.index("\n", index)
        elif text.startswith("/*", index):
            index = text.index("*/", index) + 1
        elif char in closing:
            stack.append(closing[char])
        elif char == stack[-1]:
            stack.pop()
        index += 1
    return text[start:index]


def js(literal: str, method: str | None = None, calls: list[Json] | None = None) -> Json:
    """`literal` evaluated by node, and `method` run on each of `calls`."""
    request = json.dumps({"literal": literal, "method": method, "calls": calls or []})
    done = subprocess.run(
        ["node", str(HERE / "js" / "literal.mjs")], input=request, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise SystemExit(f"node could not evaluate the literal: {done.stderr.strip()}")
    return json.loads(done.stdout)


def continue_cli(folder: Path) -> Json:
    bundle = (folder / "dist" / "index.js").read_text(encoding="utf-8")
    start = find(bundle, '{name:"Checklist",')
    evaluated = js(balanced(bundle, start), "run", CONTINUE_CALLS)
    tool = evaluated["value"]
    return {
        "read": "dist/index.js: the Checklist tool's object, its run() called",
        "tools": [{"name": tool["name"], "input_schema": tool["parameters"]}],
        "calls": [
            {"tool": tool["name"], "arguments": arguments, "answer": answer}
            for arguments, answer in zip(CONTINUE_CALLS, evaluated["answers"])
        ],
    }


CONTINUE_CALLS: list[Json] = [{"checklist": "- [x] Write the parser\n- [ ] Add tests"}]


def augment(folder: Path) -> Json:
    bundle = (folder / "augment.mjs").read_text(encoding="utf-8")
    tools = []
    for name in ["view_tasklist", "add_tasks", "update_tasks", "reorganize_tasklist"]:
        declared = find(bundle, f'super("{name}",1)')
        schema_at = find(bundle, "inputSchemaJson=JSON.stringify(", declared)
        if schema_at - declared > 400:
            raise SystemExit(f"{name}'s inputSchemaJson is not beside its declaration")
        literal = balanced(bundle, schema_at + len("inputSchemaJson=JSON.stringify("))
        tools.append({"name": name, "input_schema": js(literal)["value"]})
    return {
        "read": "augment.mjs: each task tool class's inputSchemaJson (its answers name random task ids)",
        "tools": tools,
        "calls": [],
    }


def copilot_cli(folder: Path) -> Json:
    # The CLI is a Node single-executable application; the app is its
    # `copilot.tgz` asset, and the tools are Rust, in the app's runtime.node.
    binary = (folder / "copilot").read_bytes()
    named = binary.find(b"copilot.tgz")
    archive_at = binary.find(b"\x1f\x8b\x08", named)
    if named < 0 or archive_at < 0:
        raise SystemExit("the binary's copilot.tgz asset was not found")
    app = zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(binary[archive_at:])
    with tarfile.open(fileobj=io.BytesIO(app)) as tar:
        member = tar.extractfile("package/prebuilds/linux-x64/runtime.node")
        assert member is not None, "runtime.node is a file"
        runtime = member.read().decode("utf-8", errors="replace")
    description = find(runtime, "Use this TODO tool to manage the tasks")
    schema_at = runtime.rfind('{"type":"object"', 0, description)
    schema = json.loads(runtime[schema_at:description])
    answers = runtime[find(runtime, "update_todo telemetry", description) :][:200]
    updated, empty = "TODO list updated", "No TODO items provided"
    for text in (updated, empty):
        find(answers, text)
    return {
        "read": "copilot: its copilot.tgz asset's prebuilds/linux-x64/runtime.node, the update_todo schema and its two answers",
        "tools": [{"name": "update_todo", "input_schema": schema}],
        "calls": [
            {"tool": "update_todo", "arguments": {"todos": "- [x] Write the parser\n- [ ] Add tests"}, "answer": updated},
            {"tool": "update_todo", "arguments": {"todos": "Nothing to do yet"}, "answer": empty},
        ],
    }


def installed_script(folder: Path, script: str, runtime: list[str], calls: list[Json]) -> Json:
    """`js/<script>` run by `runtime` from `folder`, where the package was
    installed (a module resolves packages from where it lies), with `calls`
    on stdin; its printed JSON."""
    copy = folder / script
    shutil.copyfile(HERE / "js" / script, copy)
    done = subprocess.run(
        [*runtime, str(copy.resolve())], input=json.dumps(calls), capture_output=True, text=True, cwd=folder, check=False
    )
    if done.returncode != 0:
        raise SystemExit(f"{script} did not run: {done.stderr.strip()}")
    return json.loads(done.stdout)


def made(tool: Json, calls: list[Json]) -> list[Json]:
    return [
        {"tool": tool["name"], "arguments": arguments, "answer": answer}
        for arguments, answer in zip(calls, tool["answers"], strict=True)
    ]


def deepagents_js(folder: Path) -> Json:
    tool = installed_script(folder, "langchain.mjs", ["node"], DEEPAGENTS_JS_CALLS)
    return {
        "read": "langchain's todoListMiddleware() tool, through @langchain/core's convertToOpenAITool, invoked",
        "tools": [{"name": tool["name"], "input_schema": tool["parameters"]}],
        "calls": made(tool, DEEPAGENTS_JS_CALLS),
    }


DEEPAGENTS_JS_CALLS: list[Json] = [
    {"todos": [{"content": "Write the parser", "status": "in_progress"}, {"content": "Add tests", "status": "pending"}]}
]


def omp(folder: Path) -> Json:
    bun = str((folder / "node_modules" / ".bin" / "bun").resolve())
    tool = installed_script(folder, "omp.ts", [bun], OMP_CALLS)
    return {
        "read": "src/tools/todo.ts's TodoTool under Bun: pi-ai's toolWireSchema, and its execute answering",
        "tools": [{"name": tool["name"], "input_schema": tool["parameters"]}],
        "calls": made(tool, OMP_CALLS),
    }


OMP_CALLS: list[Json] = [
    {"op": "view"},
    # No `op`: bare items on a list with no phase yet are an init.
    {"items": ["Write the parser", "Add tests"]},
    {"op": "done", "task": "Write the parser"},
    {"op": "append", "phase": "Ship", "items": ["Tag the release"]},
    # No `op`: items with a phase are an append.
    {"items": ["Write the changelog"], "phase": "Ship"},
    {"op": "block", "task": "Tag the release", "reason": "waiting for review"},
    # No `op`: bare items once a phase exists are refused.
    {"items": ["Something else"]},
    {"op": "done", "task": "No such task"},
    {"op": "view"},
]


def cline_team(folder: Path) -> Json:
    tool = installed_script(folder, "cline-team.mjs", ["node"], CLINE_TEAM_CALLS)
    return {
        "read": "createAgentTeamsTools()'s team_task for a team's lead, its answers as Cline's agent loop sends them",
        "tools": [{"name": tool["name"], "input_schema": tool["parameters"]}],
        "calls": made(tool, CLINE_TEAM_CALLS),
        "description": tool["description"],
    }


CLINE_TEAM_CALLS: list[Json] = [
    {"action": "create", "title": "Write the parser", "description": "A recursive descent parser"},
    # A field `create` does not read is named in the answer.
    {"action": "create", "title": "Test the parser", "description": "Unit tests", "dependsOn": ["task_0001"], "status": "pending"},
    {"action": "claim", "taskId": "task_0002"},
    {"action": "claim", "taskId": "task_0001"},
    {"action": "complete", "taskId": "task_0001", "summary": "Parser done"},
    {"action": "block", "taskId": "task_0002", "reason": "Needs fixtures"},
    {"action": "claim", "taskId": "task_9999"},
    {"action": "create", "title": "Document it"},
]


def carries(binary: Path, description: str, texts: list[str]) -> None:
    """Stops unless the agent's own binary carries the tool read from the
    package it bundles: its description, and each of `texts`, verbatim."""
    text = binary.read_bytes()
    for needle in [f"description:{json.dumps(description, ensure_ascii=False)}", *texts]:
        if needle.encode() not in text:
            raise SystemExit(f"{binary.name} does not carry {needle[:80]!r}: it bundles another version")


CLINE_TEAM_CARRIED = [
    # Which fields each action needs.
    'create:["title","description"],list:[],claim:["taskId"],complete:["taskId","summary"],block:["taskId","reason"]',
    # The zod the schema is made and checked with.
    "major:4,minor:4,patch:3",
]


def retired(binary: str, gone: list[str], kept: str | None = None) -> Callable[[Path], Json]:
    """A tool its agent no longer ships: no definition names it (`name:"…"`,
    as the bundle declares its tools), while `kept` shows that the binary's
    tool definitions are readable that way at all."""

    def extract(folder: Path) -> Json:
        text = (folder / binary).read_bytes()
        found = [name for name in gone if re.search(rb'name:\s*"%s"' % name.encode(), text)]
        if found:
            raise SystemExit(f"still declared: {', '.join(found)}")
        if kept is not None and f'name:"{kept}"'.encode() not in text:
            raise SystemExit(f"{kept} is not declared either: the bundle's form changed")
        return {
            "read": f"{binary}: no tool declares {', '.join(gone)}" + (f" (its {kept} does)" if kept else ""),
            "tools": [],
            "calls": [],
            "retired": gone,
        }

    return extract


EXTRACTORS: dict[str, Callable[[Path], Json]] = {
    "continue": continue_cli,
    "augment": augment,
    "copilot-cli": copilot_cli,
    "deepagents-js": deepagents_js,
    "omp": omp,
    "cline": retired("bin/cline", ["task_progress"], kept="team_task"),
    "cline-team": cline_team,
}
