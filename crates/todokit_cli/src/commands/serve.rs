//! `todokit serve`: the live web board.

use std::process::ExitCode;

use anyhow::Result;

use super::Context;
use super::EXIT_USAGE;
use crate::serve;

/// Serves the board and the MCP endpoint as `options` say.
pub async fn run(ctx: &Context<'_>, options: serve::Options) -> Result<ExitCode> {
    let service = ctx.service().await?;
    if let Err(error) = serve::run(service, options).await {
        if error.downcast_ref::<serve::Refused>().is_some() {
            eprintln!("todokit serve: {error}");
            return Ok(ExitCode::from(EXIT_USAGE));
        }
        return Err(error);
    }
    Ok(ExitCode::SUCCESS)
}
