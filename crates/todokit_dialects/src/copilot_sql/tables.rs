//! The list as the two tables hold it: its tasks written in as rows
//! (each with an id and the table's words for its status) before the
//! model's statements, and read back after them, keeping what the tables
//! do not show of a task still in its row.

use rusqlite::types::ValueRef;
use rusqlite::{Connection, params};

use todokit_app::prelude::*;
use todokit_domain::{FieldNames, ItemPath, Presence, Timestamp, Violations, check_text_with, validate_list};

use super::answer::number;

/// The tables the session database holds, as the CLI creates them.
pub const SCHEMA: &str = "
    CREATE TABLE IF NOT EXISTS todos (
        id TEXT PRIMARY KEY,
        title TEXT NOT NULL,
        description TEXT,
        status TEXT DEFAULT 'pending' CHECK(status IN ('pending', 'in_progress', 'done', 'blocked')),
        created_at TEXT DEFAULT (datetime('now')),
        updated_at TEXT DEFAULT (datetime('now'))
    );
    CREATE TABLE IF NOT EXISTS todo_deps (
        todo_id TEXT NOT NULL,
        depends_on TEXT NOT NULL,
        PRIMARY KEY (todo_id, depends_on),
        FOREIGN KEY (todo_id) REFERENCES todos(id),
        FOREIGN KEY (depends_on) REFERENCES todos(id)
    );
";

/// The list's tasks, each with an id: a task another profile wrote without
/// one is given its title in kebab case.
pub fn with_ids(state: &TodoState, limits: &Limits) -> Vec<Todo> {
    let mut tasks: Vec<Todo> = state.tasks().cloned().collect();
    let taken: std::collections::HashSet<String> = tasks.iter().filter_map(|t| t.id.clone()).collect();
    let mut given = std::collections::HashSet::new();
    for task in tasks.iter_mut().filter(|t| t.id.is_none()) {
        let base = kebab(&task.content, limits.max_id_bytes.saturating_sub(8).max(1));
        let id = (1..)
            .map(|n| {
                if n == 1 {
                    base.clone()
                } else {
                    format!("{base}-{n}")
                }
            })
            .find(|id| !taken.contains(id) && !given.contains(id))
            .unwrap_or(base);
        given.insert(id.clone());
        task.id = Some(id);
    }
    tasks
}

/// `text` in lower-case kebab case, at most `max` bytes.
fn kebab(text: &str, max: usize) -> String {
    let mut id = String::new();
    for word in text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
    {
        let word = word.to_lowercase();
        if id.len() + word.len() + 1 > max {
            break;
        }
        if !id.is_empty() {
            id.push('-');
        }
        id.push_str(&word);
    }
    if id.is_empty() { "todo".to_owned() } else { id }
}

/// A status as the `todos` table spells it; an abandoned task reads as
/// `done` (nothing more to do), as the table has no word for it.
fn word(status: Status) -> &'static str {
    match status {
        Status::Pending => "pending",
        Status::InProgress => "in_progress",
        Status::Blocked => "blocked",
        Status::Completed | Status::Abandoned => "done",
    }
}

/// The status a word of the table means.
fn status(word: &str) -> Status {
    match word {
        "in_progress" => Status::InProgress,
        "blocked" => Status::Blocked,
        "done" => Status::Completed,
        _ => Status::Pending,
    }
}

/// A time as SQLite's `datetime()` writes it.
fn sql_time(at: Timestamp) -> String {
    let t = UtcTime::of(at);
    format!(
        "{:04}-{:02}-{:02} {:02}:{:02}:{:02}",
        t.year, t.month, t.day, t.hour, t.minute, t.second
    )
}

