//! The rig adapter through rig's own tool-calling path: a rig agent, rig's
//! scripted model (so no provider is needed), todokit's tools from
//! `todokit::rig::tools`. What the model reads back is compared with what the
//! same call answers when made on the service directly.

use pretty_assertions::assert_eq;
use rig_agent::AgentBuilder;
use rig_core::message::{Message, ToolResultContent, UserContent};
use rig_core::test_utils::{MockCompletionModel, MockTurn};
use serde_json::{Value, json};
use todokit::{ManualClock, Status, TodoWriteService, Todokit};

/// Twelve o'clock on 2026-01-01, so results that mention time agree.
const START: u64 = 1_767_268_800_000;

fn memory_service(profile: &str) -> TodoWriteService {
    Todokit::builder()
        .profile(profile)
        .expect("a registered profile")
        .memory_store()
        .clock(ManualClock::new(START))
        .build()
        .expect("a memory service")
}

/// One tool result as the model reads it: tool name, error flag, text.
type Answer = (String, bool, String);

/// Every tool result in the last request the scripted model received, in
/// order: what rig sent the model after running the tools.
fn answers(model: &MockCompletionModel) -> Vec<Answer> {
    let requests = model.requests();
    let Some(last) = requests.last() else {
        return Vec::new();
    };
    last.chat_history
        .iter()
        .filter_map(|message| match message {
            Message::User { content } => Some(content),
            _ => None,
        })
        .flatten()
        .filter_map(|item| match item {
            UserContent::ToolResult(result) => Some(result),
            _ => None,
        })
        .map(|result| {
            let text: Vec<&str> = result
                .content
                .iter()
                .filter_map(|block| match block {
                    ToolResultContent::Text(text) => Some(text.text.as_str()),
                    _ => None,
                })
                .collect();
            (result.name.to_string(), result.is_error, text.join("\n"))
        })
        .collect()
}

/// Runs `calls` (tool, arguments) as one scripted rig agent session over
/// `service`'s tools and returns what the model read back.
async fn through_rig(
    service: &TodoWriteService,
    conversation: &str,
    calls: &[(String, Value)],
) -> Vec<Answer> {
    let mut turns: Vec<MockTurn> = calls
        .iter()
        .enumerate()
        .map(|(index, (tool, args))| MockTurn::tool_call(format!("call-{index}"), tool.clone(), args.clone()))
        .collect();
    turns.push(MockTurn::text("done"));
    let model = MockCompletionModel::from_turns(turns);
    let agent = AgentBuilder::new(model.clone())
        .dynamic_tools(todokit::rig::tools(service, conversation))
        .build();
    let answer = agent
        .prompt("plan the work")
        .max_turns(calls.len() + 2)
        .await
        .expect("the scripted session runs to its end");
    assert_eq!(answer.output(), "done");
    answers(&model)
}

#[tokio::test]
async fn every_tool_of_every_profile_answers_through_rig_as_it_does_directly() {
    for profile in todokit::profiles::names() {
        let fixture = memory_service(profile);
        let example = fixture.profile().example();
        // Each tool once with empty arguments (a refusal for most, a read
        // for some) and the profile's example call where it has one.
        let mut calls: Vec<(String, Value)> = Vec::new();
        for tool in fixture.profile().tools() {
            if let Some(example) = example.filter(|example| example.tool == tool.name()) {
                let args = serde_json::from_str(example.arguments).expect("example arguments are JSON");
                calls.push((tool.name().to_owned(), args));
            }
            calls.push((tool.name().to_owned(), json!({})));
        }

        let actual = through_rig(&fixture, "c", &calls).await;

        let direct = memory_service(profile);
        let mut expected = Vec::new();
        for (tool, args) in &calls {
            let result = direct
                .call_value("c", tool, args)
                .await
                .expect("the memory store does not fail");
            // rig shapes a blank tool result into its own words before the
            // model reads it (`NO_TOOL_OUTPUT` in rig-core's history), as for
            // `cline`'s `task_progress`, whose answer is empty as Cline's is.
            let content = match result.content.trim().is_empty() {
                true if !result.is_error => "(no tool output)".to_owned(),
                _ => result.content,
            };
            expected.push((tool.clone(), result.is_error, content));
        }
        assert_eq!(actual, expected, "profile {profile}");
        assert_eq!(
            fixture.state("c").await.expect("state"),
            direct.state("c").await.expect("state"),
            "profile {profile}"
        );
    }
}

#[tokio::test]
async fn a_rig_agent_call_updates_the_list_in_the_file_store() {
    let dir = tempfile::tempdir().expect("temp dir");
    let service = Todokit::builder()
        .profile("claude-code")
        .expect("profile")
        .store_dir(dir.path())
        .build()
        .expect("file service");
    let calls = [(
        "TodoWrite".to_owned(),
        json!({"todos": [
            {"content": "Read the test", "status": "completed", "activeForm": "Reading the test"},
            {"content": "Fix the parser", "status": "in_progress", "activeForm": "Fixing the parser"}
        ]}),
    )];

    let answers = through_rig(&service, "rig-file", &calls).await;

    // A second service on the same folder reads what the rig call stored.
    let reader = Todokit::builder()
        .store_dir(dir.path())
        .build()
        .expect("file service");
    let state = reader.state("rig-file").await.expect("state");
    let actual: Vec<(bool, Vec<(String, Status)>)> = vec![(
        answers.iter().any(|(_, is_error, _)| *is_error),
        state
            .tasks()
            .map(|task| (task.content.clone(), task.status))
            .collect(),
    )];
    let expected = vec![(
        false,
        vec![
            ("Read the test".to_owned(), Status::Completed),
            ("Fix the parser".to_owned(), Status::InProgress),
        ],
    )];
    assert_eq!(actual, expected);
}

#[tokio::test]
async fn arguments_that_arrive_as_text_are_read_by_the_profiles_decoder() {
    let service = memory_service("claude-code");
    let text = r#"{"todos":[{"content":"Ship it","status":"in_progress","activeForm":"Shipping it"}]}"#;
    let calls = [("TodoWrite".to_owned(), Value::String(text.to_owned()))];

    let actual = through_rig(&service, "c", &calls).await;

    let direct = memory_service("claude-code");
    let result = direct.call("c", "TodoWrite", text).await.expect("memory store");
    let expected = vec![("TodoWrite".to_owned(), false, result.content)];
    assert_eq!(actual, expected);
}
