//! Running a profile's tool on the arguments a model sent: straight from
//! well-formed text, or parsed, repaired and checked first.

use serde_json::Value;

use super::definition::Profile;
use crate::arguments::{parse_arguments, refused_text, refused_value, repair_then_check};
use crate::tool::{CallContext, DecodedInput, Outcome, ToolError, mode_refusal_result};

impl Profile {
    /// Runs tool `name` on the arguments as the model sent them (a tool
    /// the original refuses in the context's mode answers its refusal
    /// first, whatever the arguments): repairs
    /// the slips this profile accepts, checks them against the tool's
    /// schema (reporting every problem), then calls the tool. `None` when
    /// the profile has no such tool.
    pub fn run(&self, name: &str, args: &Value, ctx: &CallContext<'_>) -> Option<Outcome> {
        let tool = self.find(name)?;
        if let Some(refusal) = tool.mode_refusal(ctx.mode) {
            return Some(Outcome::read(mode_refusal_result(tool.name(), ctx.mode, refusal)));
        }
        if let Some(refused) = self.gate_value(name, args) {
            return Some(Outcome::read(refused.into_result(tool.name())));
        }
        Some(match self.repair_and_check_args(name, args.clone()) {
            Ok(prepared) => tool.call(&prepared, ctx),
            Err(error) => Outcome::read(error.into_result(tool.name())),
        })
    }

    /// Runs tool `name` on the argument text as the model sent it: straight
    /// from the text when it is well formed, else parsed, repaired and
    /// checked as [`Profile::run`] does. `None` when the profile has no such
    /// tool.
    pub fn run_text(&self, name: &str, text: &str, ctx: &CallContext<'_>) -> Option<Outcome> {
        let tool = self.find(name)?;
        if let Some(refusal) = tool.mode_refusal(ctx.mode) {
            return Some(Outcome::read(mode_refusal_result(tool.name(), ctx.mode, refusal)));
        }
        if let Some(refused) = self.gate_text(name, text) {
            return Some(Outcome::read(refused.into_result(tool.name())));
        }
        if let Some(input) = self.decode_well_formed(name, text) {
            return Some(tool.call_decoded(input, ctx));
        }
        Some(match parse_arguments(text) {
            Ok(args) => match self.repair_and_check_args(name, args) {
                Ok(prepared) => tool.call(&prepared, ctx),
                Err(error) => Outcome::read(error.into_result(tool.name())),
            },
            Err(error) => Outcome::read(ToolError::from(error).into_result(tool.name())),
        })
    }

    /// The argument text for tool `name` decoded straight into its input,
    /// when it is well formed; `None` when it needs repairing or checking
    /// (or the profile has no such tool).
    pub fn decode_well_formed(&self, name: &str, text: &str) -> Option<DecodedInput> {
        let registered = self.registered(name)?;
        registered.tool.decode_well_formed(text, registered.schema())
    }

    /// The arguments for tool `name` with the accepted slips repaired and
    /// what the tool infers from their shape filled in ([`crate::tool::Tool::complete`]), or
    /// every problem in them. Arguments for a tool the profile does not
    /// have are passed through as they are.
    pub fn repair_and_check_args(&self, name: &str, args: Value) -> Result<Value, ToolError> {
        match self.registered(name) {
            Some(registered) => repair_then_check(args, registered.schema(), self.leniency(), |args| {
                registered.tool.complete(args)
            })
            .map_err(|(args, problems)| registered.tool.refusal(&args, problems)),
            None => Ok(args),
        }
    }

    /// The refusal for argument text no tool of this profile takes whatever
    /// it is: text holding the NUL character, or past a cap of
    /// [`Profile::size_limits`]. Checked before any tool work.
    pub fn gate_text(&self, name: &str, text: &str) -> Option<ToolError> {
        let registered = self.registered(name)?;
        refused_text(text, registered.schema(), &self.size_limits()).map(ToolError::from)
    }

    /// [`Profile::gate_text`] for arguments already parsed.
    pub fn gate_value(&self, name: &str, args: &Value) -> Option<ToolError> {
        let registered = self.registered(name)?;
        refused_value(args, registered.schema(), &self.size_limits()).map(ToolError::from)
    }
}
