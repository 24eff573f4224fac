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

/// Runs `check` on every case, going on past a case that fails (an insta
/// assertion that finds a changed snapshot panics), then fails once,
/// naming every case that did: a change to several profiles shows them
/// all in one run, each with its diff.
pub fn check_every<T>(cases: impl IntoIterator<Item = (String, T)>, check: impl Fn(&str, T)) {
    let failed: Vec<String> = cases
        .into_iter()
        .filter_map(|(name, case)| {
            let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| check(&name, case)));
            run.is_err().then_some(name)
        })
        .collect();
    assert!(
        failed.is_empty(),
        "{} cases differ: {}",
        failed.len(),
        failed.join(", ")
    );
}

/// The time every profile test runs at.
pub const NOW: u64 = 1_700_000_000_000;

/// Runs tool `tool` of `profile` on `state` at [`NOW`] with a durable store,
/// through the decoding layer, as the service would.
pub fn run_tool(
    profile: &todokit_app::Profile,
    tool: &str,
    state: &todokit_domain::TodoState,
    args: &str,
) -> todokit_app::Outcome {
    let ctx = todokit_app::CallContext::new(state, NOW, profile.rules()).durable(true);
    let args = todokit_app::parse_arguments(args).expect("test arguments are JSON");
    profile.run(tool, &args, &ctx).expect("the profile has the tool")
}

/// Runs a sequence of calls of `profile` from an empty list, each on the
/// state the one before left; gives the last state and every result.
pub fn run_session(
    profile: &todokit_app::Profile,
    calls: &[(&str, &str)],
) -> (todokit_domain::TodoState, Vec<todokit_app::ToolResult>) {
    let mut state = todokit_domain::TodoState::new();
    let mut results = Vec::new();
    for (tool, args) in calls {
        let outcome = run_tool(profile, tool, &state, args);
        if let Some(next) = outcome.commit {
            state = next;
        }
        results.push(outcome.result);
    }
    (state, results)
}

/// The message of every problem an error result reports.
pub fn problem_messages(outcome: &todokit_app::Outcome) -> Vec<String> {
    outcome.result.details.value()["error"]["problems"]
        .as_array()
        .map(|ps| {
            ps.iter()
                .map(|p| p["message"].as_str().unwrap_or_default().to_owned())
                .collect()
        })
        .unwrap_or_default()
}

/// For each argument text of `fixture`, a call of `tool` on an empty list:
/// whether it stored anything, and the problems it reports.
pub fn refusals(profile: &todokit_app::Profile, tool: &str, fixture: &[&str]) -> Vec<(bool, Vec<String>)> {
    fixture
        .iter()
        .map(|args| {
            let outcome = run_tool(profile, tool, &todokit_domain::TodoState::new(), args);
            (outcome.commit.is_some(), problem_messages(&outcome))
        })
        .collect()
}

/// What a call came to, whole: whether it was an error, the problems it
/// reports, and what it stored.
pub fn verdict(outcome: todokit_app::Outcome) -> (bool, Vec<String>, Option<todokit_domain::TodoState>) {
    (
        outcome.result.is_error,
        problem_messages(&outcome),
        outcome.commit,
    )
}

/// Whether a call was an error, and one field of its details.
pub fn detail(outcome: &todokit_app::Outcome, key: &str) -> (bool, serde_json::Value) {
    (
        outcome.result.is_error,
        outcome.result.details.value()[key].clone(),
    )
}

/// One profile under test: its tools called as the service would call
/// them, at [`NOW`], and what they stored read back. Every profile's tests
/// use it, so none keeps helpers of its own.
pub struct ProfileCase {
    profile: todokit_app::Profile,
}

impl ProfileCase {
    /// Tests of `profile`.
    pub fn new(profile: todokit_app::Profile) -> Self {
        Self { profile }
    }

    /// Calls `tool` on an empty list.
    pub fn call(&self, tool: &str, args: &str) -> todokit_app::Outcome {
        self.call_on(&todokit_domain::TodoState::new(), tool, args)
    }

    /// Calls `tool` on `state`.
    pub fn call_on(&self, state: &todokit_domain::TodoState, tool: &str, args: &str) -> todokit_app::Outcome {
        run_tool(&self.profile, tool, state, args)
    }

    /// The problems a call of `tool` on an empty list is refused for.
    pub fn problems(&self, tool: &str, args: &str) -> Vec<String> {
        problem_messages(&self.call(tool, args))
    }

    /// The problems a call of `tool` on `state` is refused for.
    pub fn problems_on(&self, state: &todokit_domain::TodoState, tool: &str, args: &str) -> Vec<String> {
        problem_messages(&self.call_on(state, tool, args))
    }

    /// Each stored task's content and status after `outcome`; `None` when
    /// it stored nothing.
    pub fn stored(outcome: &todokit_app::Outcome) -> Option<Vec<(String, todokit_domain::Status)>> {
        outcome
            .commit
            .as_ref()
            .map(|state| state.tasks().map(|t| (t.content.clone(), t.status)).collect())
    }

    /// The status stored for the one task of a call of `tool` built by
    /// `args` around a status word; `None` when the call was refused.
    pub fn stored_status(
        &self,
        tool: &str,
        args: impl Fn(&str) -> String,
        word: &str,
    ) -> Option<todokit_domain::Status> {
        Self::stored(&self.call(tool, &args(word)))?
            .first()
            .map(|(_, status)| *status)
    }
}

/// A service for the profile called `name` over infra's `MemoryStore`.
pub fn memory_service(name: &str) -> todokit_app::TodoWriteService {
    todokit_app::TodoWriteService::new(
        crate::by_name(name).expect("the profile exists"),
        std::sync::Arc::new(todokit_infra::MemoryStore::new()),
        std::sync::Arc::new(todokit_app::ManualClock::new(0)),
    )
    .with_catalog(crate::by_name)
}

/// Polls `future` to its end on this thread. Enough for the service over a
/// `MemoryStore`, which never waits on anything.
pub fn block_on<F: std::future::Future>(future: F) -> F::Output {
    let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    let mut future = std::pin::pin!(future);
    loop {
        if let std::task::Poll::Ready(out) = future.as_mut().poll(&mut cx) {
            return out;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn check_every_runs_every_case_and_names_each_that_failed() {
        let ran = std::cell::Cell::new(0);
        let cases = [("a".to_owned(), 1), ("b".to_owned(), 2), ("c".to_owned(), 3)];
        let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            check_every(cases, |_, n| {
                ran.set(ran.get() + 1);
                assert!(n == 1, "case {n} fails on purpose");
            })
        }));
        let message = run.err().and_then(|e| e.downcast::<String>().ok()).map(|m| *m);
        let actual = (ran.get(), message);
        let expected = (3, Some("2 cases differ: b, c".to_owned()));
        assert_eq!(actual, expected);
    }
}
