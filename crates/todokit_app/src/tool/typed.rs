//! What a tool is to the catalog and the service ([`Tool`]), and the typed
//! way a profile writes one ([`TypedTool`]): a name, a description, an
//! input schema, metadata, and a pure function from (input, current state)
//! to an outcome.

use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::context::{CallContext, Outcome};
use super::error::ToolError;
use super::metadata::ToolMetadata;
use crate::arguments::{ArgumentError, CompiledSchema, ROOT_FIELD, decode, decode_well_formed};
use crate::schema::canonical;

/// A tool as the catalog and the service see it. Implement [`TypedTool`]
/// instead; this trait follows from it.
pub trait Tool: Send + Sync {
    /// The name the model calls it by.
    fn name(&self) -> &'static str;
    /// The description the model reads.
    fn description(&self) -> &'static str;
    /// Host-facing facts. For a tool with commands, what holds for every
    /// command (a tool with one writing command is a writer).
    fn metadata(&self) -> ToolMetadata;
    /// For a tool whose calls name a command ([`crate::tool::CommandTool`]),
    /// each command's word and facts; empty for any other tool.
    fn commands(&self) -> Vec<(&'static str, ToolMetadata)> {
        Vec::new()
    }
    /// The canonical JSON Schema of its input; see [`crate::schema`] for the
    /// views each provider expects.
    fn input_schema(&self) -> Value;
    /// Runs one call on already-parsed arguments.
    fn call(&self, args: &Value, ctx: &CallContext<'_>) -> Outcome;
    /// The argument text decoded straight into the tool's input when it is
    /// well formed for `schema` (the tool's own, compiled); `None` when the
    /// text needs the repairing path (parsed, repaired and checked).
    fn decode_well_formed(&self, text: &str, schema: &CompiledSchema) -> Option<DecodedInput>;
    /// Runs one call on an input [`Tool::decode_well_formed`] of this tool
    /// gave. Whatever it gives, it gives exactly what [`Tool::call`] gives
    /// for the same arguments repaired and checked.
    fn call_decoded(&self, input: DecodedInput, ctx: &CallContext<'_>) -> Outcome;
    /// The refusal of arguments that failed the schema check, as the
    /// problems found in `args` (repaired as far as the profile allows).
    /// Most tools report them as they are; a dialect whose original words
    /// some of them itself rewords those here.
    fn refusal(&self, args: &Value, problems: Vec<ArgumentError>) -> ToolError {
        let _ = args;
        ToolError::Arguments(problems)
    }
    /// The words the original refuses every call with in host mode `mode`,
    /// before it looks at the arguments; `None` (the default) where it
    /// takes calls. See [`crate::tool::RefusedIn`].
    fn mode_refusal(&self, mode: super::mode::HostMode) -> Option<&'static str> {
        let _ = mode;
        None
    }
    /// Fills in, on repaired arguments and before they are checked, what
    /// the original infers from their shape when the model left it out (a
    /// command word the fields sent imply). Most tools infer nothing.
    fn complete(&self, args: &mut Value) {
        let _ = args;
    }
}

/// A tool's input, decoded from well-formed text by
/// [`Tool::decode_well_formed`] and not yet run.
pub struct DecodedInput(pub(crate) Box<dyn std::any::Any + Send>);

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

    /// See [`Tool::refusal`]: the problems as they are, unless overridden.
    fn refusal(args: &Value, problems: Vec<ArgumentError>) -> ToolError {
        let _ = args;
        ToolError::Arguments(problems)
    }

    /// See [`Tool::complete`]: what the original repairs or infers in the
    /// arguments before it checks them (another name for a field, a field
    /// filled from another); nothing unless overridden.
    fn complete(args: &mut Value) {
        let _ = args;
    }
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

    fn complete(&self, args: &mut Value) {
        T::complete(args);
    }

    fn input_schema(&self) -> Value {
        canonical::<T::Input>()
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

    fn refusal(&self, args: &Value, problems: Vec<ArgumentError>) -> ToolError {
        T::refusal(args, problems)
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
                    field: ROOT_FIELD.to_owned(),
                    message: format!("the input given was decoded for another tool than {}", T::NAME),
                })
                .into_result(T::NAME),
            ),
        }
    }
}
