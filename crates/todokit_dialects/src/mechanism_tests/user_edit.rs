//! Hand edits through the service with a dialect's limits and words:
//! reminders that coalesce, and an edit refused as the dialect's own tool
//! would refuse it.

use crate::test_support::{block_on, memory_service};
use pretty_assertions::assert_eq;
use todokit_app::{ImportError, MarkdownCodec, UserAction, user_edit_reminder};
use todokit_domain::{Timestamp, TodoState};

#[test]
fn edits_the_model_has_not_seen_coalesce_into_one_reminder_with_the_list_as_it_is_now() {
    let service = memory_service("claude-code");
    let codec = ListCodec;
    let first = block_on(service.user_edit(
        "c",
        UserAction::Append {
            phase: None,
            items: vec!["Run tests".into(), "Deploy".into()],
        },
        &codec,
    ));
    let second = block_on(service.user_edit("c", UserAction::Start("run".into()), &codec));
    let third = block_on(service.user_edit("c", UserAction::Done("run tests".into()), &codec));
    let notices = block_on(service.take_notices("c")).unwrap_or_default();
    let actions: Vec<Option<String>> = [first, second, third]
        .into_iter()
        .map(|edit| edit.ok().flatten().map(|e| e.action))
        .collect();
    let texts: Vec<String> = notices.into_iter().map(|n| n.text).collect();
    let actual = (actions, texts);
    let expected = (
        vec![
            Some("added \"Run tests\"; added \"Deploy\"".to_owned()),
            Some("started \"Run tests\"".to_owned()),
            Some("marked \"Run tests\" completed; started \"Deploy\"".to_owned()),
        ],
        vec![user_edit_reminder(
            "added \"Run tests\"; added \"Deploy\"; then started \"Run tests\"; then marked \"Run tests\" \
             completed; started \"Deploy\"",
            "completed: Run tests\nin_progress: Deploy",
        )],
    );
    assert_eq!(actual, expected);
}

#[test]
fn a_hand_edit_cannot_leave_what_the_profiles_own_tool_would_refuse() {
    let service = memory_service("claude-code");
    let codec = ListCodec;
    let append = |items: Vec<String>| {
        block_on(service.user_edit("c", UserAction::Append { phase: None, items }, &codec))
            .map(|edit| edit.map(|e| e.state.tasks().count()))
            .map_err(|e| e.to_string())
    };
    let long = append(vec!["x".repeat(299)]);
    let fits = append((1..=49).map(|n| format!("task {n}")).collect());
    let one_too_many = append(vec!["fifty".into(), "fifty-one".into()]);
    let fiftieth = append(vec!["fifty".into()]);
    // Marking a task done adds nothing the tool would refuse.
    let done = block_on(service.user_edit("c", UserAction::Done("task 1".into()), &codec))
        .map(|edit| edit.map(|e| e.state.tasks().count()))
        .map_err(|e| e.to_string());
    let actual = (long, fits, one_too_many, fiftieth, done);
    let expected = (
        Err(format!(
            "the task \"{}… (299 bytes)\" is 299 bytes, and claude-code's tool takes at most 200: shorten it",
            "x".repeat(200)
        )),
        Ok(Some(49)),
        Err(
            "the list would hold 51 tasks, and claude-code's tool takes at most 50: remove some first"
                .to_owned(),
        ),
        Ok(Some(50)),
        Ok(Some(50)),
    );
    assert_eq!(actual, expected);
}

/// A codec that writes one `status: content` line per task, so the test
/// sees which list the reminder quotes.
struct ListCodec;

impl MarkdownCodec for ListCodec {
    fn export(&self, state: &TodoState) -> String {
        state
            .tasks()
            .map(|t| format!("{}: {}", t.status.as_str(), t.content))
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn import(&self, _text: &str, _now: Timestamp) -> Result<TodoState, ImportError> {
        Err(ImportError {
            line: 1,
            message: "not used".into(),
        })
    }
}
