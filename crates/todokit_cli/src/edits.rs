//! The user's side of the list: export and import as markdown, edit in
//! `$VISUAL`/`$EDITOR`, and the single-task edits (append, start, done,
//! drop, rm). Each change is recorded as a reminder for the model.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use todokit::app::{MarkdownCodec, UserAction, UserEditError};
use todokit::infra::PiMarkdown;
use todokit::infra::render::sanitize;
use todokit::{Format, TodoWriteService, render};

use crate::commands::EXIT_USAGE;
use crate::commands::output::print_line;

/// Prints the outcome of a user edit, or the reason it was refused.
async fn apply(
    service: &TodoWriteService,
    conversation: &str,
    action: UserAction,
    terminal: Format,
) -> Result<ExitCode> {
    match service.user_edit(conversation, action, &PiMarkdown).await {
        Ok(Some(edit)) => {
            // The words quote task names the model wrote: made inert first.
            print_line(&format!("You {}.", sanitize(&edit.action)))?;
            print_line(&render(&edit.state, terminal))?;
            Ok(ExitCode::SUCCESS)
        }
        Ok(None) => {
            print_line("No change: the list was already like that.")?;
            Ok(ExitCode::SUCCESS)
        }
        Err(UserEditError::Service(e)) => Err(e.into()),
        Err(e) => {
            eprintln!("todokit: {e}; nothing changed");
            Ok(ExitCode::from(EXIT_USAGE))
        }
    }
}

/// `append`, `start`, `done`, `drop`, `rm`.
pub async fn single(
    service: &TodoWriteService,
    conversation: &str,
    action: UserAction,
    terminal: Format,
) -> Result<ExitCode> {
    apply(service, conversation, action, terminal).await
}

/// `export [FILE]`.
pub async fn export(service: &TodoWriteService, conversation: &str, file: Option<&Path>) -> Result<ExitCode> {
    let text = PiMarkdown.export(&service.view(conversation).await?);
    match file {
        Some(path) => {
            std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))?
        }
        None => print_line(text.trim_end())?,
    }
    Ok(ExitCode::SUCCESS)
}

/// `import FILE`.
pub async fn import(
    service: &TodoWriteService,
    conversation: &str,
    file: &Path,
    terminal: Format,
) -> Result<ExitCode> {
    // A file that is not there (or not text) is the user's slip, not the
    // store's failure: a usage error, exit 2.
    let text = match std::fs::read_to_string(file) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("todokit: cannot read {}: {e}; nothing changed", file.display());
            return Ok(ExitCode::from(EXIT_USAGE));
        }
    };
    let now = service.clock().now();
    match PiMarkdown.import(&text, now) {
        Ok(state) => apply(service, conversation, UserAction::Replace(state), terminal).await,
        Err(e) => {
            eprintln!("todokit: {}: {e}; nothing changed", file.display());
            Ok(ExitCode::from(EXIT_USAGE))
        }
    }
}

/// `edit`: the list as markdown in the user's editor, then imported. The
/// file is kept (and its path printed) whenever the edit cannot be applied,
/// so no typing is lost.
pub async fn edit(service: &TodoWriteService, conversation: &str, terminal: Format) -> Result<ExitCode> {
    let Some(editor) = ["VISUAL", "EDITOR"]
        .iter()
        .find_map(|v| std::env::var(v).ok().filter(|e| !e.trim().is_empty()))
    else {
        eprintln!(
            "todokit: set $VISUAL or $EDITOR to the editor to use (for example `nano` or `code --wait`)"
        );
        return Ok(ExitCode::from(EXIT_USAGE));
    };
    let before = service.view(conversation).await?;
    let original = PiMarkdown.export(&before);
    let path = temp_path();
    std::fs::write(&path, &original).with_context(|| format!("cannot write {}", path.display()))?;
    let mut words = editor.split_whitespace();
    let program = words.next().context("$VISUAL or $EDITOR is empty")?;
    let status = std::process::Command::new(program)
        .args(words)
        .arg(&path)
        .status()
        .with_context(|| format!("cannot start the editor `{editor}`"))?;
    if !status.success() {
        bail!(
            "the editor exited with {status}; nothing changed (your text is in {})",
            path.display()
        );
    }
    let text = std::fs::read_to_string(&path).with_context(|| format!("cannot read {}", path.display()))?;
    if text == original {
        let _ = std::fs::remove_file(&path);
        print_line("No change.")?;
        return Ok(ExitCode::SUCCESS);
    }
    let state = match PiMarkdown.import(&text, service.clock().now()) {
        Ok(state) => state,
        Err(e) => {
            eprintln!(
                "todokit: {e}; nothing changed. Your text is in {}; fix it and run `todokit import` on it.",
                path.display()
            );
            return Ok(ExitCode::from(EXIT_USAGE));
        }
    };
    let current = service.state(conversation).await?;
    if current.version != before.version {
        eprintln!(
            "todokit: the list changed while you were editing; nothing changed. Your text is in {}; \
             run `todokit import` on it to apply it anyway.",
            path.display()
        );
        return Ok(ExitCode::from(EXIT_USAGE));
    }
    let code = apply(service, conversation, UserAction::Replace(state), terminal).await?;
    let _ = std::fs::remove_file(&path);
    Ok(code)
}

fn temp_path() -> PathBuf {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or_default();
    std::env::temp_dir().join(format!("todokit-edit-{}-{nanos}.md", std::process::id()))
}
