//! `todokit serve`: the live web board.

use crate::exit::ExitCode;

use anyhow::Result;

use super::Context;
use super::EXIT_USAGE;
use crate::store::location;
use clap::ValueEnum;
use todokit::StoreLocation;
use todokit_mcp::http as serve;
use tracing_subscriber::filter::{LevelFilter, Targets};
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;

/// How `serve` writes its log on standard error.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LogFormat {
    /// One line per event for people: time, level, what, and its fields
    Text,
    /// One JSON object per line, fields at the top level, for a log pipeline
    Json,
}

/// How much `serve` logs of its own (other crates' warnings and errors are
/// logged whatever it is).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LogLevel {
    /// Failures only
    Error,
    /// Failures and what went wrong but was handled (a sweep that failed, a token file that cannot be read)
    Warn,
    /// Also one line per request, and what the server did on its own (a sweep, a token file read again)
    Info,
    /// Nothing of its own
    Off,
}

impl From<LogLevel> for LevelFilter {
    fn from(level: LogLevel) -> Self {
        match level {
            LogLevel::Error => LevelFilter::ERROR,
            LogLevel::Warn => LevelFilter::WARN,
            LogLevel::Info => LevelFilter::INFO,
            LogLevel::Off => LevelFilter::OFF,
        }
    }
}

/// Sends the server's log (`todokit::*` targets at `level`: at `info` a
/// line per request; store failures with their whole message; other
/// crates' warnings) to standard error in `format`. A subscriber the
/// process set before is kept.
fn start_log(format: LogFormat, level: LogLevel) {
    let targets = Targets::new()
        .with_target("todokit", LevelFilter::from(level))
        // rmcp warns of every error it answers a client with: the client's
        // mistake, not the server's.
        .with_target("rmcp", LevelFilter::ERROR)
        .with_default(LevelFilter::WARN);
    let layer = tracing_subscriber::fmt::layer().with_writer(std::io::stderr);
    let _ = match format {
        LogFormat::Text => tracing_subscriber::registry()
            .with(layer.with_ansi(false))
            .with(targets)
            .try_init(),
        LogFormat::Json => tracing_subscriber::registry()
            .with(layer.json().flatten_event(true).with_current_span(false))
            .with(targets)
            .try_init(),
    };
}

/// Serves the board and the MCP endpoint as `options` say.
pub async fn run(
    ctx: &Context<'_>,
    mut options: serve::Options,
    (format, level): (LogFormat, LogLevel),
) -> Result<ExitCode> {
    start_log(format, level);
    let service = ctx.service().await?;
    // On a store other processes serve too (a database), the MCP sessions
    // are kept there, so that every `serve` process on it can answer each.
    options.shared = serve::SharedSessions::at(&StoreLocation::or_default(location(ctx.store))?)?;
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
