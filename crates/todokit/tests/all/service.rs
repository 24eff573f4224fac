//! The service wired with real stores and a clock the tests move: the
//! `pi` lifecycle (auto-clear, resume), notices, and a call that fails.

use std::sync::Arc;

use pretty_assertions::assert_eq;
use todokit::app::{Lifecycle, UserAction};
use todokit::infra::PiMarkdown;
use todokit::{
    ConversationContext, JsonFileStore, ManualClock, MemoryStore, Status, TodoWriteService, Todokit, profiles,
};

const START: u64 = 1_700_000_000_000;
const INIT: &str = r#"{"ops":[{"op":"init","list":[{"phase":"Build","items":["Scaffold","Wire"]},{"phase":"Ship","items":["Tag"]}]}]}"#;

fn pi(clock: Arc<ManualClock>) -> TodoWriteService {
    TodoWriteService::new(
        profiles::by_name("pi").expect("pi is registered"),
        Arc::new(MemoryStore::new()),
        clock,
    )
}

fn contents(state: &todokit::TodoState) -> Vec<(String, Status)> {
    state.tasks().map(|t| (t.content.clone(), t.status)).collect()
}

#[tokio::test]
async fn finished_tasks_clear_after_the_delay_and_a_reopened_one_stays() {
    let clock = Arc::new(ManualClock::new(START));
    let service = pi(clock.clone());
    service.call("c", "todo_write", INIT).await.unwrap();
    service
        .call(
            "c",
            "todo_write",
            r#"{"ops":[{"op":"done","task":"Scaffold"},{"op":"done","task":"Wire"}]}"#,
        )
        .await
        .unwrap();
    clock.advance(30_000);
    service
        .call("c", "todo_write", r#"{"ops":[{"op":"start","task":"Wire"}]}"#)
        .await
        .unwrap();
    clock.advance(30_000);
    let at_60s = contents(&service.view("c").await.unwrap());
    clock.advance(60_000);
    let later = service.view("c").await.unwrap();
    let actual = (at_60s, contents(&later), later.phases.len());
    let expected = (
        vec![
            ("Wire".to_owned(), Status::InProgress),
            ("Tag".to_owned(), Status::Pending),
        ],
        vec![
            ("Wire".to_owned(), Status::InProgress),
            ("Tag".to_owned(), Status::Pending),
        ],
        2,
    );
    assert_eq!(actual, expected);
}

#[tokio::test]
async fn a_zero_delay_clears_at_once_and_a_negative_one_never() {
    let clock = Arc::new(ManualClock::new(START));
    let make = |delay: i64| {
        let profile = profiles::by_name("pi")
            .expect("pi is registered")
            .with_lifecycle(Lifecycle::default().clear_finished_after_ms(delay));
        TodoWriteService::new(profile, Arc::new(MemoryStore::new()), clock.clone())
    };
    let (now, never) = (make(0), make(-1));
    for service in [&now, &never] {
        service.call("c", "todo_write", INIT).await.unwrap();
        service
            .call("c", "todo_write", r#"{"ops":[{"op":"done","task":"Scaffold"}]}"#)
            .await
            .unwrap();
    }
    clock.advance(86_400_000);
    let actual = (
        now.view("c").await.unwrap().tasks().count(),
        never.view("c").await.unwrap().tasks().count(),
    );
    let expected = (2, 3);
    assert_eq!(actual, expected);
}

#[tokio::test]
async fn resume_drops_finished_tasks_and_rebuilds_from_the_transcript_when_nothing_is_stored() {
    let clock = Arc::new(ManualClock::new(START));
    let first = pi(clock.clone());
    let init = first.call("c", "todo_write", INIT).await.unwrap();
    let done = first
        .call("c", "todo_write", r#"{"ops":[{"op":"done","task":"Scaffold"}]}"#)
        .await
        .unwrap();
    let failed = first
        .call("c", "todo_write", r#"{"ops":[{"op":"start","task":"Nope"}]}"#)
        .await
        .unwrap();
    let resumed_here = contents(&first.resume("c", &[]).await.unwrap());
    // A host whose store lost the conversation rebuilds it from the transcript.
    let elsewhere = pi(clock.clone());
    let rebuilt = contents(&elsewhere.resume("c", &[init, done, failed]).await.unwrap());
    let actual = (resumed_here, rebuilt);
    let expected = (
        vec![
            ("Wire".to_owned(), Status::InProgress),
            ("Tag".to_owned(), Status::Pending),
        ],
        vec![
            ("Wire".to_owned(), Status::InProgress),
            ("Tag".to_owned(), Status::Pending),
        ],
    );
    assert_eq!(actual, expected);
}

#[tokio::test]
async fn a_hand_edit_leaves_one_notice_that_is_taken_once() {
    let dir = tempfile::tempdir().unwrap();
    let service = Todokit::builder()
        .profile("pi")
        .unwrap()
        .store(JsonFileStore::new(dir.path()))
        .clock(ManualClock::new(START))
        .build()
        .unwrap();
    service.call("c", "todo_write", INIT).await.unwrap();
    let edit = service
        .user_edit("c", UserAction::Done("scaffold".into()), &PiMarkdown)
        .await
        .unwrap();
    let first = service.take_notices("c").await.unwrap();
    let second = service.take_notices("c").await.unwrap();
    let actual = (
        edit.map(|e| e.action),
        first
            .iter()
            .map(|n| n.text.contains("- [x] Scaffold"))
            .collect::<Vec<_>>(),
        second.len(),
    );
    let expected = (
        Some("marked \"Scaffold\" completed; started \"Wire\"".to_owned()),
        vec![true],
        0,
    );
    assert_eq!(actual, expected);
}

#[tokio::test]
async fn a_failed_call_stores_nothing_and_the_host_has_a_reminder_for_the_next_turn() {
    let service = Todokit::builder().store(MemoryStore::new()).build().unwrap();
    let result = service
        .call(
            "c",
            "TodoWrite",
            r#"{"todos":[{"content":"","status":"pending","activeForm":"x"}]}"#,
        )
        .await
        .unwrap();
    let actual = (
        result.is_error,
        service.state("c").await.unwrap().version,
        todokit::app::stale_list_reminder("TodoWrite").contains("out of date"),
    );
    let expected = (true, 0, true);
    assert_eq!(actual, expected);
}

/// A real memory store that also records how many calls are between their
/// load and their save at once.
#[derive(Default)]
struct WatchedStore {
    inner: MemoryStore,
    inside: std::sync::atomic::AtomicUsize,
    most: std::sync::atomic::AtomicUsize,
}

#[async_trait::async_trait]
impl todokit::ConversationContext for WatchedStore {
    async fn load(&self, conversation: &str) -> Result<todokit::TodoState, todokit::StoreError> {
        use std::sync::atomic::Ordering::SeqCst;
        let now = self.inside.fetch_add(1, SeqCst) + 1;
        self.most.fetch_max(now, SeqCst);
        // Give other tasks every chance to interleave.
        tokio::task::yield_now().await;
        self.inner.load(conversation).await
    }

    async fn save(
        &self,
        conversation: &str,
        expected: u64,
        state: &todokit::TodoState,
    ) -> Result<(), todokit::StoreError> {
        let saved = self.inner.save(conversation, expected, state).await;
        self.inside.fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
        saved
    }

    fn is_durable(&self) -> bool {
        false
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn fifty_concurrent_calls_on_one_conversation_are_serialized_and_none_is_lost() {
    const CALLS: u64 = 50;
    let store = Arc::new(WatchedStore::default());
    let service = TodoWriteService::new(
        profiles::by_name("claude-code").expect("registered"),
        store.clone(),
        Arc::new(ManualClock::new(START)),
    );
    service
        .call(
            "c",
            "TodoWrite",
            r#"{"todos":[{"content":"seed","status":"pending","activeForm":"x"}]}"#,
        )
        .await
        .unwrap();
    // Read through the inner store: a bare load has no save to pair with.
    let start = store.inner.load("c").await.unwrap().version;
    let calls: Vec<_> = (0..CALLS)
        .map(|i| {
            let service = service.clone();
            tokio::spawn(async move {
                let args = format!(
                    r#"{{"todos":[{{"content":"call {i}","status":"in_progress","activeForm":"x"}}]}}"#
                );
                service.call("c", "TodoWrite", &args).await.map(|r| r.is_error)
            })
        })
        .collect();
    let mut errors = 0;
    for call in calls {
        if call.await.unwrap().unwrap() {
            errors += 1;
        }
    }
    let actual = (
        errors,
        store.inner.load("c").await.unwrap().version - start,
        store.most.load(std::sync::atomic::Ordering::SeqCst),
    );
    let expected = (0, CALLS, 1);
    assert_eq!(actual, expected);
}

#[tokio::test]
async fn a_stored_version_at_its_maximum_is_refused_not_wrapped() {
    let store = MemoryStore::new();
    let full = todokit::TodoState::new().version(u64::MAX);
    store.save("c", 0, &full).await.unwrap();
    let service = Todokit::builder().store(store).build().unwrap();
    let args = r#"{"todos":[{"content":"a","status":"pending","activeForm":"A"}]}"#;
    let actual = match service.call("c", "TodoWrite", args).await {
        Err(e @ todokit::ServiceError::VersionExhausted { .. }) => e.to_string(),
        other => format!("{other:?}"),
    };
    let expected = "conversation \"c\" is at the highest version a list can have; its stored state was \
                    written by something other than todokit: repair or remove it";
    assert_eq!(actual, expected);
}

#[tokio::test]
async fn details_read_after_later_calls_show_their_own_call_as_written_at_once() {
    let first_args = r#"{"todos":[{"content":"Parse","status":"in_progress","activeForm":"Parsing"}]}"#;
    let second_args = r#"{"todos":[{"content":"Parse","status":"completed","activeForm":"Parsing"},{"content":"Ship","status":"pending","activeForm":"Shipping"}]}"#;
    let folder = tempfile::tempdir().unwrap();
    let stores: [Arc<dyn ConversationContext>; 2] = [
        Arc::new(MemoryStore::new()),
        Arc::new(JsonFileStore::new(folder.path())),
    ];
    let profile = profiles::by_name("claude-code").unwrap();
    // What the tool writes at once, called directly on the same lists.
    let direct = |args: &str, state: &todokit::TodoState| {
        let ctx = todokit::app::CallContext::new(state, START, profile.rules());
        profile.run_text("TodoWrite", args, &ctx).unwrap()
    };
    let direct_first = direct(first_args, &todokit::TodoState::default());
    let direct_second = direct(second_args, &direct_first.commit.clone().unwrap());
    let mut actual = Vec::new();
    for store in stores {
        let service = TodoWriteService::new(profile.clone(), store, Arc::new(ManualClock::new(START)));
        let first = service.call("c", "TodoWrite", first_args).await.unwrap();
        let second = service.call("c", "TodoWrite", second_args).await.unwrap();
        // Read only now, after the list moved on.
        actual.push((
            first.details.as_str().to_owned(),
            second.details.as_str().to_owned(),
        ));
    }
    let written_at_once = (
        direct_first.result.details.as_str().to_owned(),
        direct_second.result.details.as_str().to_owned(),
    );
    let expected = vec![written_at_once.clone(), written_at_once];
    assert_eq!(actual, expected);
}
