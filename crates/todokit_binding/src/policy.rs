//! [`BoundPolicy`]: a conversation's turn policy bound to its kit, as a
//! binding holds it. The hooks that need the list read it from the store
//! (call them where blocking is allowed: a binding's worker thread, or
//! with its interpreter's lock released).

use std::sync::{Mutex, PoisonError};

use todokit::app::ServiceError;
use todokit::app::turn::{CallRecord, Enforcement, Injection, TurnConfig, TurnCounters, TurnEnd, TurnPolicy};

use crate::Handle;

/// One conversation's turn policy on one kit.
pub struct BoundPolicy {
    handle: Handle,
    conversation: String,
    policy: Mutex<TurnPolicy>,
}

impl std::fmt::Debug for BoundPolicy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BoundPolicy")
            .field("conversation", &self.conversation)
            .finish_non_exhaustive()
    }
}

/// How strict the end of a turn is, by its word (`off`, `soft`, `strict`).
pub fn enforcement(word: &str) -> Result<Enforcement, String> {
    match word {
        "off" => Ok(Enforcement::Off),
        "soft" => Ok(Enforcement::Soft),
        "strict" => Ok(Enforcement::Strict),
        other => Err(format!(
            "end_of_turn must be one of off, soft, strict; got {other:?}"
        )),
    }
}

/// What `on_turn_end` decided, in the shape bindings hand over:
/// `{"action": "end"|"warn"|"continue", "text", "injection"}`.
pub fn turn_end_document(end: &TurnEnd) -> serde_json::Value {
    use serde_json::json;
    match end {
        TurnEnd::End => json!({"action": "end", "text": null, "injection": null}),
        TurnEnd::EndWithWarning(warning) => json!({"action": "warn", "text": warning, "injection": null}),
        TurnEnd::Continue(injection) => {
            json!({"action": "continue", "text": injection.text, "injection": injection})
        }
    }
}

impl BoundPolicy {
    /// The policy of `conversation` on `handle`'s profile: `end_of_turn` by
    /// its word, `nag_after_rounds` over the profile's, `counters` (JSON
    /// text of a policy's counters) to pick up where one left off.
    pub fn new(
        handle: Handle,
        conversation: String,
        end_of_turn: &str,
        nag_after_rounds: Option<usize>,
        counters: Option<&str>,
    ) -> Result<Self, String> {
        let profile = handle.service.profile();
        let mut config = TurnConfig::for_profile(profile).end_of_turn(enforcement(end_of_turn)?);
        if let Some(rounds) = nag_after_rounds {
            config = config.nag_after_rounds(rounds);
        }
        let mut policy = TurnPolicy::with_config(profile, config);
        if let Some(counters) = counters {
            let counters: TurnCounters =
                serde_json::from_str(counters).map_err(|e| format!("counters: {e}"))?;
            policy = policy.with_counters(counters);
        }
        Ok(Self {
            handle,
            conversation,
            policy: Mutex::new(policy),
        })
    }

    fn with<T>(&self, work: impl FnOnce(&mut TurnPolicy) -> T) -> T {
        // The counters stay consistent even if a hook panicked mid-way:
        // each hook updates them as its last step.
        work(&mut self.policy.lock().unwrap_or_else(PoisonError::into_inner))
    }

    fn list(&self) -> Result<todokit::domain::TodoState, ServiceError> {
        self.handle.block(self.handle.service.state(&self.conversation))
    }

    /// The user sent a new prompt.
    pub fn on_user_prompt(&self) {
        self.with(TurnPolicy::on_user_prompt);
    }

    /// A round of tool calls ran (`(tool, is_error)` each): the nag when due.
    pub fn on_tool_results(&self, round: Vec<(String, bool)>) -> Result<Vec<Injection>, ServiceError> {
        let list = self.list()?;
        let records: Vec<CallRecord> = round
            .into_iter()
            .map(|(tool, error)| CallRecord::new(tool, error))
            .collect();
        Ok(self.with(|policy| policy.on_tool_results(&records, &list)))
    }

    /// Before the next request: the stale-list reminder and one per hand
    /// edit the store holds (taken, so each is told once).
    pub fn before_request(&self) -> Result<Vec<Injection>, ServiceError> {
        let notices = self
            .handle
            .block(self.handle.service.take_notices(&self.conversation))?;
        Ok(self.with(|policy| policy.before_request(&notices)))
    }

    /// What the profile restates before every request (at most one).
    pub fn context(&self) -> Result<Vec<Injection>, ServiceError> {
        let list = self.list()?;
        Ok(self.with(|policy| policy.context(&list)).into_iter().collect())
    }

    /// After the host compacted the conversation: the list to put back.
    pub fn on_compaction(&self) -> Result<Vec<Injection>, ServiceError> {
        let list = self.list()?;
        Ok(self
            .with(|policy| policy.on_compaction(&list))
            .into_iter()
            .collect())
    }

    /// The model wants to end its turn with the list as stored.
    pub fn on_turn_end(&self) -> Result<TurnEnd, ServiceError> {
        let list = self.list()?;
        Ok(self.with(|policy| policy.on_turn_end(&list)))
    }

    /// The policy's memory of the conversation.
    pub fn counters(&self) -> TurnCounters {
        self.with(|policy| policy.counters().clone())
    }
}
