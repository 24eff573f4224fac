//! What survives a context compaction: [`TurnPolicy::on_compaction`].
//!
//! Hosts shorten long conversations by summarizing them; the tool calls
//! that built the todo list go, and with them the model's view of its
//! plan. The list itself is in the store, so the host puts it back into the
//! compacted context: what is open, what is in progress (with its notes),
//! and how far along the plan is, naming the tool the model updates it with.

use std::fmt::Write;

use todokit_domain::turn::{Injection, Placement, ReminderKind};
use todokit_domain::{Status, TodoState};

use crate::reminder::write_by_phase;
use crate::turn::{TurnPolicy, reminder};

impl TurnPolicy {
    /// The message to put into a compacted conversation so the model keeps
    /// its list: the open items by phase (the one in progress with its
    /// active form and notes) and the progress so far; `None` when nothing
    /// is open. It goes in as a message of its own right after the summary
    /// ([`Placement::BeforeRequest`]).
    ///
    /// A profile with its own words for this ([`crate::profile::Profile::with_compaction_text`],
    /// Hermes' preserved task list) gives them instead, as they are: the
    /// agent it reproduces sends them as a message of their own.
    pub fn on_compaction(&self, list: &TodoState) -> Option<Injection> {
        if let Some(words) = self.compaction {
            return words(list).map(|text| Injection {
                placement: Placement::BeforeRequest,
                kind: ReminderKind::Compaction,
                text,
            });
        }
        let open = list.open_tasks();
        if open.is_empty() {
            return None;
        }
        let counts = list.counts();
        let tool = self.writers.first().map_or("your todo tool", String::as_str);
        let mut text = format!(
            "The conversation so far was summarized to save space, but your todo list is kept as it was: \
             {} of {} items completed, {} still open:\n",
            counts.completed,
            counts.total(),
            open.len()
        );
        write_by_phase(&mut text, &open, |text, indent, task| {
            let id = task.id.as_deref().map(|id| format!("#{id} ")).unwrap_or_default();
            let _ = write!(text, "{indent}- [{}] {id}{}", task.status, task.content);
            if task.status == Status::InProgress {
                if let Some(active) = task.active_form.as_deref().filter(|a| *a != task.content) {
                    let _ = write!(text, " (now: {active})");
                }
                for note in &task.notes {
                    let _ = write!(text, "\n{indent}    note: {note}");
                }
            }
            text.push('\n');
        });
        let _ = write!(
            text,
            "Carry on from the item in progress. Keep the list current with {tool} as you go; \
             there is no need to write it again from the start."
        );
        Some(reminder(
            Placement::BeforeRequest,
            ReminderKind::Compaction,
            &text,
        ))
    }
}
