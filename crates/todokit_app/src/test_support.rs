//! Helpers shared by this crate's tests.

use std::path::Path;

/// insta settings that write snapshots to the workspace's `snapshots/`.
pub fn snapshot_settings() -> insta::Settings {
    let mut settings = insta::Settings::clone_current();
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("crates live two levels below the workspace root");
    settings.set_snapshot_path(workspace.join("snapshots"));
    settings.set_omit_expression(true);
    settings
}

/// The time every profile test runs at.
pub const NOW: u64 = 1_700_000_000_000;

/// Runs tool `tool` of `profile` on `state` at [`NOW`] with a durable store,
/// through the decoding layer, as the service would.
pub fn run_tool(
    profile: &crate::Profile,
    tool: &str,
    state: &todokit_domain::TodoState,
    args: &str,
) -> crate::Outcome {
    let ctx = crate::CallContext::new(state, NOW, profile.rules()).durable(true);
    let args = crate::parse_arguments(args).expect("test arguments are JSON");
    profile.run(tool, &args, &ctx).expect("the profile has the tool")
}

/// The message of every problem an error result reports.
pub fn problem_messages(outcome: &crate::Outcome) -> Vec<String> {
    outcome.result.details.value()["error"]["problems"]
        .as_array()
        .map(|ps| {
            ps.iter()
                .map(|p| p["message"].as_str().unwrap_or_default().to_owned())
                .collect()
        })
        .unwrap_or_default()
}

/// A store that keeps lists in a map, for the service's own tests (the
/// real stores live in the infra crate, which depends on this one).
#[derive(Default)]
pub struct MapStore(std::sync::Mutex<std::collections::HashMap<String, todokit_domain::TodoState>>);

#[async_trait::async_trait]
impl crate::ConversationContext for MapStore {
    async fn load(&self, conversation: &str) -> Result<todokit_domain::TodoState, crate::StoreError> {
        let lists = self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        Ok(lists.get(conversation).cloned().unwrap_or_default())
    }

    async fn save(
        &self,
        conversation: &str,
        expected: u64,
        state: &todokit_domain::TodoState,
    ) -> Result<(), crate::StoreError> {
        let mut lists = self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let found = lists.get(conversation).map_or(0, |s| s.version);
        if found != expected {
            return Err(crate::StoreError::Conflict {
                conversation: conversation.to_owned(),
                expected,
                found,
            });
        }
        lists.insert(conversation.to_owned(), state.clone());
        Ok(())
    }

    fn is_durable(&self) -> bool {
        false
    }
}

/// A service for the profile called `name` over a [`MapStore`].
pub fn memory_service(name: &str) -> crate::TodoWriteService {
    crate::TodoWriteService::new(
        crate::profiles::by_name(name).expect("the profile exists"),
        std::sync::Arc::new(MapStore::default()),
        std::sync::Arc::new(crate::ManualClock::new(0)),
    )
}

/// Polls `future` to its end on this thread. Enough for the service over a
/// [`MapStore`], which never waits on anything.
pub fn block_on<F: std::future::Future>(future: F) -> F::Output {
    let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    let mut future = std::pin::pin!(future);
    loop {
        if let std::task::Poll::Ready(out) = future.as_mut().poll(&mut cx) {
            return out;
        }
    }
}
