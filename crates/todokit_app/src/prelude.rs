//! What a profile author imports: `use todokit_app::prelude::*;` (inside
//! this crate, `crate::prelude::*`) brings the profile builder, the three
//! ways to write a tool, the pieces results are made of, the shared wire
//! words, and the domain types a profile maps its wire format onto.

pub use crate::arguments::ArgumentError;
pub use crate::arguments::Leniency;
pub use crate::details::Details;
pub use crate::list_writer::{
    Counts, ListTool, ListWriter, WriterTool, current_details, id_or_position, items_json, list_details,
    read_list, replace_with, todo_with_id, write_list,
};
pub use crate::operation::ToolOperation;
pub use crate::profile::{Checked, Lifecycle, Pin, Profile, Upstream};
pub use crate::python_spelling::{python_json, python_repr};
pub use crate::tool::{
    CallContext, CommandTool, Commands, HostMode, ModeSet, Outcome, RefusedIn, ToolError, ToolMetadata,
    ToolResult, TypedTool,
};
pub use crate::wire::{
    CancellableStatus, NoArguments, ReadWrite, StatusWords, TriStatus, WholeList, WireEnum, WirePriority,
};
pub use todokit_domain::{
    FieldNames, InProgressPolicy, ItemPath, Limits, ListRules, MergeItem, Priority, Replacement, Status,
    Todo, TodoError, TodoPatch, TodoState, clip, list_some, merge_by_id,
};
