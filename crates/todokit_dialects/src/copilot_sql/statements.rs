//! A query cut into its statements, as the CLI cuts it before running
//! any: at each semicolon outside a string, a quoted name or a comment.
//! Each statement is named by its first keyword (`INSERT`, `WITH`, even a
//! misspelt `SELEC`), which the answers show and which says how its
//! result reads.

/// One statement of a query.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Statement {
    /// Its text, trimmed, without the semicolon.
    pub text: String,
    /// Its first word in capitals, past any comments (`SELECT`).
    pub label: String,
}

/// The statements the CLI refuses to run, for what they could reach
/// beyond the session's own database.
const BLOCKED: [&str; 2] = ["ATTACH", "DETACH"];

/// The statements of `query`: `None` when it is blank (the CLI's "Empty
/// query"), and an empty list when it holds only semicolons.
pub fn split(query: &str) -> Option<Vec<Statement>> {
    if query.trim().is_empty() {
        return None;
    }
    let mut statements = Vec::new();
    let mut start = 0;
    let mut chars = query.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        match c {
            '\'' | '"' | '`' | '[' => {
                let close = if c == '[' { ']' } else { c };
                // A doubled quote inside is the quote itself; reading on
                // past it lands on the same closing quote.
                for (_, next) in chars.by_ref() {
                    if next == close {
                        break;
                    }
                }
            }
            '-' if chars.peek().is_some_and(|(_, n)| *n == '-') => {
                for (_, next) in chars.by_ref() {
                    if next == '\n' {
                        break;
                    }
                }
            }
            '/' if chars.peek().is_some_and(|(_, n)| *n == '*') => {
                chars.next();
                let mut star = false;
                for (_, next) in chars.by_ref() {
                    if star && next == '/' {
                        break;
                    }
                    star = next == '*';
                }
            }
            ';' => {
                push(&mut statements, &query[start..at]);
                start = at + 1;
            }
            _ => {}
        }
    }
    push(&mut statements, &query[start..]);
    Some(statements)
}

fn push(statements: &mut Vec<Statement>, text: &str) {
    let text = text.trim();
    if !text.is_empty() {
        statements.push(Statement {
            text: text.to_owned(),
            label: label(text),
        });
    }
}

/// The first word of `text` past its comments, in capitals.
fn label(mut text: &str) -> String {
    loop {
        text = text.trim_start();
        if let Some(rest) = text.strip_prefix("--") {
            text = rest.split_once('\n').map_or("", |(_, after)| after);
        } else if let Some(rest) = text.strip_prefix("/*") {
            text = rest.split_once("*/").map_or("", |(_, after)| after);
        } else {
            break;
        }
    }
    text.chars()
        .take_while(char::is_ascii_alphabetic)
        .collect::<String>()
        .to_ascii_uppercase()
}

/// The label of `statement` when the CLI refuses to run it, or of a
/// `VACUUM INTO`, which would write a file where the server runs.
pub fn blocked(statement: &Statement) -> Option<String> {
    if BLOCKED.contains(&statement.label.as_str()) {
        return Some(statement.label.clone());
    }
    // `VACUUM INTO file` or `VACUUM schema INTO file`.
    let into = statement.label == "VACUUM"
        && statement
            .text
            .split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
            .filter(|w| !w.is_empty())
            .take(3)
            .any(|w| w.eq_ignore_ascii_case("INTO"));
    into.then(|| "VACUUM INTO".to_owned())
}
