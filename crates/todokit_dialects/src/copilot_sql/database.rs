//! The session database for one call: SQLite in memory, its two tables
//! made as the CLI makes them and filled from the list, the model's
//! statements run one by one (each kept once it ran, as the CLI's are),
//! then the tables read back into the list.
//!
//! What a statement may reach is bounded before it runs: it sees only the
//! two tables (an authorizer refuses other tables, attached files and
//! pragmas that name files), it stops after [`MAX_STEPS`] virtual-machine
//! steps, no value grows past [`MAX_VALUE_BYTES`], and the rows a query
//! shows stop at [`MAX_SHOWN_BYTES`].

use std::sync::{Arc, Mutex, PoisonError};

use rusqlite::Connection;
use rusqlite::hooks::{AuthAction, AuthContext, Authorization};
use rusqlite::limits::Limit;

use todokit_app::prelude::*;
use todokit_domain::Timestamp;

use super::answer::{Done, Failure, shown_value};
use super::statements::Statement;
use super::tables::{SCHEMA, check, load, read_back, with_ids};

/// Virtual-machine steps one call may take, over all its statements: far
/// past what a plan's queries need, short of a runaway recursive query.
pub const MAX_STEPS: u64 = 20_000_000;
/// The longest text or blob a statement may make.
pub const MAX_VALUE_BYTES: i32 = 1 << 20;
/// The most result text one call shows.
pub const MAX_SHOWN_BYTES: usize = 1 << 20;
/// The pragmas refused: those that name files or keys, and the one that
/// lets a statement rewrite the schema's own table.
const REFUSED_PRAGMAS: [&str; 9] = [
    "key",
    "rekey",
    "hexkey",
    "hexrekey",
    "textkey",
    "textrekey",
    "temp_store_directory",
    "data_store_directory",
    "writable_schema",
];
/// How many steps pass between two looks at the count.
const STEPS_PER_LOOK: i32 = 10_000;

/// The words a statement refused by the authorizer is answered with.
type Refusal = Arc<Mutex<Option<String>>>;

/// One call's database.
pub struct Session {
    connection: Connection,
    refusal: Refusal,
    /// The list's tasks, rowid `n + 1` for task `n`.
    before: Vec<Todo>,
}

