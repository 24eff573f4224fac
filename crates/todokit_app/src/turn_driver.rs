//! The agent loop written once: [`TurnDriver`] runs a conversation's
//! [`TurnPolicy`] at each point of a host's loop, keeping what the policy
//! remembers (its counters, the reminders waiting for the next request,
//! how strict the end of a turn is) in the conversation's [`TurnRecord`],
//! stored in the same store beside the list, under the conversation's id
//! followed by [`todokit_domain::turn::TURN_KEY_SUFFIX`]. A second process, or the same one
//! after a restart, carries on the same turn; nothing is kept in memory to
//! be evicted. The list itself, its version and its feeds see none of
//! this: a hook changes the list only when it takes the user's edit
//! notices, as taking them always has.
//!
//! Each hook is one call that returns what to inject, committed with the
//! list's compare-and-swap like every other change. A framework adapter
//! only translates its own hooks into these:
//!
//! | the host's loop | hook |
//! |---|---|
//! | the user sends a prompt | [`TurnDriver::user_prompt`] |
//! | a round of tool calls ran | [`TurnDriver::tool_results`] (what it decides waits for the next request) |
//! | before a model request | [`TurnDriver::model_request`] (may take the round just run too) |
//! | the model ends its turn | [`TurnDriver::turn_end`] |
//! | the host compacted the conversation | [`TurnDriver::compaction`] |
//!
//! The record's key is hidden from [`TodoWriteService::conversations`]; a
//! conversation whose own id ends with the suffix is hidden with it.

use todokit_domain::turn::{Enforcement, Injection, TurnCounters, TurnRecord, turn_key};
use todokit_domain::{Notice, TodoState};

use crate::service::{MAX_COMMIT_ATTEMPTS, ServiceError, TodoWriteService};
use crate::turn::{CallRecord, TurnConfig, TurnEnd, TurnPolicy};

/// Where the reminder of a [`TurnEnd::Continue`] goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Delivery {
    /// The driver keeps it and [`TurnDriver::model_request`] hands it
    /// over with the next request (a host whose loop goes straight back
    /// to the model).
    NextRequest,
    /// The host delivers it itself (a new run's prompt, a hook's answer);
    /// the driver does not keep it.
    Host,
}

/// One kit's agent loop over its service; see the module docs.
#[derive(Clone)]
pub struct TurnDriver {
    service: TodoWriteService,
    config: TurnConfig,
    /// How strict the end of a turn is, stored with every conversation
    /// this driver touches ([`TurnDriver::storing_end_of_turn`]).
    stored_end_of_turn: Option<Enforcement>,
}

impl std::fmt::Debug for TurnDriver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TurnDriver")
            .field("profile", &self.service.profile().name())
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

impl TurnDriver {
    /// A driver for `service`'s profile with its default configuration.
    pub fn new(service: TodoWriteService) -> Self {
        let config = TurnConfig::for_profile(service.profile());
        Self::with_config(service, config)
    }

    /// A driver configured by `config`. Its `end_of_turn` holds for a
    /// conversation whose record does not say otherwise
    /// ([`TurnDriver::set_end_of_turn`]).
    pub fn with_config(service: TodoWriteService, config: TurnConfig) -> Self {
        Self {
            service,
            config,
            stored_end_of_turn: None,
        }
    }

    /// The same driver, storing `enforcement` as how strict the end of a
    /// turn is with each conversation it touches (in the same commit as
    /// the hook's own change), as [`TurnDriver::set_end_of_turn`] would:
    /// for a host that states it on every turn.
    pub fn storing_end_of_turn(mut self, enforcement: Enforcement) -> Self {
        self.stored_end_of_turn = Some(enforcement);
        self
    }

    /// Its service.
    pub fn service(&self) -> &TodoWriteService {
        &self.service
    }

    /// Its configuration.
    pub fn config(&self) -> &TurnConfig {
        &self.config
    }

    /// The record of `conversation` as stored (empty when no hook ran yet).
    pub async fn record(&self, conversation: &str) -> Result<TurnRecord, ServiceError> {
        let stored = self.service.state(&turn_key(conversation)).await?;
        Ok(stored.turn.map(|record| *record).unwrap_or_default())
    }

    /// Makes the end of `conversation`'s turns `enforcement` from now on,
    /// for every driver that serves it.
    pub async fn set_end_of_turn(
        &self,
        conversation: &str,
        enforcement: Enforcement,
    ) -> Result<(), ServiceError> {
        self.step(conversation, Needs::Record, |_, _, _, record| {
            record.end_of_turn = Some(enforcement);
        })
        .await
    }

    /// Replaces `conversation`'s counters (rebuilt from a transcript, or
    /// kept by the host before it had a driver).
    pub async fn set_counters(&self, conversation: &str, counters: TurnCounters) -> Result<(), ServiceError> {
        self.step(conversation, Needs::Record, move |_, _, policy, _| {
            *policy = policy.clone().with_counters(counters.clone());
        })
        .await
    }

    /// The user sent a new prompt: the end-of-turn budget starts over.
    pub async fn user_prompt(&self, conversation: &str) -> Result<(), ServiceError> {
        self.step(conversation, Needs::Record, |_, _, policy, _| {
            policy.on_user_prompt()
        })
        .await
    }

