//! `todokit_app`'s turn driver over a real store: a turn carried on by a
//! second driver, calls told twice counted once, the end-of-turn reminder
//! kept or handed over, the user's edits told once.

use std::sync::Arc;

use crate::test_support::block_on;
use pretty_assertions::assert_eq;
use todokit_app::turn_driver::{Delivery, TurnDriver};
use todokit_app::{
    CallRecord, ConversationContext, Enforcement, ManualClock, ReminderKind, TodoWriteService, TurnConfig,
    TurnEnd, UserAction,
};
use todokit_infra::MemoryStore;

const ONE: &str =
    r#"{"todos":[{"content":"Run the tests","status":"in_progress","activeForm":"Running the tests"}]}"#;

fn service(store: &Arc<MemoryStore>) -> TodoWriteService {
    let store: Arc<dyn ConversationContext> = store.clone();
    TodoWriteService::new(
        crate::by_name("claude-code").expect("registered"),
        store,
        Arc::new(ManualClock::new(0)),
    )
}

fn driver(store: &Arc<MemoryStore>, nag_after_rounds: usize) -> TurnDriver {
    let service = service(store);
    let config = TurnConfig::for_profile(service.profile()).nag_after_rounds(nag_after_rounds);
    TurnDriver::with_config(service, config)
}

fn kinds(injections: &[todokit_app::Injection]) -> Vec<ReminderKind> {
    injections.iter().map(|i| i.kind).collect()
}

fn bash(id: &str) -> Vec<CallRecord> {
    vec![CallRecord::new("Bash", false).with_id(id)]
}

#[test]
fn a_second_driver_on_the_same_store_carries_on_the_turn() {
    let store = Arc::new(MemoryStore::new());
    let first = driver(&store, 2);
    block_on(first.service().call("c", "TodoWrite", ONE)).expect("stored");
    block_on(first.tool_results("c", &bash("1"))).expect("told");
    let second = driver(&store, 2);
    block_on(second.tool_results("c", &bash("2"))).expect("told");
    let record = block_on(first.record("c")).expect("read");
    let given = block_on(first.model_request("c", None)).expect("asked");
    let after = block_on(second.record("c")).expect("read");
    let actual = (
        record.counters.rounds_since_todo,
        kinds(&record.pending),
        kinds(&given),
        after.pending.len(),
    );
    let expected = (2, vec![ReminderKind::Nag], vec![ReminderKind::Nag], 0);
    assert_eq!(actual, expected);
}

#[test]
fn a_call_told_twice_counts_once_and_an_empty_round_counts() {
    let store = Arc::new(MemoryStore::new());
    let fixture = driver(&store, 10);
    block_on(fixture.tool_results("c", &bash("1"))).expect("told");
    block_on(fixture.model_request("c", Some(&bash("1")))).expect("asked");
    let once = block_on(fixture.record("c"))
        .expect("read")
        .counters
        .rounds_since_todo;
    block_on(fixture.model_request("c", Some(&[]))).expect("asked");
    let empty = block_on(fixture.record("c"))
        .expect("read")
        .counters
        .rounds_since_todo;
    block_on(fixture.model_request("c", None)).expect("asked");
    let none = block_on(fixture.record("c"))
        .expect("read")
        .counters
        .rounds_since_todo;
    assert_eq!((once, empty, none), (1, 2, 2));
}

#[test]
fn the_end_of_turn_reminder_waits_for_the_next_request_only_when_asked_to() {
    let store = Arc::new(MemoryStore::new());
    let fixture = driver(&store, 10);
    block_on(fixture.service().call("c", "TodoWrite", ONE)).expect("stored");
    block_on(fixture.set_end_of_turn("c", Enforcement::Strict)).expect("set");
    // A driver configured soft serves the conversation as stored: strict.
    let kept = block_on(fixture.turn_end("c", Delivery::NextRequest)).expect("checked");
    let next = block_on(fixture.model_request("c", None)).expect("asked");
    block_on(fixture.user_prompt("c")).expect("prompted");
    let handed = block_on(fixture.turn_end("c", Delivery::Host)).expect("checked");
    let after = block_on(fixture.model_request("c", None)).expect("asked");
    let actual = (
        matches!(kept, TurnEnd::Continue(_)),
        kinds(&next),
        matches!(handed, TurnEnd::Continue(_)),
        after,
    );
    let expected = (true, vec![ReminderKind::EndOfTurn], true, vec![]);
    assert_eq!(actual, expected);
}

#[test]
fn a_hand_edit_and_a_failed_call_are_told_once_and_a_quiet_hook_commits_nothing() {
    let store = Arc::new(MemoryStore::new());
    let fixture = driver(&store, 10);
    block_on(fixture.user_prompt("quiet")).expect("prompted");
    let quiet = block_on(fixture.model_request("quiet", None)).expect("asked");
    let quiet_version = block_on(fixture.service().state("quiet")).expect("read").version;
    block_on(fixture.service().call("c", "TodoWrite", ONE)).expect("stored");
    block_on(fixture.tool_results("c", &[CallRecord::new("TodoWrite", true)])).expect("told");
    block_on(
        fixture
            .service()
            .user_edit("c", UserAction::Done("run".into()), &todokit_infra::PiMarkdown),
    )
    .expect("edited");
    let first = block_on(fixture.model_request("c", None)).expect("asked");
    let second = block_on(fixture.model_request("c", None)).expect("asked");
    let actual = (quiet, quiet_version, kinds(&first), second);
    let expected = (
        vec![],
        0,
        vec![ReminderKind::StaleList, ReminderKind::UserEdit],
        vec![],
    );
    assert_eq!(actual, expected);
}

#[test]
fn the_list_its_version_and_the_listing_see_nothing_of_the_turn() {
    let store = Arc::new(MemoryStore::new());
    let fixture = driver(&store, 1);
    block_on(fixture.service().call("c", "TodoWrite", ONE)).expect("stored");
    block_on(fixture.user_prompt("c")).expect("prompted");
    block_on(fixture.tool_results("c", &bash("1"))).expect("told");
    block_on(fixture.turn_end("c", Delivery::NextRequest)).expect("checked");
    let listed: Vec<String> = block_on(fixture.service().conversations())
        .expect("listed")
        .into_iter()
        .map(|c| c.id)
        .collect();
    let list = block_on(fixture.service().state("c")).expect("read");
    let record = block_on(fixture.record("c")).expect("read");
    let actual = (listed, list.version, list.turn, record.pending.len());
    let expected = (vec!["c".to_owned()], 1, None, 1);
    assert_eq!(actual, expected);
}

#[test]
fn a_driver_storing_its_end_of_turn_stores_it_with_its_first_hook() {
    let store = Arc::new(MemoryStore::new());
    let storing = driver(&store, 10).storing_end_of_turn(Enforcement::Strict);
    block_on(storing.user_prompt("c")).expect("prompted");
    let record = block_on(driver(&store, 10).record("c")).expect("read");
    let version = block_on(storing.service().state(&todokit_domain::turn::turn_key("c")))
        .expect("read")
        .version;
    assert_eq!((record.end_of_turn, version), (Some(Enforcement::Strict), 1));
}
