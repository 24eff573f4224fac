//! [`NativeKit`]: one service (a profile over a store) as Node holds it.

use std::path::PathBuf;
use std::sync::{Mutex, PoisonError, RwLock};

use napi::bindgen_prelude::*;
use napi_derive::napi;
use todokit::EditList;
use todokit_binding::{self as binding, FeedCloser, Handle, messages};

use todokit_binding::ErrorCode;

use crate::errors::{self, tagged};
use crate::feed::NativeFeed;
use crate::jobs::{CallAnswer, CallJob, Json, MaybeTextJob, Now, RoundJob, ValueJob, document, value};
use crate::policy::NativePolicy;
use serde_json::Value;

/// One profile over one store (`Todokit` in the TypeScript layer wraps it).
#[napi]
pub struct NativeKit {
    handle: RwLock<Option<Handle>>,
    /// Whether the store needs its runtime (PostgreSQL): `callSync` then
    /// refuses rather than block the event loop on the network.
    needs_runtime: bool,
    /// Whether the store does no I/O (memory): its work then runs at once
    /// (see `jobs`).
    now: bool,
    /// The open feeds, so `close()` ends them.
    feeds: Mutex<Vec<FeedCloser>>,
}

fn mode(word: Option<String>) -> Result<todokit::CallOptions> {
    binding::call_options(word.as_deref().unwrap_or("default")).map_err(|m| tagged(ErrorCode::Usage, m))
}

#[napi]
impl NativeKit {
    /// A kit for `profile` over the store given: `memory`, a `databaseUrl`
    /// (PostgreSQL), a `storeDir`, or else the command's default folder.
    #[napi(constructor)]
    pub fn new(
        profile: String,
        store_dir: Option<String>,
        memory: Option<bool>,
        database_url: Option<String>,
    ) -> Result<Self> {
        let memory = memory.unwrap_or(false);
        let names = ["storeDir", "memory", "databaseUrl"];
        let store = binding::store_location(store_dir.map(PathBuf::from), memory, database_url, names)
            .map_err(|message| tagged(ErrorCode::Usage, message))?;
        let handle = binding::open(&profile, store).map_err(errors::open)?;
        Ok(Self {
            needs_runtime: handle.on_runtime(),
            handle: RwLock::new(Some(handle)),
            now: memory,
            feeds: Mutex::new(Vec::new()),
        })
    }

    fn handle(&self) -> Result<Handle> {
        let handle = self.handle.read().unwrap_or_else(PoisonError::into_inner);
        handle
            .clone()
            .ok_or_else(|| tagged(ErrorCode::Usage, messages::CLOSED))
    }

    /// The profile: name, summary, system prompt, tools, upstream and
    /// example call.
    #[napi(ts_return_type = "unknown")]
    pub fn profile(&self) -> Result<Value> {
        Ok(binding::profile_document(&self.handle()?.service))
    }

    /// The profile's tool definitions for `target`.
    #[napi(ts_return_type = "unknown")]
    pub fn definitions(&self, target: String) -> Result<Value> {
        let handle = self.handle()?;
        binding::definitions_for(&handle.service, &target).map_err(|m| tagged(ErrorCode::Usage, m))
    }

    /// One call on this thread (memory and file stores only).
    #[napi]
    pub fn call_sync(
        &self,
        conversation: String,
        tool: String,
        arguments: Buffer,
        mode_word: Option<String>,
    ) -> Result<CallAnswer> {
        if self.needs_runtime {
            return Err(tagged(
                ErrorCode::Unsupported,
                messages::blocking_on_database("callSync", "await call()"),
            ));
        }
        let handle = self.handle()?;
        let options = mode(mode_word)?;
        handle
            .block(binding::call_bytes(
                &handle.service,
                &conversation,
                &tool,
                arguments.to_vec(),
                options,
            ))
            .map(CallAnswer::from)
            .map_err(errors::service)
    }

    /// One call on a worker thread.
    #[napi(ts_return_type = "CallAnswer | Promise<CallAnswer>")]
    pub fn call(
        &self,
        conversation: String,
        tool: String,
        arguments: Buffer,
        mode_word: Option<String>,
    ) -> Result<Now<CallAnswer, CallJob>> {
        let handle = self.handle()?;
        let options = mode(mode_word)?;
        let arguments = arguments.to_vec();
        CallJob::run(self.now, move || {
            handle
                .block(binding::call_bytes(
                    &handle.service,
                    &conversation,
                    &tool,
                    arguments,
                    options,
                ))
                .map(CallAnswer::from)
                .map_err(errors::service)
        })
    }

    /// The calls of one model turn (`tools[i]` with `arguments[i]`).
    #[napi(ts_return_type = "CallAnswer[] | Promise<CallAnswer[]>")]
    pub fn call_round(
        &self,
        conversation: String,
        tools: Vec<String>,
        arguments: Vec<Buffer>,
        mode_word: Option<String>,
    ) -> Result<Now<Vec<CallAnswer>, RoundJob>> {
        if tools.len() != arguments.len() {
            return Err(tagged(
                ErrorCode::Usage,
                messages::one_per("callRound", "arguments value"),
            ));
        }
        let handle = self.handle()?;
        let options = mode(mode_word)?;
        let calls: Vec<(String, Vec<u8>)> = tools
            .into_iter()
            .zip(arguments.iter().map(|a| a.to_vec()))
            .collect();
        RoundJob::run(self.now, move || {
            handle
                .block(binding::call_round_bytes(
                    &handle.service,
                    &conversation,
                    calls,
                    options,
                ))
                .map(|answers| answers.into_iter().map(CallAnswer::from).collect())
                .map_err(errors::service)
        })
    }

