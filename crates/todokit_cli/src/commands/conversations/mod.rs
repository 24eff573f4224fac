//! `todokit conversations`: every conversation in the store.

use crate::exit::ExitCode;

use anyhow::Result;
use clap::ValueEnum;

pub mod lifecycle;
pub mod listing;

use super::Context;
use super::output::{print_json, print_line};

/// How `conversations` prints the list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ListFormat {
    /// Aligned columns for people
    Text,
    /// An array of objects, each with an `id`
    Json,
}

/// Prints every conversation, most recently changed first.
pub async fn run(ctx: &Context<'_>, format: ListFormat) -> Result<ExitCode> {
    let summaries = ctx.service().await?.conversations().await?;
    match format {
        ListFormat::Text => print_line(&listing::text(&summaries))?,
        ListFormat::Json => print_json(&serde_json::to_value(&summaries)?)?,
    }
    Ok(ExitCode::SUCCESS)
}
