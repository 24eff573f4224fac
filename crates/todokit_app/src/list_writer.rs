//! The one pipeline every replace-the-whole-list tool shares: decode the
//! wire items, map them to [`Todo`]s, replace the list (checking it and
//! carrying over what the wire format cannot say), record the
//! [`ToolOperation`], and format text and details from it.
//!
//! A profile supplies only its wire types, its field names and its words
//! by implementing [`ListWriter`], and registers the writer wrapped in
//! [`ListTool`], which makes it a [`TypedTool`] (and so a [`crate::tool::Tool`]).

use std::borrow::Cow;

use schemars::JsonSchema;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use todokit_domain::{FieldNames, Priority, Replacement, Status, Todo, TodoState, Transition, replace_flat};

use crate::arguments::ArgumentError;
use crate::details::Details;
use crate::details::SeqOf;
use crate::operation::ToolOperation;
use crate::tool::{CallContext, Outcome, ToolError, ToolMetadata, ToolResult, TypedTool};

/// A tool that replaces the whole flat list on every call.
pub trait ListWriter: Send + Sync + 'static {
    /// The decoded arguments.
    type Input: DeserializeOwned + JsonSchema + Send + 'static;
    /// One todo as this profile's wire format writes it, for the details;
    /// it may borrow from the stored todo, so writing the details copies no
    /// text.
    type Item<'a>: Serialize;
    /// The profile's own fields in the details, beside `previous`, `current`
    /// and `transitions` (`()` for none). Owned, since the details may be
    /// written after the call, when a host first reads them.
    type Fields: Serialize + Send + 'static;

    /// The wire names of the list and its fields, for error messages
    /// (`todos`, `content`, `activeForm`, `id`, `status` unless a format
    /// names them otherwise).
    const FIELDS: FieldNames = FieldNames::DEFAULT;
    /// Empty the list when every todo in it is completed.
    const WIPE_WHEN_ALL_COMPLETED: bool = false;

    /// The todos the arguments describe, in order; an error refuses the
    /// call before anything is compared or stored. It may move text out of
    /// `input` that [`ListWriter::text`] and [`ListWriter::fields`] do not
    /// read (through [`ToolOperation::asked`]), rather than copy it.
    fn todos(input: &mut Self::Input) -> Result<Vec<Todo>, ToolError>;

    /// The list after the call, checked whole. By default the todos of
    /// [`ListWriter::todos`] replace the stored list; a dialect that can
    /// also patch it (Cursor's `merge`) computes it here instead, and the
    /// rest of the pipeline (result text, details) stays the same.
    fn apply(input: &mut Self::Input, ctx: &CallContext<'_>) -> Result<Replacement, ToolError> {
        replace_with::<Self>(Self::todos(input)?, ctx)
    }

    /// A stored todo (at `position` in the list) in the wire format.
    fn item(todo: &Todo, position: usize) -> Self::Item<'_>;

    /// The text the model reads after an accepted call.
    fn text(op: &ToolOperation<'_, Self::Input>) -> String;

    /// The profile's own detail fields.
    fn fields(op: &ToolOperation<'_, Self::Input>) -> Self::Fields;

    /// Whether a call states why the plan changed ([`ListWriter::explanation`]
    /// then replaces the stored one, also with none); `false` leaves the
    /// stored explanation alone.
    const EXPLAINS: bool = false;

    /// Why the plan changed, as the call says.
    fn explanation(_input: &Self::Input) -> Option<String> {
        None
    }

    /// The whole list as the text the call sent it in, for a dialect whose
    /// tool takes the list as one free text (kept as
    /// [`TodoState::document`]); `None` for the others.
    fn document(_input: &Self::Input) -> Option<String> {
        None
    }

    /// See [`crate::tool::Tool::refusal`]: the problems as they are, unless the
    /// dialect words some of them itself.
    fn refusal(args: &Value, problems: Vec<ArgumentError>) -> ToolError {
        let _ = args;
        ToolError::Arguments(problems)
    }
}

/// A [`ListWriter`] that is a tool of its own (rather than one command of
/// a [`crate::tool::CommandTool`]): the name and description the model reads.
pub trait WriterTool: ListWriter {
    /// The name the model calls it by.
    const NAME: &'static str;
    /// The description the model reads (a markdown file, loaded at compile
    /// time).
    const DESCRIPTION: &'static str;
}

/// Declares a list writer's type and its [`WriterTool`] facts in one go:
/// `writer_tool! { /// The `X` tool. X = "name", include_str!("...") }`.
#[macro_export]
macro_rules! writer_tool {
    ($(#[$meta:meta])* $tool:ident = $name:literal, $description:expr $(,)?) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, Default)]
        pub struct $tool;

        impl $crate::WriterTool for $tool {
            const NAME: &'static str = $name;
            const DESCRIPTION: &'static str = $description;
        }
    };
}

/// A [`WriterTool`] as a tool: register `ListTool(MyWriter)` with
/// [`crate::profile::Profile::tool`].
#[derive(Debug, Clone, Copy, Default)]
pub struct ListTool<W>(pub W);

impl<W: WriterTool> TypedTool for ListTool<W> {
    type Input = W::Input;
    const NAME: &'static str = W::NAME;
    const DESCRIPTION: &'static str = W::DESCRIPTION;
    const METADATA: ToolMetadata = ToolMetadata::LIST_WRITER;

    fn run(&self, input: W::Input, ctx: &CallContext<'_>) -> Result<Outcome, ToolError> {
        write_list::<W>(W::NAME, input, ctx)
    }

    fn refusal(args: &Value, problems: Vec<ArgumentError>) -> ToolError {
        W::refusal(args, problems)
    }
}

/// Runs `W` on `input` as a call of tool `tool`: the list the input
/// describes replaces the stored one, checked whole, and the result is
/// formatted from what happened. What a [`ListTool`] runs, and what a
/// command of a [`crate::tool::CommandTool`] that replaces the list calls.
pub fn write_list<W: ListWriter>(
    tool: &'static str,
    mut input: W::Input,
    ctx: &CallContext<'_>,
) -> Result<Outcome, ToolError> {
    let mut replaced = W::apply(&mut input, ctx)?;
    if W::WIPE_WHEN_ALL_COMPLETED {
        replaced = replaced.wipe_if_all_completed();
    }
    if W::EXPLAINS {
        replaced.state.explanation = W::explanation(&input);
    }
    // A write states the list anew: the text it came as, or none (a text an
    // earlier call stored no longer describes it).
    replaced.state.document = W::document(&input);
    let op = ToolOperation {
        tool,
        asked: &input,
        before: ctx.state,
        after: &replaced.state,
        transitions: &replaced.transitions,
        in_progress_count: replaced.in_progress_count,
        wiped: replaced.wiped,
        fields: (),
    };
    let (text, fields) = (W::text(&op), W::fields(&op));
    let transitions = replaced.transitions;
    let details = ctx.details(&replaced.state, move |before, after| {
        details_of::<W>(before, after, &transitions, fields)
    });
    Ok(Outcome::commit(replaced.state, ToolResult::ok(text, details)))
}

/// `todos` replacing the stored list of `ctx`, checked whole against its
/// rules, errors naming fields as `W` spells them: what
/// [`ListWriter::apply`] does unless a dialect says otherwise.
pub fn replace_with<W: ListWriter + ?Sized>(
    todos: Vec<Todo>,
    ctx: &CallContext<'_>,
) -> Result<Replacement, ToolError> {
    Ok(replace_flat(ctx.state, todos, ctx.rules, &W::FIELDS, ctx.now)?)
}

/// What a list writer that wipes a completed list (and counts what was
/// sent in progress) reports beside the lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Counts {
    /// Every item was completed, so the stored list was emptied.
    pub wiped_on_all_completed: bool,
    /// How many items were sent in progress.
    pub in_progress_count: usize,
}

impl Counts {
    /// The counts of `op`.
    pub fn of<A, F>(op: &ToolOperation<'_, A, F>) -> Self {
        Self {
            wiped_on_all_completed: op.wiped,
            in_progress_count: op.in_progress_count,
        }
    }
}

/// The details every list tool gives: the list before and after in the
/// profile's wire format, the transitions, then the profile's own fields.
pub fn list_details<W: ListWriter, A, F>(op: &ToolOperation<'_, A, F>, fields: impl Serialize) -> Details {
    details_of::<W>(op.before, op.after, op.transitions, fields)
}

/// [`list_details`] from its parts.
fn details_of<W: ListWriter>(
    before: &TodoState,
    after: &TodoState,
    transitions: &[Transition],
    fields: impl Serialize,
) -> Details {
    Details::of(&ListDetails {
        previous: items::<W>(before),
        current: items::<W>(after),
        transitions,
        fields,
    })
}

/// A read of the list `W` writes: `text` for the model, the list in `W`'s
/// wire format under `current` in the details, nothing stored. What the
/// reading command of a read-or-replace tool answers.
pub fn read_list<W: ListWriter>(text: String, state: &TodoState) -> Result<Outcome, ToolError> {
    Ok(Outcome::read(ToolResult::ok(text, current_details::<W>(state))))
}

/// The details of a tool that only reads a list `W` writes: the list under
/// the same key, `current`.
pub fn current_details<W: ListWriter>(state: &TodoState) -> Details {
    #[derive(Serialize)]
    struct Current<C> {
        current: C,
    }
    Details::of(&Current {
        current: items::<W>(state),
    })
}

/// The stored list as compact JSON of `W`'s wire items: the answer of a
/// dialect whose original answers are not public (`amp`, `trae`), in the
/// one shape a model trained on it is sure to read.
pub fn items_json<W: ListWriter>(state: &TodoState) -> String {
    // Serializing borrowed strings and enums cannot fail.
    serde_json::to_string(&items::<W>(state)).unwrap_or_default()
}

/// A todo from a wire item that names its id and priority, its texts moved
/// out of the item rather than copied.
pub fn todo_with_id(content: &mut String, status: Status, priority: Priority, id: &mut String) -> Todo {
    let mut todo = Todo::new(std::mem::take(content))
        .status(status)
        .priority(priority);
    todo.id = Some(std::mem::take(id));
    todo
}

/// A todo's id as a profile that numbers its items shows it: its own id,
/// else its 1-based `position` (a todo written through another profile may
/// have none).
pub fn id_or_position(todo: &Todo, position: usize) -> Cow<'_, str> {
    match &todo.id {
        Some(id) => Cow::Borrowed(id),
        None => Cow::Owned((position + 1).to_string()),
    }
}

/// A stored list in `W`'s wire format, serialized item by item.
fn items<W: ListWriter>(state: &TodoState) -> impl Serialize + '_ {
    SeqOf(move || state.tasks().enumerate().map(|(i, t)| W::item(t, i)))
}

#[derive(Serialize)]
struct ListDetails<'a, P, C, F> {
    previous: P,
    current: C,
    transitions: &'a [Transition],
    #[serde(flatten)]
    fields: F,
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn a_todo_without_an_id_is_shown_by_its_one_based_position() {
        let named = Todo::new("a").id("x7");
        let unnamed = Todo::new("b");
        let actual = (id_or_position(&named, 0), id_or_position(&unnamed, 2));
        let expected = (Cow::Borrowed("x7"), Cow::<str>::Owned("3".to_owned()));
        assert_eq!(actual, expected);
    }
}
