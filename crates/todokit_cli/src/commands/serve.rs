//! `todokit serve`: the live web board.

use crate::exit::ExitCode;

use anyhow::Result;

use super::Context;
use super::EXIT_USAGE;
use todokit_mcp::http as serve;

/// Serves the board and the MCP endpoint as `options` say.
#[cfg_attr(not(feature = "postgres"), allow(unused_mut))]
pub async fn run(ctx: &Context<'_>, mut options: serve::Options) -> Result<ExitCode> {
    let service = ctx.service().await?;
    // On a database, the MCP sessions are kept there too, so that every
    // `serve` process on it can answer each session (a small pool of its
    // own: sessions are read once per process and session).
    #[cfg(feature = "postgres")]
    if let Some(url) = ctx.store.filter(|store| crate::store::is_database_url(store)) {
        let url = url.to_str().unwrap_or_default();
        options.shared = Some(serve::SharedSessions::new(
            todokit::infra::store::PostgresStore::lazy(url, 4)?,
        ));
    }
    match serve::run(service, options).await {
        Err(serve::ServeError::Refused(why)) => {
            eprintln!("todokit serve: {why}");
            return Ok(ExitCode::from(EXIT_USAGE));
        }
        Err(error) => return Err(error.into()),
        Ok(()) => {}
    }
    Ok(ExitCode::SUCCESS)
}