    /// A round of tool calls ran. What it calls for (the nag when due)
    /// waits in the record for the next [`TurnDriver::model_request`].
    /// Calls with an id already told are not counted again; a round whose
    /// every call was told is no round.
    pub async fn tool_results(&self, conversation: &str, round: &[CallRecord]) -> Result<(), ServiceError> {
        self.step(conversation, Needs::List, |list, _, policy, record| {
            let nag = apply_round(list, policy, record, round);
            record.queue(nag);
        })
        .await
    }

    /// Before a model request: what waits in the record, then (when the
    /// host hands over the round just run, see [`TurnDriver::tool_results`])
    /// what that round calls for, the stale-list reminder, one reminder per
    /// hand edit of the user (taken, so each is told once) and what the
    /// profile restates before every request. The request carries them;
    /// the record keeps none of them.
    pub async fn model_request(
        &self,
        conversation: &str,
        round: Option<&[CallRecord]>,
    ) -> Result<Vec<Injection>, ServiceError> {
        self.step(
            conversation,
            Needs::ListAndNotices,
            |list, notices, policy, record| {
                let mut out = std::mem::take(&mut record.pending);
                if let Some(round) = round {
                    out.extend(apply_round(list, policy, record, round));
                }
                out.extend(policy.before_request(notices));
                out.extend(policy.context(list));
                out
            },
        )
        .await
    }

    /// The model wants to end its turn with the list as stored. A
    /// [`TurnEnd::Continue`]'s reminder is kept for the next request when
    /// `delivery` says so.
    pub async fn turn_end(&self, conversation: &str, delivery: Delivery) -> Result<TurnEnd, ServiceError> {
        self.step(conversation, Needs::List, |list, _, policy, record| {
            let end = policy.on_turn_end(list);
            if let (TurnEnd::Continue(injection), Delivery::NextRequest) = (&end, delivery) {
                record.queue([injection.clone()]);
            }
            end
        })
        .await
    }

    /// After the host compacted the conversation: the list to put back.
    pub async fn compaction(&self, conversation: &str) -> Result<Vec<Injection>, ServiceError> {
        // Nothing of the record changes: the policy's words for the list
        // depend on the list alone.
        let list = self.service.view(conversation).await?;
        let policy = TurnPolicy::with_config(self.service.profile(), self.config.clone());
        Ok(policy.on_compaction(&list).into_iter().collect())
    }

    /// Runs `work` on the policy and record of `conversation` as stored,
    /// with what it reads (`needs`): the list as it stands (else an empty
    /// one) and the user's edit notices (taken from the list first); commits
    /// the record when it changed, only while the list is still the one
    /// read (so a record is never made from a list forgotten meanwhile); on
    /// a conflict, reads the list again and runs `work` again.
    async fn step<T>(
        &self,
        conversation: &str,
        needs: Needs,
        mut work: impl FnMut(&TodoState, &[Notice], &mut TurnPolicy, &mut TurnRecord) -> T,
    ) -> Result<T, ServiceError> {
        let notices = match needs {
            Needs::ListAndNotices => self.service.take_notices(conversation).await?,
            Needs::Record | Needs::List => Vec::new(),
        };
        let empty = TodoState::new();
        for _ in 0..MAX_COMMIT_ATTEMPTS {
            // Read even when the hook does not use it: the record is
            // written against its version.
            let list = self.service.view(conversation).await?;
            let shown = match needs {
                Needs::Record => &empty,
                Needs::List | Needs::ListAndNotices => &list,
            };
            let committed = self
                .service
                .commit_record(conversation, list.version, |stored| {
                    let before = stored.turn.as_deref().cloned().unwrap_or_default();
                    let mut record = before.clone();
                    if let Some(enforcement) = self.stored_end_of_turn {
                        record.end_of_turn = Some(enforcement);
                    }
                    let mut config = self.config.clone();
                    if let Some(enforcement) = record.end_of_turn {
                        config.end_of_turn = enforcement;
                    }
                    let mut policy = TurnPolicy::with_config(self.service.profile(), config)
                        .with_counters(record.counters.clone());
                    let value = work(shown, &notices, &mut policy, &mut record);
                    record.counters = policy.counters().clone();
                    if record == before {
                        return (None, value);
                    }
                    let mut next = stored.clone();
                    next.turn = Some(Box::new(record));
                    (Some(next), value)
                })
                .await?;
            if let Some(value) = committed {
                return Ok(value);
            }
        }
        Err(ServiceError::Contention {
            conversation: conversation.to_owned(),
            attempts: MAX_COMMIT_ATTEMPTS,
        })
    }
}

/// What a hook reads besides the record.
#[derive(Debug, Clone, Copy)]
enum Needs {
    /// Nothing.
    Record,
    /// The list.
    List,
    /// The list, and the user's edit notices taken from it.
    ListAndNotices,
}

/// Tells `policy` of `round` (less the calls already told) and remembers
/// its ids; what the round calls for.
fn apply_round(
    list: &TodoState,
    policy: &mut TurnPolicy,
    record: &mut TurnRecord,
    round: &[CallRecord],
) -> Vec<Injection> {
    let fresh: Vec<CallRecord> = round
        .iter()
        .filter(|call| call.id.as_deref().is_none_or(|id| !record.was_told(id)))
        .cloned()
        .collect();
    if fresh.is_empty() && !round.is_empty() {
        return Vec::new();
    }
    record.remember_round(round.iter().filter_map(|call| call.id.as_deref()));
    policy.on_tool_results(&fresh, list)
}
