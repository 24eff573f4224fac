//! What a profile author imports: `use todokit_app::prelude::*;` brings the
//! profile builder, the three ways to write a tool, the pieces results are
//! made of, the shared wire words, the declaration macros, and the domain
//! types a profile maps its wire format onto. The dialects todokit ships
//! (the `todokit_dialects` crate) are written over exactly this, so
//! nothing they use is out of a host's reach.

pub use crate::arguments::ArgumentError;
pub use crate::arguments::Leniency;
pub use crate::checklist_text::{
    ChecklistLine, checklist_lines, checklist_todos, current_document, parse_checklist,
};
pub use crate::details::Details;
pub use crate::list_writer::{
    Counts, ListTool, ListWriter, WriterTool, current_details, id_or_position, items_json, list_details,
    read_list, replace_with, todo_with_id, write_list,
};
pub use crate::operation::ToolOperation;
pub use crate::profile::{Checked, Lifecycle, Pin, Profile, Upstream};
pub use crate::python_spelling::{python_json, python_repr};
pub use crate::schema::{omissible, silently_closed, told_values, undescribed};
pub use crate::tool::{
    CallContext, CommandTool, Commands, HostMode, ModeSet, Outcome, RefusedIn, ToolError, ToolMetadata,
    ToolResult, TypedTool,
};
pub use crate::wire::{
    CancellableStatus, NoArguments, ReadWrite, StatusWords, TriStatus, WholeList, WireEnum, WirePriority,
};
/// The declaration macros: a list writer's type, a wire enum, a set of
/// status words.
pub use crate::{status_words, wire_enum, writer_tool};
pub use todokit_domain::{
    FieldNames, InProgressPolicy, ItemPath, Limits, ListRules, MergeItem, Priority, Replacement, Status,
    Todo, TodoError, TodoPatch, TodoState, UtcTime, clip, list_some, merge_by_id,
};
