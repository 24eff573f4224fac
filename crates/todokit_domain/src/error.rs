//! Errors a model can act on: each names the field it is about and what was
//! expected there.

use thiserror::Error;

/// At most this many problems are listed for one call; the rest are counted.
/// A model fixes the first few and tries again; a list of 10 000 identical
/// complaints helps nobody.
pub const MAX_REPORTED_VIOLATIONS: usize = 20;

/// The longest excerpt of model text that an error message quotes; a
/// longer text is quoted this far, then `… (N bytes)`.
pub const MAX_QUOTED_CHARS: usize = 200;

/// The most positions (indexes, ids) an error message lists; the rest are
/// counted (`… and N more`).
pub const MAX_LISTED_POSITIONS: usize = 10;

/// One broken rule, naming the field (`todos[3].content`) it is about.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum Violation {
    /// The list has more items than the limit.
    #[error("{field}: {count} items were sent; at most {max} are allowed")]
    TooManyItems {
        /// The list's key.
        field: String,
        /// How many arrived.
        count: usize,
        /// The limit.
        max: usize,
    },
    /// Adding to the list would take it past the limit.
    #[error("{field}: the list would hold {count} items; at most {max} are allowed")]
    WouldExceed {
        /// What was being added (`add`, `(task list)`).
        field: String,
        /// How many items the list would hold.
        count: usize,
        /// The limit.
        max: usize,
    },
    /// A text field is empty or only whitespace.
    #[error("{field}: must not be empty or only whitespace")]
    Empty {
        /// The offending field.
        field: String,
    },
    /// A text field is longer than its limit.
    #[error("{field}: {bytes} bytes of UTF-8 were sent; at most {max} bytes are allowed")]
    TooLong {
        /// The offending field.
        field: String,
        /// Its length in UTF-8 bytes.
        bytes: usize,
        /// The limit.
        max: usize,
    },
    /// A required id is missing.
    #[error("{field}: missing; every item needs an id")]
    MissingId {
        /// The offending field.
        field: String,
    },
    /// Two items share an id.
    #[error("{field}: id \"{id}\" is already used by {first}; ids must be unique")]
    DuplicateId {
        /// The second use.
        field: String,
        /// The id, clipped for quoting.
        id: String,
        /// The first use.
        first: String,
    },
    /// An id that names no task.
    #[error("{field}: no task has id \"{id}\"")]
    UnknownId {
        /// Where the id was given.
        field: String,
        /// The id, clipped for quoting.
        id: String,
    },
    /// A new order that is not a permutation of the current ids.
    #[error("{field}: must list every current id exactly once ({detail})")]
    NotAPermutation {
        /// The order's key.
        field: String,
        /// What is missing, unknown or repeated.
        detail: String,
    },
    /// More than one item is in progress where the profile allows one.
    #[error(
        "{field}: {count} items are in_progress ({}); only one item may be in_progress at a time",
        list_some(items)
    )]
    TooManyInProgress {
        /// The list's key.
        field: String,
        /// How many are in progress.
        count: usize,
        /// The paths of the in-progress items.
        items: Vec<String>,
    },
}

impl Violation {
    /// The path of the field the problem is about.
    pub fn field(&self) -> &str {
        match self {
            Violation::TooManyItems { field, .. }
            | Violation::WouldExceed { field, .. }
            | Violation::Empty { field }
            | Violation::TooLong { field, .. }
            | Violation::MissingId { field }
            | Violation::DuplicateId { field, .. }
            | Violation::UnknownId { field, .. }
            | Violation::NotAPermutation { field, .. }
            | Violation::TooManyInProgress { field, .. } => field,
        }
    }
}

/// Every rule a call broke (at most [`MAX_REPORTED_VIOLATIONS`] of them
/// listed), one per line.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Violations {
    /// The problems, in the order they were found.
    pub list: Vec<Violation>,
    /// How many more were found but not listed.
    pub omitted: usize,
}

impl Violations {
    /// Records one more problem, counting it instead once the list is full.
    pub fn push(&mut self, violation: Violation) {
        if self.list.len() < MAX_REPORTED_VIOLATIONS {
            self.list.push(violation);
        } else {
            self.omitted += 1;
        }
    }

    /// True when nothing was wrong.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty() && self.omitted == 0
    }

    /// `Ok(())` when nothing was wrong, else these problems as an error.
    pub fn into_result(self) -> Result<(), TodoError> {
        if self.is_empty() {
            Ok(())
        } else {
            Err(TodoError::Invalid(self))
        }
    }
}

impl std::fmt::Display for Violations {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, v) in self.list.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            write!(f, "- {v}")?;
        }
        if self.omitted > 0 {
            write!(f, "\n- ... and {} more problems of the same kinds", self.omitted)?;
        }
        Ok(())
    }
}

