"""The todo tools of agents shipped on PyPI, read from their own wheels.

Run by `extract.py` (never by hand) as
`pypi_tools.py PROFILE WHEEL [WHEEL...]`, with the pydantic the agent pins
(and, for langchain, the package and its dependencies) first on
`PYTHONPATH`. Prints the fixture's `read`, `tools` and `calls` as JSON.

The agents need Python 3.12 and pull in large trees (LLM clients, UIs), so
a wheel is not imported whole. The classes and functions that define a
tool's input and its answers are cut from the wheel's own source, by name,
and run as they are under the agent's pinned pydantic; the few names they
use from the rest of the agent (a result type, a registry) are stood in
for, and each stand-in is named where it is used. A definition that moved
or changed its name stops the script instead of being guessed.
"""

from __future__ import annotations

import json
import re
import sys
import textwrap
import types
import zipfile
from enum import StrEnum, auto
from typing import Any, Callable, Literal, Optional

Json = dict[str, Any]


def wheel_source(wheel: str, path: str) -> str:
    """The text of `path` inside `wheel`."""
    with zipfile.ZipFile(wheel) as archive:
        return archive.read(path).decode("utf-8")


def pick(source: str, names: list[str]) -> str:
    """The top-level definitions (`class`, `def`, `NAME =`) called `names`,
    in the file's order, with their decorators.

    Read as text, not through `ast`: the sources use Python 3.12 syntax
    (`type X = ...`, `class C[T]`) that this interpreter cannot parse, in
    parts the todo tools do not need.
    """
    lines = source.splitlines()
    found: dict[str, tuple[int, str]] = {}
    start = re.compile(r"^(?:async\s+def|def|class)\s+(\w+)|^(\w+)\s*(?::[^=]*)?=")
    index = 0
    while index < len(lines):
        match = start.match(lines[index])
        name = match and (match.group(1) or match.group(2))
        if not name or name not in names:
            index += 1
            continue
        first = index
        while first > 0 and lines[first - 1].startswith("@"):
            first -= 1
        end = index + 1
        while end < len(lines) and (
            not lines[end].strip()
            or lines[end][0] in " \t)]}"
            or lines[end].lstrip().startswith("#")
        ):
            end += 1
        found[name] = (first, "\n".join(lines[first:end]).rstrip())
        index = end
    missing = [name for name in names if name not in found]
    if missing:
        raise SystemExit(f"not found in the package's source: {', '.join(missing)}")
    return "\n\n\n".join(text for _, text in sorted(found.values())) + "\n"


def method(source: str, owner: str, name: str) -> str:
    """A method of class `owner`, dedented into a plain function of `self`."""
    body = pick(source, [owner])
    match = re.search(rf"^(    (?:async )?def {name}\(.*?)(?=^    [^\s)\]}}]|\Z)", body, re.M | re.S)
    if not match:
        raise SystemExit(f"not found in the package's source: {owner}.{name}")
    return textwrap.dedent(match.group(1)).rstrip() + "\n"


def run(code: str, namespace: Json) -> Json:
    """Runs upstream's `code` in `namespace` and returns it."""
    exec(compile(code, "<upstream>", "exec"), namespace)
    return namespace


def pydantic_names() -> Json:
    """What the picked sources import from pydantic and the standard
    library, given as their own modules would."""
    import pydantic
    from pydantic.json_schema import GenerateJsonSchema

    # pydantic resolves a model's names through its module, so the picked
    # sources run in a module of their own.
    module = types.ModuleType("upstream")
    sys.modules["upstream"] = module
    module.__dict__.update({
        "Any": Any,
        "Literal": Literal,
        "Optional": Optional,
        "BaseModel": pydantic.BaseModel,
        "Field": pydantic.Field,
        "ValidationError": pydantic.ValidationError,
        "computed_field": pydantic.computed_field,
        "field_validator": pydantic.field_validator,
        "GenerateJsonSchema": GenerateJsonSchema,
        "StrEnum": StrEnum,
        "auto": auto,
        "json": json,
        "copy": __import__("copy"),
        "cast": lambda _type, value: value,
        # Python 3.12's typing.override; it only marks a method.
        "override": lambda function: function,
    })
    return module.__dict__


def record(**fields: Any) -> Any:
    """Stands in for an agent's result classes: keeps what it was given."""
    return types.SimpleNamespace(**fields)


