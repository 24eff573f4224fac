//! What a tool is: a name, a description, an input schema, metadata for the
//! host, and a pure function from (arguments, current state) to an outcome.

use std::sync::Arc;

use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use thiserror::Error;
use todokit_domain::{ListRules, Timestamp, TodoError, TodoState};

use crate::{ArgumentError, CompiledSchema, decode, decode_well_formed};
use crate::{Details, schema};

/// What one call returns to the host: whether it failed, the text the model
/// sees, and structured details for UIs and logs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ToolResult {
    /// True when the call was refused or partly failed.
    pub is_error: bool,
    /// The text the model reads.
    pub content: String,
    /// Structured details: for a list tool, the list before and after
    /// (`previous`, `current`), the `transitions` and the profile's own
    /// fields; for a refused call, the `error`. A call through the service
    /// writes them when they are first read.
    pub details: Details,
}

impl ToolResult {
    /// A successful result.
    pub fn ok(content: impl Into<String>, details: Details) -> Self {
        Self {
            is_error: false,
            content: content.into(),
            details,
        }
    }
}

/// Facts about a tool that a host needs to schedule and gate it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ToolMetadata {
    /// It never touches the workspace (files, processes, network), so a host
    /// may allow it in plan mode.
    pub read_only_workspace: bool,
    /// It does not change the list either.
    pub read_only: bool,
    /// Sending the same arguments twice leaves the same state.
    pub idempotent: bool,
    /// Only one call of it runs at a time per conversation; the service
    /// queues the others.
    pub exclusive: bool,
    /// Subagents a host spawns get it too. List tools belong to the agent
    /// that plans; shared task lists are meant for the whole team.
    pub inherited_by_subagents: bool,
}

impl ToolMetadata {
    /// A tool that rewrites the list and nothing else: usable in plan mode,
    /// and the same arguments twice give the same list.
    pub const LIST_WRITER: ToolMetadata = ToolMetadata {
        read_only_workspace: true,
        read_only: false,
        idempotent: true,
        exclusive: true,
        inherited_by_subagents: false,
    };

    /// A tool that only reads the list.
    pub const LIST_READER: ToolMetadata = ToolMetadata {
        read_only_workspace: true,
        read_only: true,
        idempotent: true,
        exclusive: false,
        inherited_by_subagents: false,
    };

    /// The same facts, saying whether subagents get the tool.
    pub const fn inherited(mut self, inherited: bool) -> Self {
        self.inherited_by_subagents = inherited;
        self
    }

    /// The same facts, saying whether the same call twice is a no-op.
    pub const fn idempotent(mut self, idempotent: bool) -> Self {
        self.idempotent = idempotent;
        self
    }
}

/// Why a call was refused. Nothing was stored.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ToolError {
    /// The arguments could not be decoded: one entry per problem.
    #[error("{}", .0.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("; "))]
    Arguments(Vec<ArgumentError>),
    /// The arguments decoded but the list they describe breaks a rule.
    #[error(transparent)]
    Rejected(#[from] TodoError),
}

impl From<ArgumentError> for ToolError {
    fn from(error: ArgumentError) -> Self {
        ToolError::Arguments(vec![error])
    }
}

impl ToolError {
    /// Each problem as (field, message).
    pub fn problems(&self) -> Vec<(String, String)> {
        match self {
            ToolError::Arguments(list) => list
                .iter()
                .map(|e| (e.field().to_owned(), e.to_string()))
                .collect(),
            ToolError::Rejected(e) => e.problems(),
        }
    }

    fn omitted(&self) -> usize {
        match self {
            ToolError::Arguments(_) => 0,
            ToolError::Rejected(e) => e.omitted(),
        }
    }

    fn kind(&self) -> &'static str {
        match self {
            ToolError::Arguments(_) => "invalid_arguments",
            ToolError::Rejected(_) => "rejected",
        }
    }

    /// The result the model gets for this error from tool `tool`: every
    /// problem on its own line, and a plain statement that nothing changed.
    pub fn into_result(self, tool: &str) -> ToolResult {
        let problems = self.problems();
        let mut content = format!("{tool} was not applied; the stored list is unchanged.\n");
        for (_, message) in &problems {
            content.push_str("- ");
            content.push_str(message);
            content.push('\n');
        }
        let omitted = self.omitted();
        if omitted > 0 {
            content.push_str(&format!("- ... and {omitted} more problems of the same kinds\n"));
        }
        content.push_str(&format!("Fix the arguments and call {tool} again."));
        let details = Details::of(&ErrorDetails {
            error: ErrorBody {
                kind: self.kind(),
                problems: problems
                    .iter()
                    .map(|(field, message)| Problem { field, message })
                    .collect(),
                omitted,
            },
        });
        ToolResult {
            is_error: true,
            content,
            details,
        }
    }
}

/// The details of a refused call.
#[derive(Serialize)]
struct ErrorDetails<'a> {
    error: ErrorBody<'a>,
}

#[derive(Serialize)]
struct ErrorBody<'a> {
    kind: &'static str,
    problems: Vec<Problem<'a>>,
    omitted: usize,
}

#[derive(Serialize)]
struct Problem<'a> {
    field: &'a str,
    message: &'a str,
}

/// What a call gives the service: the result, and the state to commit if
/// the call changed the list.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// The new state to store; `None` when nothing is to be written.
    pub commit: Option<TodoState>,
    /// What the model sees.
    pub result: ToolResult,
}

impl Outcome {
    /// A call that only reads.
    pub fn read(result: ToolResult) -> Self {
        Self { commit: None, result }
    }

    /// A call that writes `state`.
    pub fn commit(state: TodoState, result: ToolResult) -> Self {
        Self {
            commit: Some(state),
            result,
        }
    }
}

