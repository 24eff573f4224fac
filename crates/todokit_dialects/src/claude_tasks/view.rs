//! One task as the tools' details show it.

use serde::Serialize;
use serde_json::{Map, Value};

use todokit_app::prelude::{TriStatus, WireEnum};

use todokit_app::prelude::*;

/// One task as the tools' details show it; `None` (JSON `null`) when there
/// is no such task.
pub(super) fn view<'a>(state: &'a TodoState, id: &'a str) -> Option<TaskView<'a>> {
    let task = state.find(id)?;
    Some(TaskView {
        id,
        subject: &task.content,
        description: task.description.as_deref(),
        active_form: task.active_form.as_deref(),
        status: status_name(task),
        owner: task.owner.as_deref(),
        metadata: task.metadata.as_ref(),
        blocked_by: &task.blocked_by,
        blocks: state.blocks(id),
    })
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct TaskView<'a> {
    id: &'a str,
    subject: &'a str,
    description: Option<&'a str>,
    active_form: Option<&'a str>,
    status: &'static str,
    owner: Option<&'a str>,
    metadata: Option<&'a Map<String, Value>>,
    blocked_by: &'a [String],
    blocks: Vec<&'a str>,
}

/// The details of a call about one task.
#[derive(Serialize)]
pub(super) struct OneTask<'a> {
    pub(super) task: Option<TaskView<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) unblocked: Option<&'a [String]>,
}

impl<'a> OneTask<'a> {
    pub(super) fn of(state: &'a TodoState, id: &'a str) -> Details {
        Details::of(&OneTask {
            task: view(state, id),
            unblocked: None,
        })
    }
}

/// A task's status in Claude Code's three words: blocked tasks (written
/// through another profile) are pending, abandoned ones completed.
pub(super) fn status_name(task: &Todo) -> &'static str {
    TriStatus::from(task.status).as_str()
}
