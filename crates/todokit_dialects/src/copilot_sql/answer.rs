//! What the CLI tells the model after a query: each statement's result
//! (rows as a markdown table, or how many rows changed), numbered when
//! there were several, and where a statement failed, which one and what
//! ran before it.

use rusqlite::types::ValueRef;
use serde_json::{Value, json};

use super::statements::Statement;

/// The answer to a blank query.
pub const EMPTY_QUERY: &str = "Error: Empty query provided.";
/// The answer to a query of semicolons only (the CLI's own words for it).
pub const NO_STATEMENT: &str = "SQL Error: Error: statement has been finalized";

/// What one statement did.
#[derive(Debug, Clone, PartialEq)]
pub enum Done {
    /// A `SELECT` (or `WITH`): its columns and rows, each value as shown.
    Rows {
        /// The columns' names.
        columns: Vec<String>,
        /// The rows' values.
        rows: Vec<Vec<String>>,
    },
    /// An `INSERT`: rows added, and the last one's rowid.
    Inserted {
        /// Rows added.
        count: u64,
        /// The rowid of the last row added.
        rowid: i64,
    },
    /// An `UPDATE`: rows changed.
    Updated(u64),
    /// A `DELETE`: rows removed.
    Deleted(u64),
    /// A `CREATE`, `DROP` or `ALTER`.
    Schema,
    /// Anything else (`REPLACE`, `PRAGMA`, `BEGIN`): rows changed.
    Other(u64),
}

/// A statement that failed: which (0-based) and SQLite's message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// Its place in the query.
    pub index: usize,
    /// What went wrong.
    pub message: String,
}

/// The refusal of a statement the CLI does not run.
pub fn blocked(label: &str) -> String {
    format!("Error: Blocked SQL statement: \"{label}\" is not allowed for security reasons.")
}

/// The answer to `statements`, of which `results` ran and `failure`, if
/// any, stopped the rest.
pub fn of(statements: &[Statement], results: &[Done], failure: Option<&Failure>) -> String {
    if statements.is_empty() {
        return NO_STATEMENT.to_owned();
    }
    let listed = || {
        results
            .iter()
            .zip(statements)
            .enumerate()
            .map(|(n, (done, statement))| {
                let text = shown(done).replace('\n', "\n   ");
                format!("{}. {}\n   {text}", n + 1, statement.label)
            })
            .collect::<Vec<_>>()
            .join("\n\n")
    };
    match failure {
        None if statements.len() == 1 => results.first().map(shown).unwrap_or_default(),
        None => format!("Executed {} statement(s):\n\n{}", statements.len(), listed()),
        Some(failure) if statements.len() == 1 => format!("SQL Error: Error: {}", failure.message),
        Some(failure) => {
            let label = statements.get(failure.index).map_or("", |s| s.label.as_str());
            let mut text = format!(
                "SQL Error after statement {} ({label}): Error: {}",
                failure.index + 1,
                failure.message
            );
            if !results.is_empty() {
                text.push_str(&format!(
                    "\n\nCompleted {} statement(s) before failure:\n\n{}",
                    results.len(),
                    listed()
                ));
            }
            text
        }
    }
}

/// The same for a host, as data: each statement that ran (its label, and
/// its rows or counts), and the failure that stopped the rest.
pub fn details(statements: &[Statement], results: &[Done], failure: Option<&Failure>) -> Value {
    let ran: Vec<Value> = results
        .iter()
        .zip(statements)
        .map(|(done, statement)| {
            let mut item = match done {
                Done::Rows { columns, rows } => json!({"columns": columns, "rows": rows}),
                Done::Inserted { count, rowid } => json!({"changes": count, "lastInsertRowid": rowid}),
                Done::Updated(count) | Done::Deleted(count) | Done::Other(count) => json!({"changes": count}),
                Done::Schema => json!({}),
            };
            item["statement"] = json!(statement.label);
            item
        })
        .collect();
    let failed = failure.map(|f| json!({"statement": f.index + 1, "message": f.message}));
    json!({"statements": ran, "failed": failed})
}

/// One statement's result as the CLI words it.
fn shown(done: &Done) -> String {
    match done {
        Done::Rows { rows, .. } if rows.is_empty() => "Query returned 0 rows.".to_owned(),
        Done::Rows { columns, rows } => {
            let line = |cells: &[String]| format!("| {} |", cells.join(" | "));
            let mut lines = vec![
                format!("{} row(s) returned:\n", rows.len()),
                line(columns),
                line(&vec!["---".to_owned(); columns.len()]),
            ];
            lines.extend(rows.iter().map(|row| line(row)));
            lines.join("\n")
        }
        Done::Inserted { count, rowid } => format!("{count} row(s) inserted. Last inserted row ID: {rowid}."),
        Done::Updated(count) => format!("{count} row(s) updated."),
        Done::Deleted(count) => format!("{count} row(s) deleted."),
        Done::Schema => "Schema operation completed successfully.".to_owned(),
        Done::Other(count) => format!("Query executed successfully. Rows affected: {count}."),
    }
}

/// A value as the CLI shows it in a table: its JavaScript form.
pub fn shown_value(value: ValueRef<'_>) -> String {
    match value {
        ValueRef::Null => "NULL".to_owned(),
        ValueRef::Integer(n) => n.to_string(),
        ValueRef::Real(x) => number(x),
        ValueRef::Text(bytes) => String::from_utf8_lossy(bytes).into_owned(),
        // A Uint8Array as JSON: its bytes keyed by place.
        ValueRef::Blob(bytes) => {
            let pairs: Vec<String> = bytes
                .iter()
                .enumerate()
                .map(|(i, b)| format!("\"{i}\":{b}"))
                .collect();
            format!("{{{}}}", pairs.join(","))
        }
    }
}

/// A float as JavaScript writes a number: no fraction when whole,
/// exponent form from 1e21.
pub fn number(x: f64) -> String {
    if !x.is_finite() {
        return if x.is_nan() {
            "NaN".to_owned()
        } else if x > 0.0 {
            "Infinity".to_owned()
        } else {
            "-Infinity".to_owned()
        };
    }
    if x != 0.0 && (x.abs() >= 1e21 || x.abs() < 1e-6) {
        let text = format!("{x:e}");
        return match text.split_once('e') {
            Some((mantissa, exponent)) if !exponent.starts_with('-') => format!("{mantissa}e+{exponent}"),
            _ => text,
        };
    }
    x.to_string()
}
