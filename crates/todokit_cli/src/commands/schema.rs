//! `todokit schema`: the profile's tool definitions in a provider's shape.

use crate::exit::ExitCode;

use anyhow::{Context as _, Result};
use todokit::app::schema::definitions;
use todokit::{SchemaTarget, profiles};

use super::Context;
use super::output::print_json;

/// Prints the definitions of the options' profile for `target`.
pub fn run(ctx: &Context<'_>, target: SchemaTarget) -> Result<ExitCode> {
    let profile = profiles::by_name(ctx.profile).context("the profile was checked when parsing")?;
    print_json(&definitions(&profile, target))?;
    Ok(ExitCode::SUCCESS)
}
