//! `todokit_app`'s service rounds with the dialects todokit ships (moved here with
//! the dialects: a mechanism's crate cannot name one).

use std::sync::atomic::{AtomicUsize, Ordering};

use pretty_assertions::assert_eq;
use todokit_domain::TodoState;

use crate::test_support::block_on;
use todokit_app::*;
use todokit_app::{ConversationContext, StoreError};
use todokit_infra::MemoryStore;

/// A [`MemoryStore`] whose saves fail once `left` of them have run.
#[derive(Default)]
struct FailsAfter {
    inner: MemoryStore,
    left: AtomicUsize,
}

#[async_trait::async_trait]
impl ConversationContext for FailsAfter {
    async fn load(&self, conversation: &str) -> Result<TodoState, StoreError> {
        self.inner.load(conversation).await
    }

    async fn save(&self, conversation: &str, expected: u64, state: &TodoState) -> Result<(), StoreError> {
        if self
            .left
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
            .is_err()
        {
            return Err(StoreError::Io {
                action: "write",
                location: format!("conversation {conversation:?}"),
                error: std::io::Error::other("the disk is full"),
            });
        }
        self.inner.save(conversation, expected, state).await
    }

    fn is_durable(&self) -> bool {
        false
    }
}

#[test]
fn a_call_that_fails_mid_round_keeps_the_answers_of_the_calls_before_it() {
    let store = FailsAfter {
        left: AtomicUsize::new(1),
        ..FailsAfter::default()
    };
    let service = TodoWriteService::new(
        crate::by_name("claude-code").expect("registered"),
        std::sync::Arc::new(store),
        std::sync::Arc::new(todokit_app::ManualClock::new(0)),
    );
    let write = |content: &str| {
        format!(r#"{{"todos":[{{"content":"{content}","status":"pending","activeForm":"{content}"}}]}}"#)
    };
    let (first, second, third) = (write("One"), write("Two"), write("Three"));
    let round = [
        RoundCall::new("TodoWrite", &first),
        RoundCall::new("TodoWrite", &second),
        RoundCall::new("TodoWrite", &third),
    ];
    let outcome = block_on(service.call_round("c", &round));
    let actual = match outcome {
        Err(ServiceError::RoundInterrupted {
            index,
            answered,
            source,
        }) => Some((
            index,
            answered.iter().map(|r| r.is_error).collect::<Vec<_>>(),
            matches!(*source, ServiceError::Store(StoreError::Io { .. })),
            block_on(service.state("c"))
                .map(|s| s.tasks().map(|t| t.content.clone()).collect::<Vec<_>>())
                .ok(),
        )),
        _ => None,
    };
    let expected = Some((1, vec![false], true, Some(vec!["One".to_owned()])));
    assert_eq!(actual, expected);
}
