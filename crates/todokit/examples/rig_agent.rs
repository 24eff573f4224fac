//! A rig agent with todokit's tools in one line.
//!
//! Run with `cargo run -p todokit --features rig --example rig_agent`.
//!
//! The model here is rig's scripted test model, so the example runs offline
//! and with no API key: it plans two steps with `TodoWrite`, then answers. A
//! real host passes its provider's model to `AgentBuilder::new` instead;
//! nothing else changes.

use rig_agent::AgentBuilder;
use rig_core::test_utils::{MockCompletionModel, MockTurn};
use serde_json::json;
use todokit::Todokit;

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let service = Todokit::builder()
        .profile("claude-code")?
        .memory_store()
        .build()?;
    let conversation = "rig-example";

    let model = MockCompletionModel::from_turns([
        MockTurn::tool_call(
            "call-1",
            "TodoWrite",
            json!({"todos": [
                {"content": "Read the failing test", "status": "in_progress", "activeForm": "Reading the failing test"},
                {"content": "Fix the parser", "status": "pending", "activeForm": "Fixing the parser"}
            ]}),
        ),
        MockTurn::text("Planned; starting with the failing test."),
    ]);

    // The one line: the profile's tools, bound to this conversation.
    let agent = AgentBuilder::new(model.clone())
        .preamble(service.profile().system_prompt())
        .dynamic_tools(todokit::rig::tools(&service, conversation))
        .build();

    let answer = agent.prompt("Fix the parser bug").max_turns(3).await?;
    println!("model: {}", answer.output());

    // What the model read back from the tool, as rig sent it.
    for request in model.requests().iter().skip(1) {
        for message in &request.chat_history {
            if let rig_core::message::Message::User { content } = message {
                for item in content {
                    if let rig_core::message::UserContent::ToolResult(result) = item {
                        println!("tool result ({}): {}", result.name, text_of(&result.content));
                    }
                }
            }
        }
    }

    // And the list the store now holds.
    let state = service.state(conversation).await?;
    for task in state.tasks() {
        println!("[{:?}] {}", task.status, task.content);
    }
    Ok(())
}

/// The text blocks of a tool result, joined.
fn text_of(content: &[rig_core::message::ToolResultContent]) -> String {
    content
        .iter()
        .filter_map(|item| match item {
            rig_core::message::ToolResultContent::Text(text) => Some(text.text.as_str()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("\n")
}