/// Why a transition refused to apply. The state it was given is untouched.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum TodoError {
    /// The submitted list broke one or more rules.
    #[error("{0}")]
    Invalid(Violations),
    /// A call named a task id that does not exist.
    #[error("{field}: no task has id \"{id}\"")]
    UnknownTask {
        /// Where the id was given.
        field: String,
        /// The id, clipped for quoting.
        id: String,
    },
    /// A dependency would make tasks wait on each other in a circle.
    #[error("{field}: task {blocked} cannot wait on task {blocker}: that would close the cycle {cycle}")]
    Cycle {
        /// Where the dependency was given.
        field: String,
        /// The task that would wait.
        blocked: String,
        /// The task it would wait on.
        blocker: String,
        /// The cycle, as `1 -> 2 -> 1`.
        cycle: String,
    },
    /// A parent would put a task under itself.
    #[error(
        "{field}: task {child} cannot go under task {parent}: {parent} is already under {child} ({chain})"
    )]
    ParentCycle {
        /// Where the parent was given.
        field: String,
        /// The task that would move.
        child: String,
        /// The parent it would get.
        parent: String,
        /// The chain of parents from `parent` up to `child`, as `3 -> 2 -> 1`.
        chain: String,
    },
    /// A task another agent owns was given a new owner without taking it
    /// over on purpose (see [`crate::claim::check_claim`]).
    #[error(
        "{field}: task {id} is owned by \"{owner}\", so it was left unchanged: another agent is working on it. \
         Pick another task; to change hands, the owner releases it first ({field} \"\"), or the call takes it over on purpose ({take_over}: true)"
    )]
    Claimed {
        /// The owner field, in the caller's wire format.
        field: String,
        /// The take-over flag, in the caller's wire format.
        take_over: String,
        /// The task, clipped for quoting.
        id: String,
        /// Its current owner, clipped for quoting.
        owner: String,
    },
    /// A profile-specific rule, with the profile's own wording.
    #[error("{field}: {message}")]
    Refused {
        /// The field it is about.
        field: String,
        /// The profile's message.
        message: String,
    },
}

impl TodoError {
    /// Each problem as (field, message), the message naming the field.
    pub fn problems(&self) -> Vec<(String, String)> {
        match self {
            TodoError::Invalid(v) => v
                .list
                .iter()
                .map(|p| (p.field().to_owned(), p.to_string()))
                .collect(),
            TodoError::UnknownTask { field, .. }
            | TodoError::Cycle { field, .. }
            | TodoError::ParentCycle { field, .. }
            | TodoError::Claimed { field, .. }
            | TodoError::Refused { field, .. } => vec![(field.clone(), self.to_string())],
        }
    }

    /// How many problems were found but not listed.
    pub fn omitted(&self) -> usize {
        match self {
            TodoError::Invalid(v) => v.omitted,
            _ => 0,
        }
    }
}

/// `text` cut to at most [`MAX_QUOTED_CHARS`] characters (then `… (N
/// bytes)`, the whole text's length), for quoting model text inside an
/// error message.
pub fn clip(text: &str) -> String {
    match text.char_indices().nth(MAX_QUOTED_CHARS) {
        None => text.to_owned(),
        Some((cut, _)) => format!("{}… ({} bytes)", &text[..cut], text.len()),
    }
}

/// `items` joined with `", "`, at most [`MAX_LISTED_POSITIONS`] of them,
/// then `… and N more`.
pub fn list_some<T: std::fmt::Display>(items: &[T]) -> String {
    let shown: Vec<String> = items
        .iter()
        .take(MAX_LISTED_POSITIONS)
        .map(ToString::to_string)
        .collect();
    match items.len().saturating_sub(MAX_LISTED_POSITIONS) {
        0 => shown.join(", "),
        more => format!("{}… and {more} more", shown.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn clip_keeps_short_text_and_cuts_long_text_on_a_char_boundary() {
        let fixture = ["short".to_owned(), "é".repeat(100), "é".repeat(201)];
        let actual: Vec<String> = fixture.iter().map(|s| clip(s)).collect();
        let expected = vec![
            "short".to_owned(),
            "é".repeat(100),
            format!("{}… (402 bytes)", "é".repeat(200)),
        ];
        assert_eq!(actual, expected);
    }

    #[test]
    fn violations_beyond_the_cap_are_counted_not_listed() {
        let mut fixture = Violations::default();
        for i in 0..(MAX_REPORTED_VIOLATIONS + 3) {
            fixture.push(Violation::Empty {
                field: format!("todos[{i}].content"),
            });
        }
        let actual = (fixture.list.len(), fixture.omitted);
        let expected = (MAX_REPORTED_VIOLATIONS, 3);
        assert_eq!(actual, expected);
    }
}
