//! `todokit mcp`: the profile's tools over MCP on stdio.

use crate::exit::ExitCode;

use anyhow::{Context as _, Result};

use super::Context;

/// Serves one MCP client on standard input and output until it leaves;
/// tool results carry `structuredContent` only when `structured_content`.
pub async fn run(ctx: &Context<'_>, structured_content: bool) -> Result<ExitCode> {
    let service = ctx.service().await?;
    // Logs go to stderr: stdout carries the protocol only.
    eprintln!(
        "todokit mcp: serving {} ({}) for conversation {:?} on stdio",
        service.profile().name(),
        service.profile().tool_names().join(", "),
        ctx.conversation()
    );
    // rmcp reports what it drops through `tracing`; without a subscriber
    // those reports would vanish.
    let _ = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_max_level(tracing_subscriber::filter::LevelFilter::WARN)
        .try_init();
    let server = todokit_mcp::TodoMcpServer::new(service, ctx.conversation())
        .with_structured_content(structured_content);
    todokit_mcp::serve_stdio(server)
        .await
        .context("the MCP client did not complete the handshake")?;
    Ok(ExitCode::SUCCESS)
}
