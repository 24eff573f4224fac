//! The profile's tools as [rig](https://docs.rs/rig-core) tools (feature
//! `rig`).
//!
//! A profile's tool names are known only at run time (the host picks the
//! profile), and rig keeps its object-safe `ToolDyn` private since 0.41, so
//! each tool is a [`DynamicTool`]: rig's own type for a tool defined by a
//! name, a description, a schema and a callback. Rig's agent builder takes
//! them with `dynamic_tools`, its `ToolSet` with `from_dynamic_tools`, its
//! tool server the same way.
//!
//! ```
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let service = todokit::Todokit::builder().profile("claude-code")?.memory_store().build()?;
//! let tools = todokit::rig::tools(&service, "conversation-1");
//! // A rig host: AgentBuilder::new(model).dynamic_tools(tools).build()
//! assert_eq!(tools[0].name().as_str(), "TodoWrite");
//! # Ok(()) }
//! ```

use std::sync::Arc;

use rig_core::message::ToolName;
use rig_core::tool::{DynamicTool, ToolExecutionError, ToolOutput};
use serde_json::Value;
use todokit_app::TodoWriteService;
use todokit_app::schema::{SchemaTarget, definition};

/// Rig's crate, re-exported so a host names the same version todokit
/// builds against.
pub use rig_core;

/// Every tool of `service`'s profile, bound to `conversation`, as rig
/// tools: hand them to `AgentBuilder::dynamic_tools` (or
/// `ToolSet::from_dynamic_tools`) and a rig agent's todo calls land in
/// `service`'s store.
///
/// What the model reads is exactly the profile's result text. A call the
/// profile refuses (bad arguments, a claimed task) comes back to rig as an
/// `invalid_args` error whose model feedback is that same text, so rig marks
/// the tool result as an error; a store failure comes back as an error whose
/// feedback hides the details (they stay in the error's message for the
/// host's logs).
pub fn tools(service: &TodoWriteService, conversation: impl Into<String>) -> Vec<DynamicTool> {
    let conversation: Arc<str> = Arc::from(conversation.into());
    service
        .profile()
        .tools()
        // Every registered tool has a non-empty name (the catalog's tests
        // check it), so nothing is dropped here in practice.
        .filter_map(|tool| {
            let name = ToolName::new(tool.name()).ok()?;
            let parameters = parameters(tool);
            let (service, conversation) = (service.clone(), Arc::clone(&conversation));
            let tool_name = tool.name();
            Some(DynamicTool::new(
                name,
                tool.description(),
                parameters,
                move |args| {
                    let (service, conversation) = (service.clone(), Arc::clone(&conversation));
                    Box::pin(async move { run(&service, &conversation, tool_name, args).await })
                },
            ))
        })
        .collect()
}

/// The tool's argument schema as providers take it (the same one the
/// OpenAI definitions carry: rig forwards it to whichever provider it
/// talks to).
fn parameters(tool: &dyn todokit_app::Tool) -> Value {
    let mut definition = definition(tool, SchemaTarget::OpenAi);
    definition
        .get_mut("function")
        .and_then(|function| function.get_mut("parameters"))
        .map(Value::take)
        .unwrap_or_else(|| serde_json::json!({"type": "object"}))
}

/// Runs one call and maps the profile's result onto rig's.
async fn run(
    service: &TodoWriteService,
    conversation: &str,
    tool: &str,
    args: Value,
) -> Result<ToolOutput, ToolExecutionError> {
    let result = match &args {
        // Rig hands over what it could not parse as JSON as a string; the
        // profile's own decoder reads (and repairs) argument text.
        Value::String(text) => service.call(conversation, tool, text).await,
        _ => service.call_value(conversation, tool, &args).await,
    };
    match result {
        Ok(result) if result.is_error => Err(ToolExecutionError::invalid_args(result.content)),
        Ok(result) => Ok(ToolOutput::text(result.content)),
        Err(error) => Err(ToolExecutionError::from_error(error)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Todokit;
    use pretty_assertions::assert_eq;

    #[test]
    fn every_profile_gets_one_rig_tool_per_tool_with_its_name_description_and_schema() {
        for profile in todokit_dialects::names() {
            let service = Todokit::builder()
                .profile(profile)
                .expect("registered profile")
                .memory_store()
                .build()
                .expect("memory service");
            let fixture = tools(&service, "c");
            let actual: Vec<(String, String, Value)> = fixture
                .iter()
                .map(|tool| {
                    let definition = tool.definition();
                    (
                        definition.name.to_string(),
                        definition.description,
                        definition.parameters,
                    )
                })
                .collect();
            let definitions = service.definitions(SchemaTarget::OpenAi);
            let expected: Vec<(String, String, Value)> = definitions
                .as_array()
                .expect("an array of definitions")
                .iter()
                .map(|definition| {
                    let function = &definition["function"];
                    let text = |key: &str| function[key].as_str().expect("a string").to_owned();
                    (text("name"), text("description"), function["parameters"].clone())
                })
                .collect();
            assert_eq!(actual, expected, "profile {profile}");
        }
    }
}
