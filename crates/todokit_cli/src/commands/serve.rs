//! `todokit serve`: the live web board.

use std::process::ExitCode;

use anyhow::Result;

use super::Context;
use super::EXIT_USAGE;
use crate::serve;

/// Serves the board on `bind`, with edits when a `token` is set, also to
/// requests addressed to the `public_hosts` names.
pub async fn run(
    ctx: &Context<'_>,
    bind: String,
    token: Option<String>,
    public_hosts: Vec<String>,
) -> Result<ExitCode> {
    let service = ctx.service().await?;
    if let Err(error) = serve::run(service, &bind, token, &public_hosts).await {
        if error.downcast_ref::<serve::Refused>().is_some() {
            eprintln!("todokit serve: {error}");
            return Ok(ExitCode::from(EXIT_USAGE));
        }
        return Err(error);
    }
    Ok(ExitCode::SUCCESS)
}
