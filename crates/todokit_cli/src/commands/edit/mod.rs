//! The hand edits: `export`, `import`, `edit`, `append`, `start`, `done`,
//! `drop`, `rm`. Each goes through the service's user edit, so the model
//! is told.

use crate::exit::ExitCode;
use std::path::Path;

use anyhow::Result;
use todokit::app::UserAction;

use super::Context;
use super::EXIT_USAGE;
use super::output::warn_if_unknown;
pub mod markdown;

/// `export [FILE]`: the list as markdown.
pub async fn export(ctx: &Context<'_>, file: Option<&Path>) -> Result<ExitCode> {
    let service = ctx.service().await?;
    warn_if_unknown(&service, &ctx.conversation()).await;
    markdown::export(&service, &ctx.conversation(), file).await
}

/// `import FILE`: the list replaced by the markdown in `file`.
pub async fn import(ctx: &Context<'_>, file: &Path) -> Result<ExitCode> {
    markdown::import(&ctx.service().await?, &ctx.conversation(), file, ctx.terminal).await
}

/// `edit`: the list opened in the user's editor.
pub async fn edit(ctx: &Context<'_>) -> Result<ExitCode> {
    markdown::edit(&ctx.service().await?, &ctx.conversation(), ctx.terminal).await
}

/// `append ITEM...` (on a phased profile, `append PHASE ITEM...`).
pub async fn append(ctx: &Context<'_>, words: Vec<String>) -> Result<ExitCode> {
    let service = ctx.service().await?;
    let action = match service.profile().has_phases() {
        true => match words.split_first() {
            Some((phase, items)) if !items.is_empty() => UserAction::Append {
                phase: Some(phase.clone()),
                items: items.to_vec(),
            },
            _ => {
                eprintln!(
                    "todokit: {} groups tasks into phases: append PHASE ITEM...; nothing changed",
                    service.profile().name()
                );
                return Ok(ExitCode::from(EXIT_USAGE));
            }
        },
        false => UserAction::Append {
            phase: None,
            items: words,
        },
    };
    markdown::single(&service, &ctx.conversation(), action, ctx.terminal).await
}

/// `start`, `done`, `drop` or `rm` NAME: one action on one task.
pub async fn single(ctx: &Context<'_>, action: UserAction) -> Result<ExitCode> {
    markdown::single(&ctx.service().await?, &ctx.conversation(), action, ctx.terminal).await
}
