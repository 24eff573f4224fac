//! `todokit_app`'s compaction with the dialects todokit ships (moved here with
//! the dialects: a mechanism's crate cannot name one).

use crate::test_support::snapshot_settings;
use pretty_assertions::assert_eq;
use todokit_app::turn::TurnPolicy;
use todokit_domain::{Phase, Status, Todo, TodoState};

#[test]
fn a_compacted_conversation_gets_its_open_items_and_progress_back() {
    let list = TodoState::new().phases(vec![
        Phase::new("Build").tasks(vec![
            Todo::new("Scaffold").status(Status::Completed),
            Todo::new("Wire the API")
                .status(Status::InProgress)
                .active_form("Wiring the API")
                .notes(vec!["the auth header is still missing".to_owned()]),
        ]),
        Phase::new("Ship").tasks(vec![Todo::new("Tag a release")]),
    ]);
    let policy = TurnPolicy::new(&crate::by_name("pi").expect("pi exists"));
    let actual = policy.on_compaction(&list).map(|i| (i.placement, i.kind, i.text));
    snapshot_settings().bind(|| insta::assert_debug_snapshot!("compaction_pi", actual));
}

#[test]
fn a_list_with_nothing_open_adds_nothing() {
    let done = TodoState::flat(vec![Todo::new("a").status(Status::Completed)]);
    let policy = TurnPolicy::new(&crate::by_name("claude-code").expect("claude-code exists"));
    let actual = (
        policy.on_compaction(&done),
        policy.on_compaction(&TodoState::new()),
    );
    assert_eq!(actual, (None, None));
}
