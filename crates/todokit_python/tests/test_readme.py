"""The README's Python example, run as written."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path


def test_the_readme_python_example_runs() -> None:
    readme = (Path(__file__).resolve().parents[3] / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Using it from Python", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    assert len(blocks) == 1
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(blocks[0], "README.md", "exec"), {})
    assert "Todos have been modified successfully" in printed.getvalue()
    assert "'version': 1" in printed.getvalue()
