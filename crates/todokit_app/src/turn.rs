//! The agent-loop side: what a host injects, and where, so the model keeps
//! its list current and finishes what it planned.
//!
//! A host keeps one [`TurnPolicy`] per conversation and calls it at fixed
//! points of its loop: [`TurnPolicy::on_user_prompt`] when the user sends a
//! message, [`TurnPolicy::on_tool_results`] after running a round of tool
//! calls, [`TurnPolicy::before_request`] before sending the next request,
//! and [`TurnPolicy::on_turn_end`] when the model wants to stop. The policy
//! returns what to inject; it never touches the host's messages itself.

use derive_setters::Setters;
use todokit_domain::{Notice, TodoState};
// The record's parts are the domain's; a host names them from here.
pub use todokit_domain::turn::{Enforcement, Injection, Placement, ReminderKind, TurnCounters};

use crate::profile::Profile;
use crate::reminder::{end_of_turn_reminder, stale_list_reminder};

/// At most this many end-of-turn reminders per user prompt, by default.
pub const DEFAULT_MAX_END_OF_TURN_REMINDERS: usize = 3;

/// How a [`TurnPolicy`] behaves.
#[derive(Debug, Clone, PartialEq, Eq, Setters)]
#[setters(strip_option)]
pub struct TurnConfig {
    /// Tool rounds without a todo call before the nag (0: never nag).
    pub nag_after_rounds: usize,
    /// Nag even while the list is empty.
    pub nag_when_empty: bool,
    /// The nag's text; `None` for the profile's own words
    /// ([`Profile::with_nag_text`]).
    pub nag_text: Option<String>,
    /// Remind the model after a failed todo call that the list is stale.
    pub stale_reminder: bool,
    /// Pass the user's hand edits on to the model.
    pub user_edit_reminders: bool,
    /// What an early end of turn leads to.
    pub end_of_turn: Enforcement,
    /// End-of-turn reminders per user prompt, at most.
    pub max_end_of_turn_reminders: usize,
}

impl TurnConfig {
    /// The defaults for `profile`: its nag threshold, soft enforcement, at
    /// most three end-of-turn reminders per prompt.
    pub fn for_profile(profile: &Profile) -> Self {
        Self {
            nag_after_rounds: profile.nag_after_rounds(),
            nag_when_empty: false,
            nag_text: None,
            stale_reminder: true,
            user_edit_reminders: true,
            end_of_turn: Enforcement::Soft,
            max_end_of_turn_reminders: DEFAULT_MAX_END_OF_TURN_REMINDERS,
        }
    }
}

/// A reminder of todokit's own: `text` wrapped in `<system-reminder>` tags.
pub(crate) fn reminder(placement: Placement, kind: ReminderKind, text: &str) -> Injection {
    Injection {
        placement,
        kind,
        text: format!("<system-reminder>\n{text}\n</system-reminder>"),
    }
}

/// What the host does when the model wants to end its turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TurnEnd {
    /// Let it end.
    End,
    /// Let it end, and show the user this warning.
    EndWithWarning(String),
    /// Do not end: send the model this reminder and keep looping.
    Continue(Injection),
}

/// One tool call of a round, as the policy needs to know it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallRecord {
    /// The tool's name.
    pub tool: String,
    /// Whether its result was an error.
    pub is_error: bool,
    /// The host's id of the call, where it has one: a
    /// [`crate::turn_driver::TurnDriver`] told of the same call twice
    /// counts it once.
    pub id: Option<String>,
}

impl CallRecord {
    /// A call of `tool`.
    pub fn new(tool: impl Into<String>, is_error: bool) -> Self {
        Self {
            tool: tool.into(),
            is_error,
            id: None,
        }
    }

    /// The same call, with the host's id of it.
    pub fn with_id(mut self, id: impl Into<String>) -> Self {
        self.id = Some(id.into());
        self
    }
}

/// One conversation's reminder logic; see the module docs.
#[derive(Debug, Clone)]
pub struct TurnPolicy {
    config: TurnConfig,
    /// The profile's nag, worded from the list.
    nag: fn(&TodoState) -> String,
    /// The profile's own words for the list after a compaction.
    pub(crate) compaction: Option<fn(&TodoState) -> Option<String>>,
    /// The profile's words for the list before every request.
    context: Option<fn(&TodoState) -> String>,
    todo_tools: Vec<String>,
    /// The tools that change the list, which a reminder tells the model to use.
    pub(crate) writers: Vec<String>,
    counters: TurnCounters,
}

// Two policies are equal when they are in the same state for the same
// tools; the nag's wording is a function of the profile, which function
// pointers cannot be compared for reliably, so it is left out.
impl PartialEq for TurnPolicy {
    fn eq(&self, other: &Self) -> bool {
        self.config == other.config
            && self.todo_tools == other.todo_tools
            && self.writers == other.writers
            && self.counters == other.counters
    }
}

impl Eq for TurnPolicy {}

impl TurnPolicy {
    /// A policy for `profile` with its default configuration.
    pub fn new(profile: &Profile) -> Self {
        Self::with_config(profile, TurnConfig::for_profile(profile))
    }

