"""How the extractors cut definitions out of a package's source (run by
`make python-test`; the extraction itself needs the registries and runs
in `make upstream`)."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from extract import requirement
from npm_tools import balanced, carries
from pypi_tools import method, pick

SOURCE = '''\
type JsonDict = dict[str, object]


class Generic[T]:
    pass


@decorated
class Todo(BaseModel):
    title: str = Field(
        description="x",
    )

    # a comment at the class's indent
    def check(self) -> None:
        pass

    def answer(
        self, todos: list[str]
    ) -> str:
        return "Todo list updated"


LIMIT: int = 100

def last():
    return 1
'''


def test_pick_takes_whole_definitions_with_decorators_in_file_order() -> None:
    actual = pick(SOURCE, ["LIMIT", "Todo"])
    assert actual.startswith("@decorated\nclass Todo(BaseModel):")
    assert "return \"Todo list updated\"\n\n\nLIMIT" in actual
    assert actual.endswith("LIMIT: int = 100\n")
    assert "Generic" not in actual and "def last" not in actual


def test_pick_stops_on_a_name_that_is_gone() -> None:
    with pytest.raises(SystemExit, match="not found in the package's source: Missing"):
        pick(SOURCE, ["Todo", "Missing"])


def test_method_is_a_plain_function_of_self() -> None:
    actual = method(SOURCE, "Todo", "answer")
    expected = 'def answer(\n    self, todos: list[str]\n) -> str:\n    return "Todo list updated"\n'
    assert actual == expected


def test_balanced_reads_strings_templates_and_comments() -> None:
    text = 'x={a:"}",b:`${ {c:1}.c }}`,/* } */d:[1,{e:2}]}, rest'
    assert balanced(text, 2) == text[2 : text.index(", rest")]


def test_requirement_reads_pins_with_extras_and_floors(tmp_path: Path) -> None:
    wheel = tmp_path / "agent-1.0-py3-none-any.whl"
    metadata = "Requires-Dist: kosong[contrib]==0.56.0\nRequires-Dist: pydantic>=2.13.5\nRequires-Dist: extra; extra == 'x'\n"
    with zipfile.ZipFile(wheel, "w") as archive:
        archive.writestr("agent-1.0.dist-info/METADATA", metadata)
    assert (requirement(wheel, "kosong"), requirement(wheel, "pydantic")) == ("==0.56.0", ">=2.13.5")
    with pytest.raises(SystemExit, match="states no version of extra"):
        requirement(wheel, "extra")


def test_carries_wants_the_description_and_each_text_verbatim(tmp_path: Path) -> None:
    binary = tmp_path / "agent"
    binary.write_bytes(b'\x00name:"t",description:"Do \\"it\\" \xe2\x9c\x96",x:1;major:4,minor:4\x00')
    carries(binary, 'Do "it" ✖', ["major:4,minor:4"])
    with pytest.raises(SystemExit, match="does not carry 'major:5'"):
        carries(binary, 'Do "it" ✖', ["major:5"])
    with pytest.raises(SystemExit, match="bundles another version"):
        carries(binary, "Do it", [])
