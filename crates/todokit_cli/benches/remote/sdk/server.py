"""A todo server as a host would write one with the official MCP Python
SDK: ``MCPServer`` with a ``TodoWrite`` tool that keeps the list in memory,
its Streamable HTTP app served by uvicorn. ``make bench`` measures its CPU
per call beside todokit's.

Usage: python server.py PORT (prints "listening" once it accepts).
"""

from __future__ import annotations

import sys
from typing import Literal

import uvicorn
from mcp.server.mcpserver import MCPServer
from pydantic import BaseModel, Field


class Todo(BaseModel):
    content: str = Field(min_length=1)
    status: Literal["pending", "in_progress", "completed"]
    activeForm: str = Field(min_length=1)


server = MCPServer("sdk-todo")
LISTS: dict[str, list[Todo]] = {}


@server.tool(name="TodoWrite", description="Replace the todo list.")
def todo_write(todos: list[Todo]) -> str:
    LISTS["default"] = todos
    return "Todos have been modified successfully."


class Announcing(uvicorn.Server):
    async def startup(self, sockets: object = None) -> None:
        await super().startup(sockets)  # type: ignore[arg-type]
        print("listening", flush=True)


config = uvicorn.Config(server.streamable_http_app(), host="127.0.0.1", port=int(sys.argv[1]), log_level="warning")
Announcing(config).run()
