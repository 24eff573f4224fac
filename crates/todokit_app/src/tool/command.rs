//! Tools whose calls name a command (`command: view | plan`, `action: read
//! | write`, `op`): one tool to the model, several to todokit. Each command
//! has its own facts (a `view` only reads), its own run and result, and the
//! fields it needs that the schema leaves optional are checked for it, with
//! the dialect's own words, before it runs.
//!
//! A profile implements [`CommandTool`] and registers `Commands(MyTool)`.

use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::context::{CallContext, Outcome};
use super::error::ToolError;
use super::metadata::ToolMetadata;
use super::typed::{DecodedInput, Tool};
use crate::arguments::{ArgumentError, CompiledSchema, ROOT_FIELD, decode};
use crate::schema::canonical;
use crate::wire::WireEnum;

/// A tool whose every call names one of its commands.
pub trait CommandTool: Send + Sync + 'static {
    /// The arguments as the original declares them (every command's fields
    /// side by side): the schema the model reads, and what is decoded.
    type Input: DeserializeOwned + JsonSchema + Send + 'static;
    /// The command words, declared with [`crate::wire_enum!`].
    type Command: WireEnum + PartialEq;

    /// The name the model calls it by.
    const NAME: &'static str;
    /// The description the model reads (a markdown file, loaded at compile
    /// time).
    const DESCRIPTION: &'static str;
    /// Fields a command needs although the schema leaves them optional, as
    /// (command, field name in the arguments).
    const REQUIRES: &'static [(Self::Command, &'static str)] = &[];

    /// Which command `input` asks for (its discriminator, or the
    /// original's default when it has one and none was sent).
    fn command(input: &Self::Input) -> Self::Command;

    /// The facts of one command: a command that only reads is
    /// [`ToolMetadata::LIST_READER`].
    fn metadata(command: Self::Command) -> ToolMetadata;

    /// The refusal, in the dialect's words, of `command` sent without
    /// `field`, one of its [`CommandTool::REQUIRES`].
    fn missing(command: Self::Command, field: &'static str) -> String {
        format!("`{field}` is required by the `{}` command", command.as_str())
    }

    /// Fills in what the original infers from the arguments' shape when
    /// the model left it out (see [`Tool::complete`]); nothing by default.
    fn complete(args: &mut Value) {
        let _ = args;
    }

    /// Runs `command` on `input`. An error means nothing is stored.
    fn run(
        &self,
        command: Self::Command,
        input: Self::Input,
        ctx: &CallContext<'_>,
    ) -> Result<Outcome, ToolError>;
}

/// A [`CommandTool`] as a tool: register `Commands(MyTool)` with
/// [`crate::profile::Profile::tool`].
#[derive(Debug, Clone, Copy, Default)]
pub struct Commands<T>(pub T);

impl<T: CommandTool> Commands<T> {
    /// The requirement `command` misses in `args`, if any.
    fn unmet(command: T::Command, args: &Value) -> Option<ToolError> {
        T::REQUIRES
            .iter()
            .filter(|(needing, _)| *needing == command)
            .find(|(_, field)| args.get(field).is_none_or(Value::is_null))
            .map(|(_, field)| ToolError::refused(*field, T::missing(command, field)))
    }
}