/// Writes `tasks` into the empty tables: task `n` at rowid `n + 1` (so a
/// row still there after the statements is known for that task), each
/// blocked-by id a `todo_deps` row.
pub fn load(connection: &Connection, tasks: &[Todo]) -> rusqlite::Result<()> {
    let mut todo = connection.prepare(
        "INSERT INTO todos (rowid, id, title, description, status, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )?;
    for (n, task) in tasks.iter().enumerate() {
        let created = task.created_at.map(sql_time);
        let updated = task.status_changed_at.or(task.created_at).map(sql_time);
        todo.execute(params![
            n as i64 + 1,
            task.id,
            task.content,
            task.description,
            word(task.status),
            created,
            updated
        ])?;
    }
    let mut dependency =
        connection.prepare("INSERT OR IGNORE INTO todo_deps (todo_id, depends_on) VALUES (?1, ?2)")?;
    for task in tasks {
        for prerequisite in &task.blocked_by {
            dependency.execute(params![task.id, prerequisite])?;
        }
    }
    Ok(())
}

/// The tasks the tables hold, in rowid order: a row still at a rowid the
/// call began with keeps what the table does not show of its task.
pub fn read_back(connection: &Connection, before: &[Todo], now: Timestamp) -> Result<Vec<Todo>, String> {
    let exists = |table: &str| -> rusqlite::Result<bool> {
        connection.query_row(
            "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = ?1",
            [table],
            |row| row.get::<_, i64>(0).map(|n| n > 0),
        )
    };
    let fail = |error: rusqlite::Error| error.to_string();
    let mut tasks = Vec::new();
    if exists("todos").map_err(fail)? {
        let mut rows = connection
            .prepare(
                "SELECT rowid, id, title, description, status, unixepoch(created_at), unixepoch(updated_at) \
                 FROM todos ORDER BY rowid",
            )
            .map_err(fail)?;
        let mut found = rows.query([]).map_err(fail)?;
        while let Some(row) = found.next().map_err(fail)? {
            let rowid: i64 = row.get(0).map_err(fail)?;
            let text = |i: usize, column: &str| -> Result<Option<String>, String> {
                match row.get_ref(i).map_err(fail)? {
                    ValueRef::Null => Ok(None),
                    ValueRef::Text(bytes) => Ok(Some(String::from_utf8_lossy(bytes).into_owned())),
                    ValueRef::Integer(n) => Ok(Some(n.to_string())),
                    ValueRef::Real(x) => Ok(Some(number(x))),
                    ValueRef::Blob(_) => Err(format!("a row's {column} is a blob; todokit keeps text there")),
                }
            };
            let id = text(1, "id")?.ok_or("a row's id is NULL; give every todo an id")?;
            let title = text(2, "title")?.unwrap_or_default();
            let description = text(3, "description")?;
            let word_now = text(4, "status")?.unwrap_or_default();
            let seconds = |i: usize| row.get::<_, Option<i64>>(i).ok().flatten();
            let kept = usize::try_from(rowid - 1).ok().and_then(|n| before.get(n));
            let mut task = kept.cloned().unwrap_or_else(|| Todo::new(title.clone()));
            task.id = Some(id);
            task.content = title;
            task.description = description;
            // A time still the second it was loaded as keeps its
            // milliseconds; a status changed by the statements changed now.
            let ms = |at: Option<i64>| at.map(|s| u64::try_from(s).unwrap_or_default() * 1000);
            let loaded_created = kept.and_then(|k| k.created_at);
            if ms(seconds(5)).map(|at| at / 1000) != loaded_created.map(|at| at / 1000) {
                task.created_at = ms(seconds(5));
            }
            if word(task.status) != word_now {
                task.set_status(status(&word_now), now);
            } else {
                let loaded = kept.and_then(|k| k.status_changed_at.or(k.created_at));
                if ms(seconds(6)).map(|at| at / 1000) != loaded.map(|at| at / 1000) {
                    task.status_changed_at = ms(seconds(6));
                }
            }
            task.blocked_by.clear();
            tasks.push(task);
        }
    }
    if exists("todo_deps").map_err(fail)? {
        let mut rows = connection
            .prepare("SELECT todo_id, depends_on FROM todo_deps ORDER BY rowid")
            .map_err(fail)?;
        let place: std::collections::HashMap<String, usize> = tasks
            .iter()
            .enumerate()
            .filter_map(|(n, task)| Some((task.id.clone()?, n)))
            .collect();
        let mut found = rows.query([]).map_err(fail)?;
        while let Some(row) = found.next().map_err(fail)? {
            let (todo, prerequisite): (String, String) =
                (row.get(0).map_err(fail)?, row.get(1).map_err(fail)?);
            if let Some(&n) = place.get(&todo) {
                tasks[n].blocked_by.push(prerequisite);
            }
        }
    }
    Ok(tasks)
}

/// Checks the tables' todos against `rules` as any list is checked.
pub fn check(tasks: &[Todo], rules: &ListRules) -> Result<(), ToolError> {
    let names = FieldNames::DEFAULT
        .list("todos")
        .content("title")
        .items(ItemPath::Ordinal);
    validate_list(tasks, rules, &names)?;
    let mut problems = Violations::default();
    for (n, task) in tasks.iter().enumerate() {
        if let Some(description) = &task.description {
            check_text_with(
                description,
                rules.limits.max_description_bytes,
                Presence::Optional,
                || names.item(n, "description"),
                &mut problems,
            );
        }
        rules
            .limits
            .check_ids(&task.blocked_by, "todo_deps", &mut problems);
    }
    problems.into_result().map_err(ToolError::from)
}
