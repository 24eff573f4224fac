//! Forgetting conversations: one `DELETE` for one conversation, and
//! batches of at most [`PRUNE_BATCH`] rows for a prune, each statement
//! checking the row's time as it deletes it (a row written meanwhile is
//! kept) and notifying live feeds in the same statement, as a save does.

use todokit_app::StoreError;
use todokit_domain::Timestamp;

use super::listing::prefix_end;
use super::{Failure, PostgresStore, backend};

/// The most rows one prune statement deletes: a prune of a large table
/// holds no lock on more rows than this at once, and no statement runs
/// long enough to meet the statement limit.
pub const PRUNE_BATCH: i64 = 500;

/// Deletes row `$1`, when `$2` is null or the row last changed before `$2`
/// (milliseconds since the Unix epoch), notifying as a save does.
const FORGET: &str = "
WITH gone AS (
DELETE FROM todokit_conversations
WHERE conversation = $1 AND ($2::bigint IS NULL OR updated_at < to_timestamp($2::bigint / 1000.0))
RETURNING conversation)
SELECT pg_notify('todokit_changes', encode(sha256(convert_to(conversation, 'UTF8')), 'hex')) FROM gone";

/// The rows in the key range `$1` to `$2` (the prefix's) that last changed
/// before `$3`: at most `$4` of them, skipping rows a writer holds (being
/// written, they are not idle), locked, checked again, deleted.
const PRUNE: &str = "
WITH doomed AS (
SELECT conversation FROM todokit_conversations
WHERE conversation COLLATE \"C\" >= $1 AND ($2::text IS NULL OR conversation COLLATE \"C\" < $2)
    AND updated_at < to_timestamp($3::bigint / 1000.0)
LIMIT $4 FOR UPDATE SKIP LOCKED),
gone AS (
DELETE FROM todokit_conversations AS c USING doomed
WHERE c.conversation = doomed.conversation AND c.updated_at < to_timestamp($3::bigint / 1000.0)
RETURNING c.conversation)
SELECT conversation, pg_notify('todokit_changes', encode(sha256(convert_to(conversation, 'UTF8')), 'hex')) FROM gone";

/// What [`PRUNE`] would delete, without deleting.
const IDLE: &str = "
SELECT conversation FROM todokit_conversations
WHERE conversation COLLATE \"C\" >= $1 AND ($2::text IS NULL OR conversation COLLATE \"C\" < $2)
    AND updated_at < to_timestamp($3::bigint / 1000.0)";

impl PostgresStore {
    /// See [`todokit_app::ConversationContext::forget`].
    pub(super) async fn forget_row(
        &self,
        conversation: &str,
        changed_before: Option<Timestamp>,
    ) -> Result<bool, StoreError> {
        let before = changed_before
            .map(millis)
            .transpose()
            .map_err(|e| backend("encode for", &self.location, e))?;
        let client = self.client().await?;
        let deleted = self
            .bounded("delete from", client, async |client| {
                client.query(FORGET, &[&conversation, &before]).await
            })
            .await;
        match deleted {
            Ok(rows) => Ok(!rows.is_empty()),
            Err(Failure::Refused(error)) => Err(error),
            // The answer was lost: the row tells whether it went. One still
            // there was not removed (or was written again since), which a
            // prune takes as kept and a forget as the failure it is.
            Err(Failure::Unanswered(error)) => match self.row(conversation).await {
                Ok(None) => Ok(true),
                Ok(Some(_)) if changed_before.is_some() => Ok(false),
                Ok(Some(_)) => Err(error),
                Err(reread) => Err(StoreError::OutcomeUnknown {
                    conversation: conversation.to_owned(),
                    location: self.location.clone(),
                    reason: format!(
                        "the delete got no answer ({error}), and reading the row back failed too ({reread})"
                    ),
                }),
            },
        }
    }

    /// See [`todokit_app::ConversationContext::prune`]: batches of at most
    /// [`PRUNE_BATCH`] until one comes back short.
    pub(super) async fn prune_rows(
        &self,
        prefix: &str,
        changed_before: Timestamp,
        dry_run: bool,
    ) -> Result<Vec<String>, StoreError> {
        let before = millis(changed_before).map_err(|e| backend("encode for", &self.location, e))?;
        let above = prefix_end(prefix);
        if dry_run {
            let client = self.client().await?;
            let rows = self
                .bounded("read from", client, async |client| {
                    client.query(IDLE, &[&prefix, &above, &before]).await
                })
                .await
                .map_err(Failure::into_error)?;
            return Ok(rows.iter().map(|row| row.get(0)).collect());
        }
        let mut pruned = Vec::new();
        loop {
            let client = self.client().await?;
            let rows = self
                .bounded("delete from", client, async |client| {
                    client
                        .query(PRUNE, &[&prefix, &above, &before, &PRUNE_BATCH])
                        .await
                })
                .await
                .map_err(Failure::into_error)?;
            let full = rows.len() as i64 >= PRUNE_BATCH;
            pruned.extend(rows.iter().map(|row| row.get::<_, String>(0)));
            if !full {
                return Ok(pruned);
            }
        }
    }
}

fn millis(at: Timestamp) -> Result<i64, std::num::TryFromIntError> {
    i64::try_from(at)
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use pretty_assertions::assert_eq;
    use todokit_app::ConversationContext;

    use super::super::tests::{unique, url};
    use super::*;
    use crate::test_support::{lifecycle_contract, lifecycle_expected, racing_forget};

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn forgotten_and_pruned_rows_go_whole_and_racing_writers_keep_theirs_whole() {
        let store = PostgresStore::connect(&url(), 8)
            .await
            .expect("the test database is reachable");
        let prefix = unique("lifecycle");
        let seen = lifecycle_contract(&store, &prefix).await;
        let shared: Arc<dyn ConversationContext> = Arc::new(store.clone());
        let raced = format!("{prefix}raced");
        let (tasks, version) = racing_forget(shared, &raced).await;
        store.forget(&raced, None).await.expect("forgot");
        let left = store.conversations_under(&prefix).await.expect("listed").len();
        let actual = (seen, tasks as u64 == version, left);
        let expected = (lifecycle_expected(), true, 2);
        assert_eq!(actual, expected);
    }

    #[tokio::test]
    async fn a_prune_larger_than_a_batch_goes_in_batches_and_keeps_what_is_fresh() {
        let store = PostgresStore::connect(&url(), 4)
            .await
            .expect("the test database is reachable");
        let prefix = unique("batches");
        let idle = PRUNE_BATCH * 2 + 7;
        let insert = format!(
            "INSERT INTO todokit_conversations (conversation, version, state, updated_at) \
             SELECT '{prefix}/' || n, 1, '{{}}'::jsonb, now() - interval '2 days' FROM generate_series(1, {idle}) AS n; \
             INSERT INTO todokit_conversations (conversation, version, state) VALUES ('{prefix}/fresh', 1, '{{}}'::jsonb)"
        );
        store
            .on_connection("write to", async |client| client.batch_execute(&insert).await)
            .await
            .expect("rows made");
        let day_ago = crate::clock::now_millis() - 86_400_000;
        let would = store.prune(&prefix, day_ago, true).await.expect("named").len();
        let pruned = store.prune(&prefix, day_ago, false).await.expect("pruned").len();
        let left: Vec<String> = store
            .conversations_under(&prefix)
            .await
            .expect("listed")
            .into_iter()
            .map(|c| c.id)
            .collect();
        let actual = (would, pruned, left);
        let expected = (idle as usize, idle as usize, vec![format!("{prefix}/fresh")]);
        assert_eq!(actual, expected);
    }
}
