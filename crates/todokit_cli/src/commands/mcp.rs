//! `todokit mcp`: the profile's tools over MCP on stdio.

use crate::exit::ExitCode;

use anyhow::{Context as _, Result};

use super::{Context, UsageError, client_conversation};

/// Serves one MCP client on standard input and output until it leaves;
/// tool results carry `structuredContent` only when `structured_content`.
/// With `from_folder` and no `--conversation`, the conversation is named
/// after the current folder (an agent starts its servers in its project).
pub async fn run(ctx: &Context<'_>, structured_content: bool, from_folder: bool) -> Result<ExitCode> {
    let conversation = match (&ctx.conversation, from_folder) {
        (None, true) => folder_conversation()?,
        _ => ctx.conversation(),
    };
    let service = ctx.service().await?;
    // Logs go to stderr: stdout carries the protocol only.
    eprintln!(
        "todokit mcp: serving {} ({}) for conversation {:?} on stdio",
        service.profile().name(),
        service.profile().tool_names().join(", "),
        conversation
    );
    // rmcp reports what it drops through `tracing`; without a subscriber
    // those reports would vanish.
    let _ = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_max_level(tracing_subscriber::filter::LevelFilter::WARN)
        .try_init();
    let server =
        todokit_mcp::TodoMcpServer::new(service, conversation).with_structured_content(structured_content);
    todokit_mcp::serve_stdio(server)
        .await
        .context("the MCP client did not complete the handshake")?;
    Ok(ExitCode::SUCCESS)
}

/// The current folder's name as a conversation id.
fn folder_conversation() -> Result<String> {
    let folder = std::env::current_dir().context("cannot tell the current folder")?;
    let name = folder.file_name().and_then(|name| name.to_str()).ok_or_else(|| {
        UsageError(format!(
            "{} has no name to call the conversation by; name it with --conversation",
            folder.display()
        ))
    })?;
    client_conversation("the folder's name", name)?;
    Ok(name.to_owned())
}