def kimi_cli(wheels: list[str]) -> Json:
    agent, kosong = wheels
    tool = wheel_source(agent, "kimi_cli/tools/todo/__init__.py")
    names = run(pick(tool, ["Todo", "Params"]), pydantic_names())
    # kosong's CallableTool2 sends deref_json_schema(model_json_schema())
    # with its generator that leaves titles out.
    run(pick(wheel_source(kosong, "kosong/tooling/__init__.py"), ["_GenerateJsonSchemaNoTitles"]), names)
    helpers = wheel_source(kosong, "kosong/utils/jsonschema.py")
    helpers = re.sub(r"^type (\w+) = .*$", r"\1 = Any", helpers, flags=re.M)
    run(helpers.replace("from kosong.utils.typing import JsonType", "JsonType = Any"), names)
    schema = names["deref_json_schema"](
        names["Params"].model_json_schema(schema_generator=names["_GenerateJsonSchemaNoTitles"])
    )
    # SetTodoList's own answers, with its store in a list.
    names["ToolReturnValue"] = record
    names["TodoDisplayItem"] = record
    names["TodoDisplayBlock"] = record
    for name in ["_write_todos", "_read_todos"]:
        run(method(tool, "SetTodoList", name), names)
    stored: list[Any] = []
    this = types.SimpleNamespace(
        _save_todos=lambda todos: stored.__setitem__(slice(None), todos),
        _load_todos=lambda: stored,
    )

    def call(arguments: Json) -> str:
        params = names["Params"].model_validate(arguments)
        if params.todos is None:
            return names["_read_todos"](this).output
        return names["_write_todos"](this, params.todos).output

    return {
        "read": "kimi_cli/tools/todo/__init__.py (SetTodoList) and kosong's CallableTool2 schema",
        "tools": [{"name": "SetTodoList", "input_schema": schema}],
        "calls": answered("SetTodoList", call, KIMI_CALLS),
    }


KIMI_CALLS: list[Json] = [
    {"todos": []},
    {},
    {"todos": [{"title": "Write the parser", "status": "in_progress"}, {"title": "Add tests", "status": "pending"}]},
    {},
]


def vibe(wheels: list[str]) -> Json:
    (agent,) = wheels
    tool = wheel_source(agent, "vibe/core/tools/builtins/todo.py")
    names = pydantic_names()
    # The tool's config names its permission; its value is not the tool's.
    names["ToolPermission"] = StrEnum("ToolPermission", {"ALWAYS": "always"})
    picked = ["TodoStatus", "TodoPriority", "TodoItem", "TodoArgs", "TodoResult"]
    picked += ["TodoValidationError", "read_todos", "write_todos", "TodoConfig"]
    run(pick(tool, picked).replace("(BaseToolConfig)", "(BaseModel)"), names)
    harness = wheel_source(agent, "vibe/app_server/_provided_tools.py")
    for stand_in in ["RustToolSucceededEvent", "RustToolSuccessResult", "RustTextContentBlock"]:
        names[stand_in] = record
    run(pick(harness, ["_run_todo", "_succeeded"]), names)
    todos: list[Any] = []
    max_todos = names["TodoConfig"]().max_todos
    action = types.SimpleNamespace(action_id="1", call_id="1")

    def call(arguments: Json) -> str:
        result = names["_run_todo"](arguments, todos, max_todos=max_todos)
        return names["_succeeded"](action, result).result.content[0].text

    return {
        "read": "vibe/core/tools/builtins/todo.py, as vibe/app_server/_provided_tools.py runs it",
        "tools": [{"name": "todo", "input_schema": names["TodoArgs"].model_json_schema()}],
        "calls": answered("todo", call, VIBE_CALLS),
    }


VIBE_CALLS: list[Json] = [
    {"action": "read"},
    {
        "action": "write",
        "todos": [
            {"id": "1", "content": "Write the parser", "status": "in_progress", "priority": "high"},
            {"id": "2", "content": "Add tests"},
        ],
    },
    {"action": "read"},
]


def hermes(wheels: list[str]) -> Json:
    (agent,) = wheels
    source = wheel_source(agent, "tools/todo_tool.py")
    # The module registers itself with the agent's tool registry on import;
    # the registry's error helper is the one name the tool uses from it.
    registry = types.ModuleType("tools.registry")
    registry.registry = types.SimpleNamespace(register=lambda **_: None)  # type: ignore[attr-defined]
    registry.tool_error = lambda message: json.dumps({"error": message})  # type: ignore[attr-defined]
    sys.modules["tools"] = types.ModuleType("tools")
    sys.modules["tools.registry"] = registry
    names = run(source, {"__name__": "hermes_todo"})
    store = names["TodoStore"]()

    def call(arguments: Json) -> str:
        return names["todo_tool"](
            todos=arguments.get("todos"), merge=arguments.get("merge", False), store=store
        )

    return {
        "read": "tools/todo_tool.py (TODO_SCHEMA and todo_tool, as its registry entry calls it)",
        "tools": [{"name": names["TODO_SCHEMA"]["name"], "input_schema": names["TODO_SCHEMA"]["parameters"]}],
        "calls": answered("todo", call, HERMES_CALLS),
    }


HERMES_CALLS: list[Json] = [
    {},
    {"todos": [{"id": "1", "content": "Write the parser", "status": "in_progress"}, {"id": "2", "content": "Add tests", "status": "pending"}]},
    {"todos": [{"id": "1", "content": "Write the parser", "status": "completed"}], "merge": True},
]


