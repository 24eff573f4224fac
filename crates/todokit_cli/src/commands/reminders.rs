//! `todokit reminders`: the notices waiting for the model, printed and
//! cleared.

use crate::exit::ExitCode;

use anyhow::Result;

use super::Context;
use super::output::print_inert_line;

/// Prints, then clears, the reminders waiting for the model.
pub async fn run(ctx: &Context<'_>) -> Result<ExitCode> {
    let notices = ctx.service().await?.take_notices(&ctx.conversation()).await?;
    let texts: Vec<String> = notices.into_iter().map(|n| n.text).collect();
    if !texts.is_empty() {
        // The reminders quote the model's and the user's texts.
        print_inert_line(&texts.join("\n\n"))?;
    }
    Ok(ExitCode::SUCCESS)
}