impl Session {
    /// The database holding `state`'s tasks, ready for the model's
    /// statements.
    pub fn open(state: &TodoState, limits: &Limits) -> Result<Self, ToolError> {
        let unavailable = |error: rusqlite::Error| {
            ToolError::refused("query", format!("the database could not be made: {error}"))
        };
        let mut connection = Connection::open_in_memory().map_err(unavailable)?;
        connection.execute_batch(SCHEMA).map_err(unavailable)?;
        let before = with_ids(state, limits);
        load(&connection, &before).map_err(unavailable)?;
        // Foreign keys on, as in the CLI, once the list is in; and SQLite's
        // count of changed rows back to none, as on a fresh connection
        // (a `BEGIN` first reports it).
        connection
            .execute_batch("PRAGMA foreign_keys = ON; DELETE FROM todo_deps WHERE 0")
            .map_err(unavailable)?;
        connection
            .set_limit(Limit::SQLITE_LIMIT_LENGTH, MAX_VALUE_BYTES)
            .map_err(unavailable)?;
        let refusal = Refusal::default();
        let said = Arc::clone(&refusal);
        connection
            .authorizer(Some(move |context: AuthContext<'_>| authorize(&context, &said)))
            .map_err(unavailable)?;
        let mut looks = 0_u64;
        connection
            .progress_handler(
                STEPS_PER_LOOK,
                Some(move || {
                    looks += 1;
                    looks * STEPS_PER_LOOK as u64 > MAX_STEPS
                }),
            )
            .map_err(unavailable)?;
        Ok(Self {
            connection,
            refusal,
            before,
        })
    }

    /// Runs `statements` in order until one fails: what each that ran
    /// did, and the failure.
    pub fn run(&self, statements: &[Statement]) -> (Vec<Done>, Option<Failure>) {
        let mut results = Vec::new();
        let mut shown = 0;
        for (index, statement) in statements.iter().enumerate() {
            match self.one(statement, &mut shown) {
                Ok(done) => results.push(done),
                Err(message) => return (results, Some(Failure { index, message })),
            }
        }
        (results, None)
    }

    fn one(&self, statement: &Statement, shown: &mut usize) -> Result<Done, String> {
        let said = |session: &Self, error: rusqlite::Error| {
            let refused = session
                .refusal
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .take();
            refused.unwrap_or_else(|| message(&error))
        };
        let mut prepared = match self.connection.prepare(&statement.text) {
            Ok(prepared) => prepared,
            Err(error) => return Err(said(self, error)),
        };
        let reads = matches!(statement.label.as_str(), "SELECT" | "WITH");
        let columns: Vec<String> = prepared.column_names().map(str::to_owned).collect();
        let mut rows = Vec::new();
        let mut stepped = prepared.raw_query();
        loop {
            match stepped.next() {
                Ok(Some(row)) if reads => {
                    let values: Vec<String> = (0..columns.len())
                        .map(|i| row.get_ref(i).map(shown_value).unwrap_or_default())
                        .collect();
                    *shown += values.iter().map(String::len).sum::<usize>();
                    if *shown > MAX_SHOWN_BYTES {
                        return Err(format!(
                            "the rows come to more than todokit shows at once ({MAX_SHOWN_BYTES} bytes); select fewer rows or columns"
                        ));
                    }
                    rows.push(values);
                }
                Ok(Some(_)) => {}
                Ok(None) => break,
                Err(error) => return Err(said(self, error)),
            }
        }
        // SQLite's count of the last insert, update or delete on this
        // connection, which a `BEGIN` or `ROLLBACK` repeats, as the CLI's
        // answers do.
        let changed = self.connection.changes();
        Ok(match statement.label.as_str() {
            "SELECT" | "WITH" => Done::Rows { columns, rows },
            "INSERT" => Done::Inserted {
                count: changed,
                rowid: self.connection.last_insert_rowid(),
            },
            "UPDATE" => Done::Updated(changed),
            "DELETE" => Done::Deleted(changed),
            "CREATE" | "DROP" | "ALTER" => Done::Schema,
            _ => Done::Other(changed),
        })
    }

    /// The list the tables now hold, checked against `rules`; `None` when
    /// it is the list the call began with.
    pub fn into_state(
        mut self,
        state: &TodoState,
        rules: &ListRules,
        now: Timestamp,
    ) -> Result<Option<TodoState>, ToolError> {
        // A transaction the statements left open is kept, as the CLI's
        // next statement would find it.
        if !self.connection.is_autocommit() {
            let _ = self.connection.execute_batch("COMMIT");
        }
        let _ = self
            .connection
            .authorizer(None::<fn(AuthContext<'_>) -> Authorization>);
        let _ = self.connection.progress_handler(0, None::<fn() -> bool>);
        let tasks = read_back(&self.connection, &self.before, now)
            .map_err(|error| ToolError::refused("todos", error))?;
        if tasks.iter().eq(state.tasks()) {
            return Ok(None);
        }
        check(&tasks, rules)?;
        Ok(Some(state.clone().with_flat_tasks(tasks)))
    }
}

/// SQLite's message for `error`.
fn message(error: &rusqlite::Error) -> String {
    match error {
        rusqlite::Error::SqliteFailure(failure, _)
            if failure.code == rusqlite::ErrorCode::OperationInterrupted =>
        {
            format!("the statements ran past todokit's limit of {MAX_STEPS} steps and were stopped")
        }
        rusqlite::Error::SqliteFailure(_, Some(message)) => message.clone(),
        rusqlite::Error::SqlInputError { msg, .. } => msg.clone(),
        other => other.to_string(),
    }
}

/// Whether the authorizer lets `context` through; a refusal leaves its
/// reason in `said`.
fn authorize(context: &AuthContext<'_>, said: &Refusal) -> Authorization {
    const KEPT: [&str; 2] = ["todos", "todo_deps"];
    // `VACUUM` copies the database through a scratch one it attaches (the
    // only database besides these two a statement can reach).
    if context
        .database_name
        .is_some_and(|name| name != "main" && name != "temp")
    {
        return Authorization::Allow;
    }
    let refused = match &context.action {
        AuthAction::CreateTable { table_name }
        | AuthAction::CreateTempTable { table_name }
        | AuthAction::CreateVtable { table_name, .. } => Some(format!(
            "todokit keeps only the todos and todo_deps tables, so {table_name} cannot be made here"
        )),
        AuthAction::CreateView { view_name } | AuthAction::CreateTempView { view_name } => Some(format!(
            "todokit keeps only the todos and todo_deps tables, so the view {view_name} cannot be made here"
        )),
        AuthAction::CreateTrigger { trigger_name, .. }
        | AuthAction::CreateTempTrigger { trigger_name, .. } => Some(format!(
            "todokit keeps no triggers, so {trigger_name} cannot be made here"
        )),
        AuthAction::AlterTable { table_name, .. } => Some(format!(
            "the {table_name} table's columns are the CLI's own and cannot be altered"
        )),
        // `VACUUM` attaches a scratch database with no file; a file is
        // never attached.
        AuthAction::Attach { filename } if !filename.is_empty() => Some(super::answer::blocked("ATTACH")),
        AuthAction::Detach { .. } => Some(super::answer::blocked("DETACH")),
        AuthAction::Pragma { pragma_name, .. } if REFUSED_PRAGMAS.contains(pragma_name) => {
            Some(format!("the pragma {pragma_name} is not allowed here"))
        }
        AuthAction::Insert { table_name }
        | AuthAction::Delete { table_name }
        | AuthAction::Update { table_name, .. }
            if !KEPT.contains(table_name) && !table_name.starts_with("sqlite_") =>
        {
            Some(format!("no such table: {table_name}"))
        }
        _ => None,
    };
    match refused {
        Some(reason) => {
            *said.lock().unwrap_or_else(PoisonError::into_inner) = Some(reason);
            Authorization::Deny
        }
        None => Authorization::Allow,
    }
}
