//! `todokit check`: the end-of-turn gate.

use crate::exit::ExitCode;

use anyhow::Result;
use todokit::end_of_turn_reminder;

use super::Context;
use super::output::{print_inert_line, print_line, warn_if_unknown};

/// Exit code of `check` while something is open.
pub const EXIT_OPEN: u8 = 3;

/// Exit 0 when nothing is open; [`EXIT_OPEN`] with the reminder on
/// standard output when something is.
pub async fn run(ctx: &Context<'_>) -> Result<ExitCode> {
    let service = ctx.service().await?;
    warn_if_unknown(&service, &ctx.conversation()).await;
    let state = service.view(&ctx.conversation()).await?;
    match end_of_turn_reminder(&state) {
        Some(reminder) => {
            // The reminder quotes the model's task texts.
            print_inert_line(&reminder)?;
            Ok(ExitCode::from(EXIT_OPEN))
        }
        None => {
            print_line("No open todos.")?;
            Ok(ExitCode::SUCCESS)
        }
    }
}