impl<T: CommandTool> Tool for Commands<T> {
    fn name(&self) -> &'static str {
        T::NAME
    }

    fn description(&self) -> &'static str {
        T::DESCRIPTION
    }

    fn metadata(&self) -> ToolMetadata {
        let each = T::Command::SPELLINGS.iter().map(|(_, c)| T::metadata(*c));
        each.reduce(ToolMetadata::either)
            .unwrap_or(ToolMetadata::LIST_WRITER)
    }

    fn commands(&self) -> Vec<(&'static str, ToolMetadata)> {
        T::Command::SPELLINGS
            .iter()
            .map(|(word, c)| (*word, T::metadata(*c)))
            .collect()
    }

    fn input_schema(&self) -> Value {
        canonical::<T::Input>()
    }

    fn complete(&self, args: &mut Value) {
        T::complete(args);
    }

    fn call(&self, args: &Value, ctx: &CallContext<'_>) -> Outcome {
        let run = decode::<T::Input>(args)
            .map_err(ToolError::from)
            .and_then(|input| {
                let command = T::command(&input);
                match Self::unmet(command, args) {
                    Some(refused) => Err(refused),
                    None => self.0.run(command, input, ctx),
                }
            });
        run.unwrap_or_else(|error| Outcome::read(error.into_result(T::NAME)))
    }

    // Whether a command's fields were sent is read from the arguments, so
    // these tools always take the checked path.
    fn decode_well_formed(&self, _text: &str, _schema: &CompiledSchema) -> Option<DecodedInput> {
        None
    }

    fn call_decoded(&self, _input: DecodedInput, _ctx: &CallContext<'_>) -> Outcome {
        // Only a host handing over another tool's input gets here.
        Outcome::read(
            ToolError::from(ArgumentError::Field {
                field: ROOT_FIELD.to_owned(),
                message: format!("the input given was decoded for another tool than {}", T::NAME),
            })
            .into_result(T::NAME),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{NOW, problem_messages};
    use crate::tool::ToolResult;
    use crate::wire_enum;
    use pretty_assertions::assert_eq;
    use todokit_domain::{ListRules, TodoState};

    wire_enum! {
        /// What the test tool does.
        pub enum Action {
            /// Reads.
            Read = "read",
            /// Writes.
            Write = "write",
        }
        aliases {}
    }

    /// A tool whose `write` needs `list`, which the schema leaves optional.
    #[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize, schemars::JsonSchema)]
    struct ActionInput {
        /// What to do.
        action: Action,
        /// The items, for `write`.
        list: Option<Vec<String>>,
    }

    struct Tracker;

    impl CommandTool for Tracker {
        type Input = ActionInput;
        type Command = Action;
        const NAME: &'static str = "tracker";
        const DESCRIPTION: &'static str = "test";
        const REQUIRES: &'static [(Action, &'static str)] = &[(Action::Write, "list")];

        fn command(input: &ActionInput) -> Action {
            input.action
        }

        fn metadata(command: Action) -> ToolMetadata {
            match command {
                Action::Read => ToolMetadata::LIST_READER,
                Action::Write => ToolMetadata::LIST_WRITER,
            }
        }

        fn missing(command: Action, field: &'static str) -> String {
            format!("Parameter '{field}' is required for '{}'", command.as_str())
        }

        fn run(
            &self,
            command: Action,
            input: ActionInput,
            _: &CallContext<'_>,
        ) -> Result<Outcome, ToolError> {
            let items = input.list.map_or(0, |l| l.len());
            let text = format!("{} {items}", command.as_str());
            Ok(Outcome::read(ToolResult::ok(
                text,
                crate::details::Details::null(),
            )))
        }
    }

    fn call(args: serde_json::Value) -> (String, Vec<String>) {
        let rules = ListRules::default();
        let state = TodoState::new();
        let outcome = Commands(Tracker).call(&args, &CallContext::new(&state, NOW, &rules));
        let problems = problem_messages(&outcome);
        let text = if problems.is_empty() {
            outcome.result.content
        } else {
            String::new()
        };
        (text, problems)
    }

    #[test]
    fn a_command_missing_a_field_it_requires_is_refused_in_the_dialects_words() {
        let fixture = [
            serde_json::json!({"action": "write"}),
            serde_json::json!({"action": "write", "list": null}),
            serde_json::json!({"action": "write", "list": ["a"]}),
            serde_json::json!({"action": "read"}),
        ];
        let actual: Vec<(String, Vec<String>)> = fixture.into_iter().map(call).collect();
        let refused = vec!["list: Parameter 'list' is required for 'write'".to_owned()];
        let expected = vec![
            (String::new(), refused.clone()),
            (String::new(), refused),
            ("write 1".to_owned(), Vec::new()),
            ("read 0".to_owned(), Vec::new()),
        ];
        assert_eq!(actual, expected);
    }

    #[test]
    fn each_command_has_its_facts_and_the_tool_those_that_hold_for_all() {
        let tool = Commands(Tracker);
        let actual = (
            tool.commands(),
            tool.metadata(),
            tool.decode_well_formed("{}", &CompiledSchema::new(&tool.input_schema()))
                .is_none(),
        );
        let expected = (
            vec![
                ("read", ToolMetadata::LIST_READER),
                ("write", ToolMetadata::LIST_WRITER),
            ],
            ToolMetadata::LIST_WRITER,
            true,
        );
        assert_eq!(actual, expected);
    }
}
