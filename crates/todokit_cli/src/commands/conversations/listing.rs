//! `todokit conversations`: every conversation in the store, most recently
//! changed first, as aligned text for people or JSON for scripts.

use todokit::ConversationSummary;
use todokit::domain::UtcTime;
use todokit::infra::render::sanitize;

/// One line per conversation: its id, open and total counts, when it last
/// changed (UTC) and what is in progress; a list that cannot be read says
/// why. Ids and task texts are model or user text, so they are sanitized.
pub fn text(summaries: &[ConversationSummary]) -> String {
    if summaries.is_empty() {
        return "No conversations.".to_owned();
    }
    let ids: Vec<String> = summaries.iter().map(|s| sanitize(&s.id).into_owned()).collect();
    let width = ids.iter().map(|id| id.chars().count()).max().unwrap_or(0);
    let mut lines = Vec::new();
    for (summary, id) in summaries.iter().zip(&ids) {
        let changed = summary.changed_at.map_or_else(|| "unknown time".to_owned(), utc);
        let line = match &summary.problem {
            Some(problem) => format!("{id:<width$}  cannot be read: {}", sanitize(problem)),
            None => {
                let progress = format!("{}/{} open", summary.counts.open(), summary.counts.total());
                match &summary.in_progress {
                    Some(now) => format!("{id:<width$}  {progress:<12}  {changed}  now: {}", sanitize(now)),
                    None => format!("{id:<width$}  {progress:<12}  {changed}"),
                }
            }
        };
        lines.push(line);
    }
    lines.join("\n")
}

/// Milliseconds since the Unix epoch as `YYYY-MM-DD HH:MM UTC`.
fn utc(millis: u64) -> String {
    let UtcTime {
        year,
        month,
        day,
        hour,
        minute,
        ..
    } = UtcTime::of(millis);
    format!("{year:04}-{month:02}-{day:02} {hour:02}:{minute:02} UTC")
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn the_listing_reads_as_aligned_columns_with_hostile_text_made_inert() {
        let summary = |id: &str, changed_at: Option<u64>| ConversationSummary {
            id: id.to_owned(),
            changed_at,
            version: 3,
            counts: Default::default(),
            in_progress: None,
            profile: None,
            problem: None,
        };
        let mut busy = summary("release\u{1b}[2J", Some(1_795_373_590_292));
        busy.counts.pending = 2;
        busy.counts.in_progress = 1;
        busy.counts.completed = 4;
        busy.in_progress = Some("Tagging the release".to_owned());
        let mut done = summary("default", Some(1_795_370_000_000));
        done.counts.completed = 3;
        let mut broken = summary("c-broken", None);
        broken.problem = Some("the stored list at /s/c-broken.json cannot be read".to_owned());
        let actual = text(&[busy, done, broken]);
        let mut settings = insta::Settings::clone_current();
        settings.set_snapshot_path(concat!(env!("CARGO_MANIFEST_DIR"), "/../../snapshots"));
        settings.set_omit_expression(true);
        settings.bind(|| insta::assert_snapshot!("conversations_text", actual));
    }

    #[test]
    fn dates_are_civil_utc_dates() {
        let actual = [0, 951_782_400_000, 1_795_373_590_292, 4_107_542_400_000].map(utc);
        let expected = [
            "1970-01-01 00:00 UTC",
            "2000-02-29 00:00 UTC",
            "2026-11-22 18:53 UTC",
            "2100-03-01 00:00 UTC",
        ];
        assert_eq!(actual, expected.map(str::to_owned));
    }
}

/// The warning for a command that reads `conversation` when the store has
/// nothing under that id (a mistyped `--conversation` would otherwise show
/// an empty list forever), naming the closest ids the store has; `None`
/// when it exists.
pub fn unknown_conversation_warning(conversation: &str, summaries: &[ConversationSummary]) -> Option<String> {
    if summaries.iter().any(|s| s.id == conversation) {
        return None;
    }
    let asked = sanitize(conversation);
    if summaries.is_empty() {
        return Some(format!(
            "todokit: no conversation \"{asked}\" in this store (it holds none yet)"
        ));
    }
    let mut ranked: Vec<(usize, &str)> = summaries
        .iter()
        .map(|s| {
            (
                edit_distance(&conversation.to_lowercase(), &s.id.to_lowercase()),
                s.id.as_str(),
            )
        })
        .collect();
    ranked.sort();
    let closest: Vec<String> = ranked
        .iter()
        .take(3)
        .map(|(_, id)| format!("\"{}\"", sanitize(id)))
        .collect();
    Some(format!(
        "todokit: no conversation \"{asked}\" in this store; the closest: {} (`todokit conversations` lists them all)",
        closest.join(", ")
    ))
}

/// Levenshtein distance in characters, on two rows.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut current = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let substitute = previous[j] + usize::from(ca != *cb);
            current.push(substitute.min(previous[j + 1] + 1).min(current[j] + 1));
        }
        previous = current;
    }
    previous[b.len()]
}

#[cfg(test)]
mod warning_tests {
    use super::*;
    use pretty_assertions::assert_eq;

    fn summary(id: &str) -> ConversationSummary {
        ConversationSummary {
            id: id.to_owned(),
            changed_at: None,
            version: 1,
            counts: Default::default(),
            in_progress: None,
            profile: None,
            problem: None,
        }
    }

    #[test]
    fn an_unknown_conversation_is_named_with_the_closest_ids_and_a_known_one_is_not() {
        let store = ["default", "demo", "release-notes", "Deploy"].map(summary);
        let actual = [
            unknown_conversation_warning("defualt", &store),
            unknown_conversation_warning("demo", &store),
            unknown_conversation_warning("x", &[]),
        ];
        let expected = [
            Some(
                "todokit: no conversation \"defualt\" in this store; the closest: \"default\", \"Deploy\", \"demo\" \
                 (`todokit conversations` lists them all)"
                    .to_owned(),
            ),
            None,
            Some("todokit: no conversation \"x\" in this store (it holds none yet)".to_owned()),
        ];
        // What the user reads is pinned for review as well.
        let mut settings = insta::Settings::clone_current();
        settings.set_snapshot_path(concat!(env!("CARGO_MANIFEST_DIR"), "/../../snapshots"));
        settings.set_omit_expression(true);
        let shown: Vec<String> = actual.iter().flatten().cloned().collect();
        settings.bind(|| insta::assert_snapshot!("unknown_conversation_warnings", shown.join("\n")));
        assert_eq!(actual, expected);
    }
}
