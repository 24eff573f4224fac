//! Word wrapping by display width, for the terminal view.
//!
//! Widths are terminal columns (`unicode-width`): a CJK character or an
//! emoji takes two, a combining mark none. Text is broken between words;
//! only a word wider than a whole line is cut, and only then.

use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// The columns `text` takes on a terminal.
pub fn width(text: &str) -> usize {
    UnicodeWidthStr::width(text)
}

/// `text` cut to at most `max` columns, ending in `ellipsis` when cut.
pub fn truncate(text: &str, max: usize, ellipsis: &str) -> String {
    if width(text) <= max {
        return text.to_owned();
    }
    let room = max.saturating_sub(width(ellipsis));
    let mut out = String::new();
    let mut used = 0;
    for c in text.chars() {
        let w = c.width().unwrap_or(0);
        if used + w > room {
            break;
        }
        used += w;
        out.push(c);
    }
    if width(ellipsis) <= max {
        out.push_str(ellipsis);
    }
    out
}

/// `row` (text and this view's own colour sequences) cut to at most `max`
/// visible columns: a row wider than the pane would wrap, and the screen
/// would scroll. Colour sequences take no columns and are kept, so a cut
/// row still ends with its reset. Model text reaches here sanitized, so
/// every escape in `row` is one of the view's.
pub fn clip(row: &str, max: usize) -> String {
    let mut out = String::with_capacity(row.len());
    let mut used = 0;
    let mut full = false;
    let mut chars = row.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            // CSI: ESC [ parameters, ended by a byte in @..~.
            out.push(c);
            if chars.peek() == Some(&'[') {
                for next in chars.by_ref() {
                    out.push(next);
                    if next != '[' && ('@'..='~').contains(&next) {
                        break;
                    }
                }
            }
            continue;
        }
        let w = c.width().unwrap_or(0);
        full = full || used + w > max;
        if !full {
            used += w;
            out.push(c);
        }
    }
    out
}

/// `text` as lines of at most `first` columns for the first line and
/// `rest` for the others (the caller draws the prefix and the hanging
/// indent around them). Runs of white space collapse to one space. Always
/// at least one line, possibly empty.
pub fn wrap(text: &str, first: usize, rest: usize) -> Vec<String> {
    let mut lines = vec![String::new()];
    let mut used = 0;
    for word in text.split_whitespace() {
        let room = |lines: &Vec<String>| if lines.len() == 1 { first } else { rest }.max(1);
        let needed = width(word) + usize::from(used > 0);
        if used > 0 && used + needed > room(&lines) {
            lines.push(String::new());
            used = 0;
        }
        if used > 0 {
            push(&mut lines, " ");
            used += 1;
        }
        // A word wider than a whole line is cut where the line ends; it is
        // the only case a word is split.
        for c in word.chars() {
            let w = c.width().unwrap_or(0);
            if used + w > room(&lines) && used > 0 {
                lines.push(String::new());
                used = 0;
            }
            push(&mut lines, &c.to_string());
            used += w;
        }
    }
    lines
}

fn push(lines: &mut [String], text: &str) {
    if let Some(last) = lines.last_mut() {
        last.push_str(text);
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn clip_keeps_colour_sequences_and_cuts_only_visible_columns() {
        let row = "\u{1b}[1m~\u{1b}[0m \u{1b}[2mWriting the parser\u{1b}[0m";
        let actual = [super::clip(row, 5), super::clip(row, 0), super::clip("ab", 5)];
        let expected = [
            "\u{1b}[1m~\u{1b}[0m \u{1b}[2mWri\u{1b}[0m".to_owned(),
            "\u{1b}[1m\u{1b}[0m\u{1b}[2m\u{1b}[0m".to_owned(),
            "ab".to_owned(),
        ];
        pretty_assertions::assert_eq!(actual, expected);
    }

    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn breaks_between_words_with_room_for_a_prefix_on_the_first_line() {
        let fixture = "Write the explanation of the parser change";
        let actual = wrap(fixture, 12, 16);
        let expected = vec!["Write the", "explanation of", "the parser", "change"];
        assert_eq!(actual, expected);
    }

    #[test]
    fn only_a_word_wider_than_a_line_is_cut_and_wide_characters_count_twice() {
        let fixture = "a supercalifragilistic 日本語テキスト";
        let actual = (wrap(fixture, 8, 8), width("日本語"));
        let expected = (
            ["a", "supercal", "ifragili", "stic", "日本語テ", "キスト"]
                .map(String::from)
                .to_vec(),
            6,
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn truncation_counts_columns_and_marks_the_cut() {
        let actual = (
            truncate("conversation-with-a-long-name", 10, "..."),
            truncate("short", 10, "…"),
            truncate("日本語テキスト", 7, "…"),
        );
        let expected = ("convers...".to_owned(), "short".to_owned(), "日本語…".to_owned());
        assert_eq!(actual, expected);
    }
}
