//! `todokit demo`: a scripted agent session through the real service.

use crate::exit::ExitCode;
use std::io::IsTerminal;

use anyhow::Result;

use super::Context;
use super::EXIT_USAGE;
mod script;
use crate::store::make_service;

/// Replays the demo session, `delay_ms` between steps (by default 700 ms
/// on a terminal, none otherwise); refuses another profile than the one
/// the script plays.
pub async fn run(ctx: &Context<'_>, delay_ms: Option<u64>) -> Result<ExitCode> {
    if ctx.profile != script::PROFILE {
        eprintln!(
            "todokit: the demo plays {}'s TodoWrite session only, not {}; run it with --profile {} (or \
             without --profile and TODOKIT_PROFILE)",
            script::PROFILE,
            ctx.profile,
            script::PROFILE
        );
        return Ok(ExitCode::from(EXIT_USAGE));
    }
    let service = make_service(ctx.store, script::PROFILE, false).await?;
    let delay = delay_ms.unwrap_or(if std::io::stdout().is_terminal() { 700 } else { 0 });
    let conversation = ctx
        .conversation
        .clone()
        .unwrap_or_else(|| script::CONVERSATION.to_owned());
    script::run(
        &service,
        &conversation,
        ctx.terminal,
        std::time::Duration::from_millis(delay),
    )
    .await?;
    Ok(ExitCode::SUCCESS)
}