    /// A policy for `profile` configured by `config`.
    pub fn with_config(profile: &Profile, config: TurnConfig) -> Self {
        Self {
            config,
            nag: profile.nag_words(),
            compaction: profile.compaction_words(),
            context: profile.context_words(),
            todo_tools: profile.tool_names().into_iter().map(str::to_owned).collect(),
            writers: profile
                .tools()
                .filter(|tool| !tool.metadata().read_only)
                .map(|tool| tool.name().to_owned())
                .collect(),
            counters: TurnCounters::default(),
        }
    }

    /// Picks up from saved counters.
    pub fn with_counters(mut self, counters: TurnCounters) -> Self {
        self.counters = counters;
        self
    }

    /// Its configuration.
    pub fn config(&self) -> &TurnConfig {
        &self.config
    }

    /// Its counters, to save with the conversation.
    pub fn counters(&self) -> &TurnCounters {
        &self.counters
    }

    /// The user sent a new prompt: the end-of-turn budget starts over.
    pub fn on_user_prompt(&mut self) {
        self.counters.end_of_turn_reminders = 0;
        self.counters.last_open_set = None;
    }

    /// A round of tool calls ran; `list` is the todo list now. Returns the
    /// nag when it is due.
    pub fn on_tool_results(&mut self, round: &[CallRecord], list: &TodoState) -> Vec<Injection> {
        let todo_calls: Vec<&CallRecord> = round
            .iter()
            .filter(|c| self.todo_tools.contains(&c.tool))
            .collect();
        if let Some(last) = todo_calls.last() {
            self.counters.rounds_since_todo = 0;
            self.counters.stale_tool =
                (last.is_error && self.config.stale_reminder).then(|| last.tool.clone());
            return Vec::new();
        }
        self.counters.rounds_since_todo += 1;
        let every = self.config.nag_after_rounds;
        let due = every > 0 && self.counters.rounds_since_todo.is_multiple_of(every);
        if due && (!list.is_empty() || self.config.nag_when_empty) {
            let text = match &self.config.nag_text {
                Some(text) => text.clone(),
                None => (self.nag)(list),
            };
            return vec![reminder(Placement::AfterToolResults, ReminderKind::Nag, &text)];
        }
        Vec::new()
    }

    /// The host is about to send the next request; `notices` are what
    /// [`crate::service::TodoWriteService::take_notices`] returned. Returns the stale-list
    /// reminder (once per failed call) and one reminder per hand edit.
    pub fn before_request(&mut self, notices: &[Notice]) -> Vec<Injection> {
        let mut out = Vec::new();
        if let Some(tool) = self.counters.stale_tool.take() {
            out.push(reminder(
                Placement::BeforeRequest,
                ReminderKind::StaleList,
                &stale_list_reminder(&tool),
            ));
        }
        if self.config.user_edit_reminders {
            out.extend(
                notices
                    .iter()
                    .map(|n| reminder(Placement::BeforeRequest, ReminderKind::UserEdit, &n.text)),
            );
        }
        out
    }

    /// What the profile's agent puts before every request, `list` being
    /// the todo list now (Goose restates its todo on every turn, so the
    /// model sees it after any compaction); `None` for a profile that does
    /// not. A host calls it with [`TurnPolicy::before_request`] and sends
    /// it with that request only: the next request gets a fresh one.
    pub fn context(&self, list: &TodoState) -> Option<Injection> {
        self.context.map(|words| Injection {
            placement: Placement::BeforeRequest,
            kind: ReminderKind::Context,
            text: words(list),
        })
    }

    /// The model wants to end its turn with `list` as it stands.
    pub fn on_turn_end(&mut self, list: &TodoState) -> TurnEnd {
        let Some(words) = end_of_turn_reminder(list) else {
            return TurnEnd::End;
        };
        let open = open_set(list);
        let warning = format!(
            "The agent ended its turn with {} open todo item{}: {}.",
            open.len(),
            if open.len() == 1 { "" } else { "s" },
            list.open_tasks()
                .iter()
                .map(|(_, t)| t.content.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        );
        match self.config.end_of_turn {
            Enforcement::Off => TurnEnd::End,
            Enforcement::Soft => TurnEnd::EndWithWarning(warning),
            Enforcement::Strict => {
                let max = self.config.max_end_of_turn_reminders;
                let unchanged = self.counters.last_open_set.as_ref() == Some(&open);
                if unchanged || self.counters.end_of_turn_reminders >= max {
                    return TurnEnd::EndWithWarning(warning);
                }
                self.counters.end_of_turn_reminders += 1;
                self.counters.last_open_set = Some(open);
                let k = self.counters.end_of_turn_reminders;
                let text = format!("{words}\n(Reminder {k}/{max})");
                TurnEnd::Continue(reminder(Placement::BeforeRequest, ReminderKind::EndOfTurn, &text))
            }
        }
    }
}

/// The open items, as `phase/status/content` keys, to tell whether the
/// model changed anything since the last reminder.
pub fn open_set(list: &TodoState) -> Vec<String> {
    list.open_tasks()
        .iter()
        .map(|(p, t)| format!("{}/{}/{}", p.name, t.status, t.content))
        .collect()
}
