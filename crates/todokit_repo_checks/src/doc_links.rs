//! The README sends a reader to the other documents by links that work:
//! every mention of a file under `docs/` outside code blocks is a markdown
//! link, and every link to a file of the repository names one that exists.

use std::path::Path;

/// What is wrong with the document `text` (its lines outside fenced code
/// blocks), in words naming the line; `root` is the folder relative links
/// start from. Empty when every reference is a working link.
pub fn problems(text: &str, root: &Path) -> Vec<String> {
    let mut found = Vec::new();
    let mut fenced = false;
    for (index, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        let number = index + 1;
        for span in line.split('`').skip(1).step_by(2) {
            if span.starts_with("docs/") && span.ends_with(".md") {
                found.push(format!("line {number}: `{span}` is a code span, not a link"));
            }
        }
        for target in link_targets(line) {
            let path = target.split('#').next().unwrap_or_default();
            let local = !path.is_empty() && !path.contains("://") && !path.starts_with("mailto:");
            if local && !root.join(path).exists() {
                found.push(format!("line {number}: the link to {path} names no file"));
            }
        }
    }
    found
}

/// The targets of the `[text](target)` links in `line`.
fn link_targets(line: &str) -> Vec<&str> {
    line.match_indices("](")
        .filter_map(|(at, _)| {
            let rest = &line[at + 2..];
            rest.find(')').map(|end| &rest[..end])
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use pretty_assertions::assert_eq;

    use super::*;

    #[test]
    fn code_spans_and_broken_links_are_named_and_code_blocks_are_not_read() {
        let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
        let fixture = "See `docs/a.md` and [Cargo](Cargo.toml), [gone](nope.md#x), [web](https://x.org/a.md).\n\
                       ```sh\ncat `docs/b.md`\n```\n";
        let actual = problems(fixture, &root);
        let expected = vec![
            "line 1: `docs/a.md` is a code span, not a link".to_owned(),
            "line 1: the link to nope.md names no file".to_owned(),
        ];
        assert_eq!(actual, expected);
    }
}
