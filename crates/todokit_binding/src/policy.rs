//! [`BoundPolicy`]: a conversation's turn, driven by the Rust
//! [`TurnDriver`] on a binding's kit. What the turn remembers lives in the
//! conversation's stored record, so a second kit (another process, or this
//! one after a restart) on the same store carries on the same turn. Every
//! hook reads and writes the store: call them where blocking is allowed
//! (a binding's worker thread, or with its interpreter's lock released).

use std::sync::{Mutex, PoisonError};

use todokit::app::ServiceError;
use todokit::{CallRecord, Delivery, Enforcement, Injection, TurnConfig, TurnCounters, TurnDriver, TurnEnd};

use crate::Handle;

/// One call of a round as a binding hands it over: the tool, whether its
/// result was an error, and the host's id of the call where it has one.
pub type RoundEntry = (String, bool, Option<String>);

/// One conversation's turn on one kit.
pub struct BoundPolicy {
    handle: Handle,
    conversation: String,
    driver: TurnDriver,
    /// Counters the host asked to carry on from, stored by the first hook
    /// (making a policy does no I/O).
    counters: Mutex<Option<TurnCounters>>,
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

fn records(round: Vec<RoundEntry>) -> Vec<CallRecord> {
    round
        .into_iter()
        .map(|(tool, error, id)| {
            let record = CallRecord::new(tool, error);
            match id {
                Some(id) => record.with_id(id),
                None => record,
            }
        })
        .collect()
}

impl BoundPolicy {
    /// The turn of `conversation` on `handle`'s profile. `end_of_turn` (by
    /// its word) is stored with the conversation when given; without it,
    /// the conversation keeps what a host stored before, else `soft`.
    /// `nag_after_rounds` overrides the profile's; `counters` (a policy's
    /// counters, as `counters()` gave them) replaces what the conversation
    /// holds.
    pub fn new(
        handle: Handle,
        conversation: String,
        end_of_turn: Option<&str>,
        nag_after_rounds: Option<usize>,
        counters: Option<serde_json::Value>,
    ) -> Result<Self, String> {
        let end_of_turn = end_of_turn.map(enforcement).transpose()?;
        let counters = counters
            .map(|given| serde_json::from_value::<TurnCounters>(given).map_err(|e| format!("counters: {e}")))
            .transpose()?;
        let service = handle.service.clone();
        let mut config = TurnConfig::for_profile(service.profile());
        if let Some(rounds) = nag_after_rounds {
            config = config.nag_after_rounds(rounds);
        }
        let mut driver = TurnDriver::with_config(service, config);
        if let Some(enforcement) = end_of_turn {
            // Stored with the hook's own change, not by a commit of its own.
            driver = driver.storing_end_of_turn(enforcement);
        }
        Ok(Self {
            handle,
            conversation,
            driver,
            counters: Mutex::new(counters),
        })
    }

    /// Runs `hook` on the driver, after storing the host's counters if they
    /// are not stored yet (kept for the next hook when that fails).
    fn run<T>(
        &self,
        hook: impl AsyncFnOnce(&TurnDriver, &str) -> Result<T, ServiceError>,
    ) -> Result<T, ServiceError> {
        self.handle.block(async {
            let conversation = self.conversation.as_str();
            let counters = self
                .counters
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .take();
            if let Some(counters) = counters
                && let Err(error) = self.driver.set_counters(conversation, counters.clone()).await
            {
                *self.counters.lock().unwrap_or_else(PoisonError::into_inner) = Some(counters);
                return Err(error);
            }
            hook(&self.driver, conversation).await
        })
    }

    /// The user sent a new prompt: the end-of-turn budget starts over.
    pub fn on_user_prompt(&self) -> Result<(), ServiceError> {
        self.run(async |driver, conversation| driver.user_prompt(conversation).await)
    }

    /// A round of tool calls ran: what it calls for (the nag when due)
    /// waits for [`BoundPolicy::before_request`].
    pub fn on_tool_results(&self, round: Vec<RoundEntry>) -> Result<(), ServiceError> {
        let round = records(round);
        self.run(async |driver, conversation| driver.tool_results(conversation, &round).await)
    }

    /// Before the next request: everything due (see
    /// [`TurnDriver::model_request`]), `round` being the round just run
    /// when the host hands it over here rather than to
    /// [`BoundPolicy::on_tool_results`].
    pub fn before_request(&self, round: Option<Vec<RoundEntry>>) -> Result<Vec<Injection>, ServiceError> {
        let round = round.map(records);
        self.run(async |driver, conversation| driver.model_request(conversation, round.as_deref()).await)
    }

    /// After the host compacted the conversation: the list to put back.
    pub fn on_compaction(&self) -> Result<Vec<Injection>, ServiceError> {
        self.run(async |driver, conversation| driver.compaction(conversation).await)
    }

    /// The model wants to end its turn with the list as stored; with
    /// `carry`, a reminder to go on waits for the next request.
    pub fn on_turn_end(&self, carry: bool) -> Result<TurnEnd, ServiceError> {
        let delivery = if carry {
            Delivery::NextRequest
        } else {
            Delivery::Host
        };
        self.run(async |driver, conversation| driver.turn_end(conversation, delivery).await)
    }

    /// The counters as the conversation holds them.
    pub fn counters(&self) -> Result<TurnCounters, ServiceError> {
        self.run(async |driver, conversation| Ok(driver.record(conversation).await?.counters))
    }
}
