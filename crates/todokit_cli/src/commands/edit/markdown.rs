//! The user's side of the list: export and import as markdown, edit in
//! `$VISUAL`/`$EDITOR`, and the single-task edits (append, start, done,
//! drop, rm). Each change is recorded as a reminder for the model.

use crate::exit::ExitCode;
use std::io::Read;
use std::path::Path;

use anyhow::{Context, Result, bail};
use todokit::app::{MarkdownCodec, UserAction, UserEdit, UserEditError};
use todokit::infra::PiMarkdown;
use todokit::infra::render::sanitize;
use todokit::{Format, TodoWriteService, render};

use crate::commands::EXIT_USAGE;
use crate::commands::output::{eprint_inert, print_line};

/// The largest markdown file `import` (and `edit`, reading back what the
/// editor saved) reads: far more than any list, and read no further, so a
/// huge file or `/dev/zero` is refused at this size.
pub const MAX_IMPORT_BYTES: u64 = 16 * 1024 * 1024;

/// Prints the outcome of a user edit, or the reason it was refused.
async fn apply(
    service: &TodoWriteService,
    conversation: &str,
    action: UserAction,
    terminal: Format,
) -> Result<ExitCode> {
    print_edit(
        service.user_edit(conversation, action, &PiMarkdown).await,
        terminal,
    )
}

/// Prints what a user edit did, or why it was refused.
fn print_edit(outcome: Result<Option<UserEdit>, UserEditError>, terminal: Format) -> Result<ExitCode> {
    match outcome {
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
            // The words quote what the user typed and the model wrote.
            eprint_inert(&format!("todokit: {e}; nothing changed"));
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
    let text = match read_markdown(file) {
        Ok(text) => text,
        Err(problem) => {
            eprint_inert(&format!("todokit: {problem}; nothing changed"));
            return Ok(ExitCode::from(EXIT_USAGE));
        }
    };
    let now = service.clock().now();
    match PiMarkdown.import(&text, now) {
        Ok(state) => apply(service, conversation, UserAction::Replace(state), terminal).await,
        Err(e) => {
            eprint_inert(&format!("todokit: {}: {e}; nothing changed", file.display()));
            Ok(ExitCode::from(EXIT_USAGE))
        }
    }
}

/// The text of the markdown file at `path`, reading at most
/// [`MAX_IMPORT_BYTES`] of it; why not, in words, when it cannot be read,
/// is larger, or is not UTF-8.
fn read_markdown(path: &Path) -> Result<String, String> {
    let cannot = |e: std::io::Error| format!("cannot read {}: {e}", path.display());
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|file| file.take(MAX_IMPORT_BYTES + 1).read_to_end(&mut bytes))
        .map_err(cannot)?;
    if bytes.len() as u64 > MAX_IMPORT_BYTES {
        return Err(format!(
            "{} is larger than {} MiB, the most `import` reads; a list's markdown is far smaller",
            path.display(),
            MAX_IMPORT_BYTES >> 20
        ));
    }
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "{} is not UTF-8 text: the byte at offset {} does not start a valid character",
            path.display(),
            e.utf8_error().valid_up_to()
        )
    })
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
    let before = service.state(conversation).await?;
    let original = PiMarkdown.export(&service.view(conversation).await?);
    // A fresh name, created only if nothing is there (a planted link is
    // never followed), readable by the user alone.
    let file = tempfile::Builder::new()
        .prefix("todokit-edit-")
        .suffix(".md")
        .tempfile()
        .context("cannot create a temporary file for the editor")?;
    std::fs::write(file.path(), &original)
        .with_context(|| format!("cannot write {}", file.path().display()))?;
    // Kept on every path but success, so no typing is lost.
    let path = file
        .into_temp_path()
        .keep()
        .context("cannot keep the temporary file")?;
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
    let text = read_markdown(&path).map_err(anyhow::Error::msg)?;
    if text == original {
        let _ = std::fs::remove_file(&path);
        print_line("No change.")?;
        return Ok(ExitCode::SUCCESS);
    }
    let state = match PiMarkdown.import(&text, service.clock().now()) {
        Ok(state) => state,
        Err(e) => {
            eprint_inert(&format!(
                "todokit: {e}; nothing changed. Your text is in {}; fix it and run `todokit import` on it.",
                path.display()
            ));
            return Ok(ExitCode::from(EXIT_USAGE));
        }
    };
    // Checked in the same step that writes: a model's commit made while the
    // editor was open is never overwritten.
    let action = UserAction::Replace(state);
    match service
        .user_edit_on(conversation, before.version, action, &PiMarkdown)
        .await
    {
        Err(UserEditError::Changed { .. }) => {
            eprintln!(
                "todokit: the list changed while you were editing; nothing changed. Your text is in {}; \
                 run `todokit import` on it to apply it anyway.",
                path.display()
            );
            Ok(ExitCode::from(EXIT_USAGE))
        }
        outcome => {
            let refused = outcome.is_err();
            let code = print_edit(outcome, terminal)?;
            match refused {
                true => eprintln!("todokit: your text is in {}", path.display()),
                false => {
                    let _ = std::fs::remove_file(&path);
                }
            }
            Ok(code)
        }
    }
}
