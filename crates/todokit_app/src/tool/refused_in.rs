//! [`RefusedIn`]: a tool whose original refuses every call in some host
//! mode, with the words it answers there.

use serde::Serialize;
use serde_json::Value;

use super::context::{CallContext, Outcome};
use super::error::ToolError;
use super::metadata::ToolMetadata;
use super::mode::HostMode;
use super::result::ToolResult;
use super::typed::{DecodedInput, Tool};
use crate::arguments::{ArgumentError, CompiledSchema};
use crate::details::Details;

/// `tool`, refused in `mode` with `refusal` as the whole answer (an error
/// the model reads as the original sends it), before its arguments are
/// looked at, as Codex refuses `update_plan` in Plan mode. Its metadata
/// names the mode ([`ToolMetadata::refused_in`]); in any other mode it is
/// `tool` unchanged.
#[derive(Debug, Clone, Copy)]
pub struct RefusedIn<T> {
    tool: T,
    mode: HostMode,
    refusal: &'static str,
}

impl<T: Tool> RefusedIn<T> {
    /// `tool`, refused in `mode` with the words `refusal`.
    pub fn new(tool: T, mode: HostMode, refusal: &'static str) -> Self {
        Self { tool, mode, refusal }
    }
}

/// The answer to a call refused in `mode`: `refusal` as it is, as an error.
pub(crate) fn mode_refusal_result(tool: &str, mode: HostMode, refusal: &str) -> ToolResult {
    #[derive(Serialize)]
    struct Refusal<'a> {
        error: Body<'a>,
    }
    #[derive(Serialize)]
    struct Body<'a> {
        kind: &'static str,
        tool: &'a str,
        mode: HostMode,
    }
    ToolResult {
        is_error: true,
        content: refusal.to_owned(),
        details: Details::of(&Refusal {
            error: Body {
                kind: "refused_in_mode",
                tool,
                mode,
            },
        }),
    }
}

impl<T: Tool> Tool for RefusedIn<T> {
    fn name(&self) -> &'static str {
        self.tool.name()
    }

    fn description(&self) -> &'static str {
        self.tool.description()
    }

    fn metadata(&self) -> ToolMetadata {
        self.tool.metadata().refused_in(self.mode)
    }

    fn commands(&self) -> Vec<(&'static str, ToolMetadata)> {
        let mode = self.mode;
        let commands = self.tool.commands();
        commands
            .into_iter()
            .map(|(word, facts)| (word, facts.refused_in(mode)))
            .collect()
    }

    fn mode_refusal(&self, mode: HostMode) -> Option<&'static str> {
        (mode == self.mode).then_some(self.refusal)
    }

    fn input_schema(&self) -> Value {
        self.tool.input_schema()
    }

    fn call(&self, args: &Value, ctx: &CallContext<'_>) -> Outcome {
        match self.mode_refusal(ctx.mode) {
            Some(refusal) => Outcome::read(mode_refusal_result(self.name(), ctx.mode, refusal)),
            None => self.tool.call(args, ctx),
        }
    }

    fn decode_well_formed(&self, text: &str, schema: &CompiledSchema) -> Option<DecodedInput> {
        self.tool.decode_well_formed(text, schema)
    }

    fn call_decoded(&self, input: DecodedInput, ctx: &CallContext<'_>) -> Outcome {
        match self.mode_refusal(ctx.mode) {
            Some(refusal) => Outcome::read(mode_refusal_result(self.name(), ctx.mode, refusal)),
            None => self.tool.call_decoded(input, ctx),
        }
    }

    fn refusal(&self, args: &Value, problems: Vec<ArgumentError>) -> ToolError {
        self.tool.refusal(args, problems)
    }

    fn complete(&self, args: &mut Value) {
        self.tool.complete(args);
    }
}