/// What a tool sees of the world during one call.
#[derive(Debug, Clone, Copy)]
pub struct CallContext<'a> {
    /// The list as stored before the call.
    pub state: &'a TodoState,
    /// The time of the call.
    pub now: Timestamp,
    /// The profile's rules.
    pub rules: &'a ListRules,
    /// Whether what the call commits survives the process.
    pub durable: bool,
    /// `state`, shared, when the caller binds the committed list to the
    /// result afterwards (the service does): details may then be deferred.
    shared: Option<&'a Arc<TodoState>>,
}

impl<'a> CallContext<'a> {
    /// A context for a call at `now` on `state` under `rules`, with a store
    /// that is not durable.
    pub fn new(state: &'a TodoState, now: Timestamp, rules: &'a ListRules) -> Self {
        Self {
            state,
            now,
            rules,
            durable: false,
            shared: None,
        }
    }

    /// A context whose state is `shared`, for a caller that binds the list
    /// each call commits to its result's details
    /// ([`crate::Details::bind_after`]), as the service does.
    pub(crate) fn shared(state: &'a Arc<TodoState>, now: Timestamp, rules: &'a ListRules) -> Self {
        Self {
            shared: Some(state),
            ..Self::new(state, now, rules)
        }
    }

    /// The details `write` gives from the list before the call and `after`,
    /// the list it leaves: written when first read if the caller binds the
    /// committed list to the result (the service does), else written now.
    pub(crate) fn details(
        &self,
        after: &TodoState,
        write: impl FnOnce(&TodoState, &TodoState) -> Details + Send + 'static,
    ) -> Details {
        match self.shared {
            Some(before) => Details::deferred(Arc::clone(before), write),
            None => write(self.state, after),
        }
    }

    /// Says whether the store keeps what is committed.
    pub fn durable(mut self, durable: bool) -> Self {
        self.durable = durable;
        self
    }
}

/// A tool as the catalog and the service see it. Implement [`TypedTool`]
/// instead; this trait follows from it.
pub trait Tool: Send + Sync {
    /// The name the model calls it by.
    fn name(&self) -> &'static str;
    /// The description the model reads.
    fn description(&self) -> &'static str;
    /// Host-facing facts.
    fn metadata(&self) -> ToolMetadata;
    /// The canonical JSON Schema of its input; see [`crate::schema`] for the
    /// views each provider expects.
    fn input_schema(&self) -> Value;
    /// Runs one call on already-parsed arguments.
    fn call(&self, args: &Value, ctx: &CallContext<'_>) -> Outcome;
    /// The argument text decoded straight into the tool's input when it is
    /// well formed for `schema` (the tool's own, compiled); `None` when the
    /// text needs the repairing path ([`crate::decode_well_formed`]).
    fn decode_well_formed(&self, text: &str, schema: &CompiledSchema) -> Option<DecodedInput>;
    /// Runs one call on an input [`Tool::decode_well_formed`] of this tool
    /// gave. Whatever it gives, it gives exactly what [`Tool::call`] gives
    /// for the same arguments repaired and checked.
    fn call_decoded(&self, input: DecodedInput, ctx: &CallContext<'_>) -> Outcome;
}

/// A tool's input, decoded from well-formed text by
/// [`Tool::decode_well_formed`] and not yet run.
pub struct DecodedInput(Box<dyn std::any::Any + Send>);

impl std::fmt::Debug for DecodedInput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("DecodedInput(..)")
    }
}

/// A tool with a typed input: decoding, schema generation and the error
/// result come with it.
pub trait TypedTool: Send + Sync + 'static {
    /// The decoded arguments.
    type Input: DeserializeOwned + JsonSchema + Send + 'static;
    /// The name the model calls it by.
    const NAME: &'static str;
    /// The description the model reads (a markdown file, loaded at compile
    /// time).
    const DESCRIPTION: &'static str;
    /// Host-facing facts.
    const METADATA: ToolMetadata;

    /// Runs one call. An error means nothing is stored.
    fn run(&self, input: Self::Input, ctx: &CallContext<'_>) -> Result<Outcome, ToolError>;
}

impl<T: TypedTool> Tool for T {
    fn name(&self) -> &'static str {
        T::NAME
    }

    fn description(&self) -> &'static str {
        T::DESCRIPTION
    }

    fn metadata(&self) -> ToolMetadata {
        T::METADATA
    }

    fn input_schema(&self) -> Value {
        schema::canonical::<T::Input>()
    }

    fn call(&self, args: &Value, ctx: &CallContext<'_>) -> Outcome {
        let run = decode::<T::Input>(args)
            .map_err(ToolError::from)
            .and_then(|input| self.run(input, ctx));
        match run {
            Ok(outcome) => outcome,
            Err(error) => Outcome::read(error.into_result(T::NAME)),
        }
    }

    fn decode_well_formed(&self, text: &str, schema: &CompiledSchema) -> Option<DecodedInput> {
        let input: T::Input = decode_well_formed(text, schema)?;
        Some(DecodedInput(Box::new(input)))
    }

    fn call_decoded(&self, input: DecodedInput, ctx: &CallContext<'_>) -> Outcome {
        match input.0.downcast::<T::Input>() {
            Ok(input) => match self.run(*input, ctx) {
                Ok(outcome) => outcome,
                Err(error) => Outcome::read(error.into_result(T::NAME)),
            },
            // Only a host mixing up two tools' inputs gets here.
            Err(_) => Outcome::read(
                ToolError::from(ArgumentError::Field {
                    field: crate::ROOT_FIELD.to_owned(),
                    message: format!("the input given was decoded for another tool than {}", T::NAME),
                })
                .into_result(T::NAME),
            ),
        }
    }
}
