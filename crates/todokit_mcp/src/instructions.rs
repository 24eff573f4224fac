//! The server's `instructions` at `initialize`: the profile's system
//! prompt with each of its tools named as this server's, and the
//! conversation's list when it already has one.
//!
//! A client shows the model a server's tools under a name of its own
//! (`mcp__todokit__TodoWrite`, `todokit_todowrite`, `mcp_todokit_write_todos`),
//! so a bare `TodoWrite` in the instructions names a tool the model cannot
//! call, or the client's own tool of that name. "This server's `TodoWrite`
//! tool" is the one wording every client's naming leaves true.
//!
//! The list is there because the instructions are what every agent relays
//! to its model before the first request (Claude Code and opencode in the
//! system prompt, Codex as the tools' namespace, Qwen Code and Gemini CLI
//! in a reminder); resources are read only when a model or user asks. An
//! agent started on a conversation another agent began so sees the plan
//! and carries it on.

use todokit::TodoState;

/// What each occurrence of a tool's name becomes: `{article}` is "This"
/// at the start of a sentence, "this" elsewhere.
const THIS_SERVERS: &str = "server's";

/// `prompt` with every backticked name of `tools` written as "this
/// server's `NAME` tool", taking in an article before it ("a", "an",
/// "the") and the word "tool" after it. A name followed by "parameter" or
/// "field" names an argument, not the tool, and is left as it is.
pub fn naming_this_servers_tools(prompt: &str, tools: &[&str]) -> String {
    let mut out = String::with_capacity(prompt.len() + 64);
    let mut rest = prompt;
    while let Some((at, tool)) = next_tool(rest, tools) {
        let quoted_len = tool.len() + 2;
        let after = &rest[at + quoted_len..];
        if [" parameter", " field", " tools"]
            .iter()
            .any(|word| after.starts_with(word))
        {
            out.push_str(&rest[..at + quoted_len]);
            rest = after;
            continue;
        }
        let before = &rest[..at];
        let (kept, article) = strip_article(before);
        out.push_str(kept);
        let sentence_start =
            starts_sentence(&out) || article.is_some_and(|a| a.starts_with(char::is_uppercase));
        let this = if sentence_start { "This" } else { "this" };
        out.push_str(&format!("{this} {THIS_SERVERS} `{tool}` tool"));
        rest = after
            .strip_prefix(" tool")
            .filter(|tail| !tail.starts_with(|c: char| c.is_alphanumeric()))
            .unwrap_or(after);
    }
    out.push_str(rest);
    out
}

/// The first backticked tool name in `text`: its offset and the name.
fn next_tool<'a>(text: &str, tools: &[&'a str]) -> Option<(usize, &'a str)> {
    tools
        .iter()
        .filter_map(|tool| text.find(&format!("`{tool}`")).map(|at| (at, *tool)))
        .min_by_key(|(at, _)| *at)
}

/// `before` without an article that ends it ("use a " → "use "), and the
/// article taken.
fn strip_article(before: &str) -> (&str, Option<&str>) {
    for article in ["a ", "an ", "the ", "A ", "An ", "The "] {
        if let Some(kept) = before.strip_suffix(article)
            && (kept.is_empty() || kept.ends_with(|c: char| c.is_whitespace() || c == '('))
        {
            return (kept, Some(article));
        }
    }
    (before, None)
}

/// Whether text written after `written` begins a sentence.
fn starts_sentence(written: &str) -> bool {
    let trimmed = written.trim_end_matches([' ', '\t']);
    trimmed.is_empty()
        || trimmed.ends_with(['\n', '.', '!', '?', ':'])
        || trimmed.ends_with("- ")
        || trimmed.ends_with('#')
}

/// The instructions for a session: the profile's prompt as [`naming_this_servers_tools`]
/// words it, then the conversation's list when it has open or finished items.
pub fn instructions(prompt: &str, tools: &[&str], conversation: &str, list: Option<&TodoState>) -> String {
    let mut text = naming_this_servers_tools(prompt, tools).trim_end().to_owned();
    if let Some(state) = list.filter(|state| !state.is_empty()) {
        let checklist = todokit::infra::render::render_markdown(state);
        text.push_str(&format!(
            "\n\nThis server already keeps a list for this conversation ({conversation:?}), written in an earlier session (perhaps by another agent). Carry it on rather than starting over: send it back with your changes when you next update it. As it stands (`[x]` done, `[~]` in progress, `[ ]` not started, `[!]` blocked, `[-]` dropped):\n\n{}",
            checklist.trim_end()
        ));
    }
    text
}

