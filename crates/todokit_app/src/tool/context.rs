//! What a tool sees of the world during one call ([`CallContext`]), and
//! what it gives back ([`Outcome`]).

use std::sync::Arc;

use todokit_domain::{ListRules, Timestamp, TodoState};

use super::mode::HostMode;
use super::result::ToolResult;
use crate::details::Details;

/// What a call gives the service: the result, and the state to commit if
/// the call changed the list.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// The new state to store; `None` when nothing is to be written.
    pub commit: Option<TodoState>,
    /// What the model sees.
    pub result: ToolResult,
}

impl Outcome {
    /// A call that only reads.
    pub fn read(result: ToolResult) -> Self {
        Self { commit: None, result }
    }

    /// A call that writes `state`.
    pub fn commit(state: TodoState, result: ToolResult) -> Self {
        Self {
            commit: Some(state),
            result,
        }
    }
}

/// What a tool sees of the world during one call.
#[derive(Debug, Clone, Copy)]
pub struct CallContext<'a> {
    /// The list as stored before the call.
    pub state: &'a TodoState,
    /// The time of the call.
    pub now: Timestamp,
    /// The profile's rules.
    pub rules: &'a ListRules,
    /// Whether what the call commits survives the process.
    pub durable: bool,
    /// The host's mode when the model made the call.
    pub mode: HostMode,
    /// `state`, shared, when the caller binds the committed list to the
    /// result afterwards (the service does): details may then be deferred.
    shared: Option<&'a Arc<TodoState>>,
}

impl<'a> CallContext<'a> {
    /// A context for a call at `now` on `state` under `rules`, with a store
    /// that is not durable.
    pub fn new(state: &'a TodoState, now: Timestamp, rules: &'a ListRules) -> Self {
        Self {
            state,
            now,
            rules,
            durable: false,
            mode: HostMode::Default,
            shared: None,
        }
    }

    /// A context whose state is `shared`, for a caller that binds the list
    /// each call commits to its result's details
    /// ([`crate::details::Details::bind_after`]), as the service does: a
    /// host that runs tools itself gets details written only when read.
    pub fn shared(state: &'a Arc<TodoState>, now: Timestamp, rules: &'a ListRules) -> Self {
        Self {
            shared: Some(state),
            ..Self::new(state, now, rules)
        }
    }

    /// The details `write` gives from the list before the call and `after`,
    /// the list it leaves: written when first read if the caller binds the
    /// committed list to the result (the service does), else written now.
    /// A tool whose details cost more than its result text uses this, so a
    /// host that never reads them does not pay for them.
    pub fn details(
        &self,
        after: &TodoState,
        write: impl FnOnce(&TodoState, &TodoState) -> Details + Send + 'static,
    ) -> Details {
        match self.shared {
            Some(before) => Details::deferred(Arc::clone(before), write),
            None => write(self.state, after),
        }
    }

    /// Says which mode the host is in.
    pub fn mode(mut self, mode: HostMode) -> Self {
        self.mode = mode;
        self
    }

    /// Says whether the store keeps what is committed.
    pub fn durable(mut self, durable: bool) -> Self {
        self.durable = durable;
        self
    }
}