    /// The stored list (`todokit show --format json`).
    #[napi(ts_return_type = "unknown")]
    pub fn state(&self, conversation: String) -> Result<Now<Json, ValueJob>> {
        let handle = self.handle()?;
        ValueJob::run(self.now, move || {
            document(
                &handle
                    .block(handle.service.state(&conversation))
                    .map_err(errors::service)?,
            )
        })
    }

    /// The store's conversations.
    #[napi(ts_return_type = "unknown")]
    pub fn conversations(&self) -> Result<Now<Json, ValueJob>> {
        let handle = self.handle()?;
        ValueJob::run(self.now, move || {
            document(
                &handle
                    .block(handle.service.conversations())
                    .map_err(errors::service)?,
            )
        })
    }

    /// Removes `conversation` for good (`todokit forget`): whether
    /// anything was stored.
    #[napi(ts_return_type = "unknown")]
    pub fn forget(&self, conversation: String) -> Result<Now<Json, ValueJob>> {
        let handle = self.handle()?;
        ValueJob::run(self.now, move || {
            value(
                &handle
                    .block(handle.service.forget(&conversation))
                    .map_err(errors::service)?,
            )
        })
    }

    /// Removes every conversation whose id starts with `prefix` and that
    /// has not changed for `idle_seconds` (`todokit prune`); with
    /// `dry_run`, only names them. The ids, sorted.
    #[napi(ts_return_type = "unknown")]
    pub fn prune(&self, idle_seconds: f64, prefix: String, dry_run: bool) -> Result<Now<Json, ValueJob>> {
        let idle = binding::idle_for(idle_seconds).map_err(|m| tagged(ErrorCode::Usage, m))?;
        let handle = self.handle()?;
        ValueJob::run(self.now, move || {
            value(
                &handle
                    .block(handle.service.prune(&prefix, idle, dry_run))
                    .and_then(binding::pruned_ids)
                    .map_err(errors::service)?,
            )
        })
    }

    /// A hand edit (the board's edit shape): what it did, or nothing when
    /// the list was already so.
    #[napi(ts_return_type = "string | null | Promise<string | null>")]
    pub fn edit(
        &self,
        conversation: String,
        #[napi(ts_arg_type = "unknown")] action: Value,
    ) -> Result<Now<Option<String>, MaybeTextJob>> {
        let handle = self.handle()?;
        let action = binding::user_action(action).map_err(|m| tagged(ErrorCode::Edit, m))?;
        MaybeTextJob::run(self.now, move || {
            handle
                .block(handle.service.edit(&conversation, action))
                .map(|edit| edit.map(|e| e.action))
                .map_err(errors::edit)
        })
    }

    /// The notices waiting for the model; taking them clears them.
    #[napi(ts_return_type = "unknown")]
    pub fn take_notices(&self, conversation: String) -> Result<Now<Json, ValueJob>> {
        let handle = self.handle()?;
        ValueJob::run(self.now, move || {
            value(
                &handle
                    .block(handle.service.take_notices(&conversation))
                    .map_err(errors::service)?,
            )
        })
    }

    /// Rebuilds `conversation` from the host's transcript (a list of
    /// OpenAI or Anthropic messages) and stores it: `{state, counters}`.
    #[napi(ts_return_type = "unknown")]
    pub fn restore(
        &self,
        conversation: String,
        #[napi(ts_arg_type = "ReadonlyArray<unknown>")] messages: Vec<Value>,
    ) -> Result<Now<Json, ValueJob>> {
        let handle = self.handle()?;
        ValueJob::run(self.now, move || {
            let replay = handle
                .block(handle.service.restore(&conversation, &messages))
                .map_err(errors::service)?;
            // The counters go back to `turnPolicy` as they came: not renamed.
            let state = document(&replay.state)?.0;
            value(&serde_json::json!({"state": state, "counters": replay.policy.counters()}))
        })
    }

    /// The turn policy of `conversation`.
    #[napi]
    pub fn turn_policy(
        &self,
        conversation: String,
        end_of_turn: Option<String>,
        nag_after_rounds: Option<u32>,
        #[napi(ts_arg_type = "Record<string, unknown> | null")] counters: Option<Value>,
    ) -> Result<NativePolicy> {
        NativePolicy::new(
            self.handle()?,
            self.now,
            conversation,
            end_of_turn.as_deref(),
            nag_after_rounds.map(|n| n as usize),
            counters,
        )
    }

    /// A live feed of `conversation`.
    #[napi]
    pub fn subscribe(&self, conversation: String) -> Result<NativeFeed> {
        let (feed, closer) = NativeFeed::open(self.handle()?, &conversation);
        let mut feeds = self.feeds.lock().unwrap_or_else(PoisonError::into_inner);
        feeds.retain(|closer| !closer.is_gone());
        feeds.push(closer);
        Ok(feed)
    }

    /// Lets go of the store and ends the open feeds; later calls throw.
    #[napi]
    pub fn close(&self) {
        let feeds = std::mem::take(&mut *self.feeds.lock().unwrap_or_else(PoisonError::into_inner));
        for closer in &feeds {
            closer.close();
        }
        self.handle.write().unwrap_or_else(PoisonError::into_inner).take();
    }

    /// Whether `close()` was called.
    #[napi(getter)]
    pub fn closed(&self) -> bool {
        self.handle.read().map(|h| h.is_none()).unwrap_or(true)
    }
}
