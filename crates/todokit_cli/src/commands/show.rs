//! `todokit show`: the current list in one of several formats.

use crate::exit::ExitCode;

use anyhow::Result;
use clap::ValueEnum;
use todokit::app::MarkdownCodec;
use todokit::infra::PiMarkdown;
use todokit::{Format, render};

use super::Context;
use super::output::{print_line, warn_if_unknown};

/// How `show` prints the list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ShowFormat {
    /// The markdown `export` writes and `import` reads back (notes included)
    Markdown,
    /// The read-only checklist the forge profile shows the model (`- [~] **task**`)
    Checklist,
    /// Plain text with ASCII status markers
    Text,
    /// Glyphs for a terminal, coloured per --color
    Ansi,
    /// The stored state as JSON
    Json,
}

/// Prints the list of the options' conversation in `format`.
pub async fn run(ctx: &Context<'_>, format: ShowFormat) -> Result<ExitCode> {
    let service = ctx.service().await?;
    let conversation = ctx.conversation();
    warn_if_unknown(&service, &conversation).await;
    // `json` is the stored state as it is; the other formats show the list
    // as the user should see it now.
    let state = match format {
        ShowFormat::Json => service.state(&conversation).await?,
        _ => service.view(&conversation).await?,
    };
    let text = match format {
        ShowFormat::Json => serde_json::to_string_pretty(&state)?,
        // One dialect: what `show` prints, `import` reads back.
        ShowFormat::Markdown => PiMarkdown.export(&state).trim_end().to_owned(),
        ShowFormat::Checklist => render(&state, Format::Markdown),
        ShowFormat::Text => render(&state, Format::Text),
        ShowFormat::Ansi => render(&state, ctx.terminal),
    };
    print_line(&text)?;
    Ok(ExitCode::SUCCESS)
}
