"""The PostgreSQL store, on the throwaway cluster `make python-test` starts."""

from __future__ import annotations

import os
import uuid

import pytest

import todokit

URL = os.environ.get("TODOKIT_TEST_POSTGRES_URL")


@pytest.mark.skipif(URL is None, reason="needs TODOKIT_TEST_POSTGRES_URL (scripts/with-postgres.sh sets it)")
def test_a_list_written_on_postgres_is_read_back_by_another_kit() -> None:
    assert URL is not None
    conversation = f"py-{uuid.uuid4()}"
    todos = {"todos": [{"content": "Ship", "status": "in_progress", "activeForm": "Shipping"}]}
    with todokit.Todokit(database_url=URL) as writer, todokit.Todokit(database_url=URL) as reader:
        result = writer.call(conversation, "TodoWrite", todos)
        assert not result.is_error, result.content
        state = reader.state(conversation)
        assert state["version"] == 1
        assert state["phases"][0]["tasks"][0]["content"] == "Ship"
        assert any(c["id"] == conversation for c in reader.conversations())


def test_a_database_url_that_cannot_be_read_is_a_store_error() -> None:
    with pytest.raises(todokit.StoreError):
        todokit.Todokit(database_url="not a url")


@pytest.mark.skipif(URL is None, reason="needs TODOKIT_TEST_POSTGRES_URL (scripts/with-postgres.sh sets it)")
def test_a_default_kit_reads_todokit_store_as_the_command_does(
    monkeypatch: pytest.MonkeyPatch, tmp_path: os.PathLike[str]
) -> None:
    """`TODOKIT_STORE` naming a database is the database, not a folder."""
    assert URL is not None
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TODOKIT_STORE", URL)
    conversation = f"py-env-{uuid.uuid4()}"
    todos = {"todos": [{"content": "Ship", "status": "pending", "activeForm": "Shipping"}]}
    with todokit.Todokit() as kit:
        assert not kit.call(conversation, "TodoWrite", todos).is_error
    with todokit.Todokit(database_url=URL) as reader:
        assert reader.state(conversation)["version"] == 1
    assert not any(name.startswith("postgres") for name in os.listdir(tmp_path))