def deepagents(wheels: list[str]) -> Json:
    # langchain supports this interpreter, so it is imported whole, from the
    # dependencies `extract.py` installed beside it.
    from langchain.agents.middleware.todo import TodoListMiddleware
    from langchain_core.utils.function_calling import convert_to_openai_tool

    tool: Any
    (tool,) = TodoListMiddleware().tools
    schema = convert_to_openai_tool(tool)["function"]["parameters"]
    runtime = types.SimpleNamespace(tool_call_id="call_1")

    def call(arguments: Json) -> str:
        todos = tool.args_schema.model_validate(arguments).todos
        command = tool.func(runtime, todos)
        return command.update["messages"][0].content

    return {
        "read": "langchain/agents/middleware/todo.py (TodoListMiddleware's write_todos, through convert_to_openai_tool)",
        "tools": [{"name": tool.name, "input_schema": schema}],
        "calls": answered("write_todos", call, DEEPAGENTS_CALLS),
    }


DEEPAGENTS_CALLS: list[Json] = [
    {"todos": [{"content": "Write the parser", "status": "in_progress"}, {"content": "Add tests", "status": "pending"}]},
]


def openhands(wheels: list[str]) -> Json:
    tools, sdk = wheels
    import threading
    from abc import ABC
    from collections.abc import Sequence
    from typing import ClassVar, get_args

    import pydantic

    names = pydantic_names()
    names.update(
        ABC=ABC,
        ClassVar=ClassVar,
        ConfigDict=pydantic.ConfigDict,
        PrivateAttr=pydantic.PrivateAttr,
        Sequence=Sequence,
        get_args=get_args,
        threading=threading,
        # rich's Text, named only by the classes' display properties.
        Text=object,
    )
    # The SDK's DiscriminatedUnionMixin adds a `kind` field that
    # Schema.to_mcp_schema takes out again; a model with no fields stands
    # in for it.
    names["DiscriminatedUnionMixin"] = type("DiscriminatedUnionMixin", (pydantic.BaseModel,), {})
    schema_py = wheel_source(sdk, "openhands/sdk/tool/schema.py")
    run(pick(schema_py, ["_shallow_expand_circular_ref", "_process_schema_node", "Schema", "Action"]), names)
    tool_py = wheel_source(sdk, "openhands/sdk/tool/tool.py")
    picked = ["_action_types_with_summary", "_action_type_lock"]
    picked += ["_prioritize_schema_fields", "_create_action_type_with_summary"]
    run(pick(tool_py, picked), names)
    run(method(tool_py, "ToolDefinition", "_get_tool_schema"), names)
    definition = wheel_source(tools, "openhands/tools/task_tracker/definition.py")
    run(pick(definition, ["TaskTrackerStatusType", "_STATUS_ALIASES", "TaskItem", "TaskTrackerAction"]), names)
    # What ToolDefinition holds for the task tracker: no response schema,
    # no annotations that would add `security_risk` (no analyzer is on).
    tracker = types.SimpleNamespace(
        action_type=names["TaskTrackerAction"],
        annotations=None,
        _merge_response_schema=lambda schema: schema,
    )
    schema = names["_get_tool_schema"](tracker)
    # The executor's answers; an observation's text reaches the model as
    # Observation.to_llm_content gives it (the text, after a header when it
    # is an error).
    header = re.search(r'ERROR_MESSAGE_HEADER: ClassVar\[str\] = "(.*)"', schema_py)
    assert header, "Observation.ERROR_MESSAGE_HEADER"
    names["TaskTrackerObservation"] = types.SimpleNamespace(
        from_text=lambda text, is_error=False, **_: (header.group(1).replace("\\n", "\n") if is_error else "") + text
    )
    for name in ["__call__", "_format_task_list"]:
        run(method(definition, "TaskTrackerExecutor", name).replace("def __call__", "def execute"), names)
    executor = types.SimpleNamespace(save_dir=None, _task_list=[])
    executor._format_task_list = lambda tasks: names["_format_task_list"](executor, tasks)

    def call(arguments: Json) -> str:
        action = names["_create_action_type_with_summary"](names["TaskTrackerAction"])
        return names["execute"](executor, action.model_validate(arguments))

    return {
        "read": "openhands/tools/task_tracker/definition.py, with openhands-sdk's ToolDefinition._get_tool_schema",
        "tools": [{"name": "task_tracker", "input_schema": schema}],
        "calls": answered("task_tracker", call, OPENHANDS_CALLS),
    }


OPENHANDS_CALLS: list[Json] = [
    {"command": "view"},
    {
        "summary": "Plan the parser work",
        "command": "plan",
        "task_list": [
            {"title": "Write the parser", "notes": "start with the lexer", "status": "in_progress"},
            {"title": "Add tests", "status": "to_do"},
            {"title": "Ship it", "status": "Complete"},
        ],
    },
    {"command": "view"},
]


def answered(tool: str, call: Callable[[Json], str], calls: list[Json]) -> list[Json]:
    """`calls` made in order against one list, with upstream's answers."""
    return [{"tool": tool, "arguments": arguments, "answer": call(arguments)} for arguments in calls]


EXTRACTORS: dict[str, Callable[[list[str]], Json]] = {
    "kimi-cli": kimi_cli,
    "vibe": vibe,
    "hermes": hermes,
    "deepagents": deepagents,
    "openhands": openhands,
}

if __name__ == "__main__":
    profile, *wheels = sys.argv[1:]
    json.dump(EXTRACTORS[profile](wheels), sys.stdout)