#[cfg(test)]
mod tests {
    use pretty_assertions::assert_eq;

    use super::*;

    #[test]
    fn each_tool_is_named_as_this_servers() {
        let cases = [
            (
                "You have a `TodoWrite` tool for planning.",
                "You have this server's `TodoWrite` tool for planning.",
            ),
            (
                "Use `todowrite` to keep a list.",
                "Use this server's `todowrite` tool to keep a list.",
            ),
            (
                "`write_todos` is your planning tool.",
                "This server's `write_todos` tool is your planning tool.",
            ),
            (
                "Track it with `todo`: phases.",
                "Track it with this server's `todo` tool: phases.",
            ),
            (
                "Plan with `todo_write` and check with `todo_read`.",
                "Plan with this server's `todo_write` tool and check with this server's `todo_read` tool.",
            ),
            (
                "Every tool takes an optional `task_progress` parameter.",
                "Every tool takes an optional `task_progress` parameter.",
            ),
            ("The `todo` tools stay.", "The `todo` tools stay."),
        ];
        let tools = [
            "TodoWrite",
            "todowrite",
            "write_todos",
            "todo_write",
            "todo_read",
            "todo",
            "task_progress",
        ];
        let actual: Vec<String> = cases
            .iter()
            .map(|(prompt, _)| naming_this_servers_tools(prompt, &tools))
            .collect();
        let expected: Vec<String> = cases.iter().map(|(_, words)| (*words).to_owned()).collect();
        assert_eq!(actual, expected);
    }

    /// Every profile's instructions, as a client gets them: no tool of the
    /// profile is named bare, and the wording is pinned for review.
    #[test]
    fn no_profile_names_its_tools_bare() {
        let mut all = String::new();
        for profile in todokit::profiles::all() {
            let tools = profile.tool_names();
            let text = naming_this_servers_tools(profile.system_prompt(), &tools);
            for tool in &tools {
                let quoted = format!("`{tool}`");
                for (at, _) in text.match_indices(&quoted) {
                    let before = &text[..at];
                    let after = &text[at + quoted.len()..];
                    let kept = [" parameter", " field", " tools"]
                        .iter()
                        .any(|w| after.starts_with(w));
                    assert!(
                        kept || before.ends_with("server's "),
                        "{}: `{tool}` named bare at {at}: {text}",
                        profile.name()
                    );
                }
            }
            all.push_str(&format!("## {}\n\n{}\n\n", profile.name(), text.trim_end()));
        }
        let mut settings = insta::Settings::clone_current();
        settings.set_snapshot_path(concat!(env!("CARGO_MANIFEST_DIR"), "/../../snapshots"));
        settings.set_prepend_module_to_snapshot(false);
        settings.bind(|| insta::assert_snapshot!("mcp_instructions_of_every_profile", all));
    }

    #[test]
    fn a_conversation_with_a_list_hands_it_on() {
        use todokit::domain::{Status, Todo};
        let state = TodoState::flat(vec![
            Todo::new("Write the parser").status(Status::InProgress),
            Todo::new("Add tests"),
        ]);
        let actual = instructions(
            "Use `update_plan` for plans.",
            &["update_plan"],
            "demo-project",
            Some(&state),
        );
        let mut settings = insta::Settings::clone_current();
        settings.set_snapshot_path(concat!(env!("CARGO_MANIFEST_DIR"), "/../../snapshots"));
        settings.set_prepend_module_to_snapshot(false);
        settings.bind(|| insta::assert_snapshot!("mcp_instructions_with_a_list", actual));
        let empty = instructions(
            "Use `update_plan` for plans.",
            &["update_plan"],
            "demo-project",
            Some(&TodoState::default()),
        );
        assert_eq!(empty, "Use this server's `update_plan` tool for plans.");
    }
}
