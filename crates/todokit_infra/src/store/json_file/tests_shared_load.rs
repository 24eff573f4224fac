//! Loads that reuse the list the store last wrote or parsed: what they give
//! is always what the file holds, as a fresh store reads it.

use super::*;
use pretty_assertions::assert_eq;
use serde_json::json;
use todokit_domain::{Phase, Status, Todo};

/// A list using every field that reads back as written.
fn plain() -> TodoState {
    TodoState::new()
        .version(3_u64)
        .next_id(7_u64)
        .profile("forge")
        .explanation("why")
        .phases(vec![Phase::new("Build").tasks(vec![
            Todo::new("a")
                .id("1")
                .active_form("Doing a")
                .status(Status::Blocked)
                .notes(vec!["n".to_owned()])
                .description("d")
                .owner("o")
                .blocked_by(vec!["2".to_owned()])
                .blocked_reason("waiting")
                .parent("3")
                .kind("bug")
                .created_at(1_u64)
                .status_changed_at(2_u64),
            Todo::new("b \"quoted\"\n\u{1F600}"),
        ])])
}

/// The same list with fields this build does not know and metadata with a
/// float, which are read back from the file rather than reused.
fn with_open_fields() -> TodoState {
    let mut state = plain();
    state.foreign.insert("archive".to_owned(), json!([1]));
    state.phases[0].tasks[0].metadata = Some(serde_json::Map::from_iter([("x".to_owned(), json!(0.1))]));
    state.phases[0].tasks[1]
        .foreign
        .insert("estimate".to_owned(), json!({"hours": 3}));
    state
}

#[test]
fn only_lists_free_of_open_fields_stand_for_their_bytes() {
    let actual = (
        last_file::reads_back_equal(&plain()),
        last_file::reads_back_equal(&with_open_fields()),
    );
    assert_eq!(actual, (true, false));
}

#[tokio::test]
async fn a_shared_load_after_a_write_gives_what_a_fresh_store_reads() {
    for written in [plain(), with_open_fields()] {
        let dir = tempfile::tempdir().unwrap();
        let fixture = JsonFileStore::new(dir.path());
        fixture
            .save_shared("c", 0, Arc::new(written.clone()))
            .await
            .unwrap();
        let fresh = JsonFileStore::new(dir.path()).load("c").await.unwrap();
        let actual = (
            (*fixture.load_shared("c").await.unwrap()).clone(),
            fixture.load("c").await.unwrap(),
        );
        let expected = (fresh.clone(), fresh);
        assert_eq!(actual, expected);
    }
}

#[tokio::test]
async fn a_file_changed_behind_the_store_is_read_again() {
    let dir = tempfile::tempdir().unwrap();
    let fixture = JsonFileStore::new(dir.path());
    fixture.save_shared("c", 0, Arc::new(plain())).await.unwrap();
    let _ = fixture.load_shared("c").await.unwrap();
    // Another writer (another process, or a hand edit) commits a new list.
    let other = JsonFileStore::new(dir.path());
    let edited = plain().version(4_u64).explanation("edited by hand");
    other.save("c", 3, &edited).await.unwrap();
    let actual = (*fixture.load_shared("c").await.unwrap()).clone();
    assert_eq!(actual, edited);
}
