//! Forgetting conversations, and turn records that follow their lists.
//!
//! A forget is one transaction: the list's row locked (`FOR UPDATE`) and
//! checked, then the list and its turn record deleted by a second
//! statement, whose snapshot is taken after the lock: a record a hook
//! wrote while it held the list's row (see [`SAVE_RECORD_UPDATE`]) is
//! seen and deleted with it, and a hook that comes later waits for the
//! lock and then finds the list gone. A prune does the same in batches of
//! at most [`PRUNE_BATCH`] lists; turn records whose lists are gone go
//! when they are idle themselves. Every statement notifies live feeds of
//! the rows it removes, as a save does.

use std::sync::Arc;

use todokit_app::{Pruned, StoreError};
use todokit_domain::turn::turn_key;
use todokit_domain::{Timestamp, TodoState};

use super::errors::backend;
use super::listing::prefix_end;
use super::{Failure, PostgresStore};

/// The most rows one prune statement deletes: a prune of a large table
/// holds no lock on more rows than this at once, and no statement runs
/// long enough to meet the statement limit.
pub const PRUNE_BATCH: i64 = 500;

/// Row `$1` locked; whether it may go: `$2` is null or it last changed
/// before `$2` (milliseconds since the Unix epoch). No row: no list.
const LOCK_LIST: &str = "
SELECT $2::bigint IS NULL OR updated_at < to_timestamp($2::bigint / 1000.0)
FROM todokit_conversations WHERE conversation = $1 FOR UPDATE";

/// The list `$1` (when `$3`: the caller holds its row, found idle) and its
/// turn record `$2` (with the list, or, with no list, when `$4` is null or
/// the record itself is idle), notifying as a save does.
const FORGET_BOTH: &str = "
WITH gone AS (
DELETE FROM todokit_conversations
WHERE (conversation = $1 AND $3)
    OR (conversation = $2 AND ($3 OR $4::bigint IS NULL OR updated_at < to_timestamp($4::bigint / 1000.0)))
RETURNING conversation)
SELECT pg_notify('todokit_changes', encode(sha256(convert_to(conversation, 'UTF8')), 'hex')) FROM gone";

/// Whether a row is a turn record's (its key ends with the suffix
/// `todokit_domain::turn::TURN_KEY_SUFFIX`: U+0001 then `turn`).
const IS_RECORD: &str = "right(conversation, 5) = chr(1) || 'turn'";

/// At most `$4` lists in the key range `$1` to `$2` (the prefix's) that
/// last changed before `$3`, locked, skipping rows a writer holds (being
/// written, they are not idle).
fn lock_idle() -> String {
    format!(
        "SELECT conversation FROM todokit_conversations
WHERE conversation COLLATE \"C\" >= $1 AND ($2::text IS NULL OR conversation COLLATE \"C\" < $2)
    AND updated_at < to_timestamp($3::bigint / 1000.0) AND NOT {IS_RECORD}
LIMIT $4 FOR UPDATE SKIP LOCKED"
    )
}

/// The rows named in `$1` (lists the caller holds) and `$2` (their turn
/// records), notifying.
const DELETE_LOCKED: &str = "
WITH gone AS (
DELETE FROM todokit_conversations WHERE conversation = ANY($1::text[]) OR conversation = ANY($2::text[])
RETURNING conversation)
SELECT conversation, pg_notify('todokit_changes', encode(sha256(convert_to(conversation, 'UTF8')), 'hex')) FROM gone";

/// At most `$4` turn records in the range whose lists are gone and that
/// are idle themselves, deleted, notifying.
fn orphan_records() -> String {
    format!(
        "WITH doomed AS (
SELECT conversation FROM todokit_conversations AS r
WHERE conversation COLLATE \"C\" >= $1 AND ($2::text IS NULL OR conversation COLLATE \"C\" < $2)
    AND updated_at < to_timestamp($3::bigint / 1000.0) AND {IS_RECORD}
    AND NOT EXISTS (SELECT 1 FROM todokit_conversations AS l WHERE l.conversation = left(r.conversation, -5))
LIMIT $4 FOR UPDATE SKIP LOCKED),
gone AS (
DELETE FROM todokit_conversations AS c USING doomed
WHERE c.conversation = doomed.conversation AND c.updated_at < to_timestamp($3::bigint / 1000.0)
RETURNING c.conversation)
SELECT conversation, pg_notify('todokit_changes', encode(sha256(convert_to(conversation, 'UTF8')), 'hex')) FROM gone"
    )
}

/// What [`lock_idle`] would lock, without locking.
fn idle_lists() -> String {
    format!(
        "SELECT conversation FROM todokit_conversations
WHERE conversation COLLATE \"C\" >= $1 AND ($2::text IS NULL OR conversation COLLATE \"C\" < $2)
    AND updated_at < to_timestamp($3::bigint / 1000.0) AND NOT {IS_RECORD}"
    )
}

/// The list's version `$5` (0: no row) read under a key-share lock, which
/// a forget's lock waits for and which waits for a forget's: the record
/// row `$1` is made at version `$2` (state `$3`, summary `$4`) only while
/// the list is still at `$6`.
const SAVE_RECORD_INSERT: &str = "
WITH list AS (SELECT coalesce((SELECT version FROM todokit_conversations WHERE conversation = $5 FOR KEY SHARE), 0) AS version),
saved AS (
INSERT INTO todokit_conversations (conversation, version, state, summary)
SELECT $1, $2, $3::text::jsonb, $4::text::jsonb FROM list WHERE list.version = $6
ON CONFLICT (conversation) DO NOTHING
RETURNING version)
SELECT version, pg_notify('todokit_changes', encode(sha256(convert_to($1, 'UTF8')), 'hex')) FROM saved";

/// [`SAVE_RECORD_INSERT`] for a record row at version `$7`.
const SAVE_RECORD_UPDATE: &str = "
WITH list AS (SELECT coalesce((SELECT version FROM todokit_conversations WHERE conversation = $5 FOR KEY SHARE), 0) AS version),
saved AS (
UPDATE todokit_conversations SET version = $2, state = $3::text::jsonb, summary = $4::text::jsonb, updated_at = now()
WHERE conversation = $1 AND version = $7 AND (SELECT version FROM list) = $6
RETURNING version)
SELECT version, pg_notify('todokit_changes', encode(sha256(convert_to($1, 'UTF8')), 'hex')) FROM saved";

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
        let record = turn_key(conversation);
        let client = self.client().await?;
        let deleted = self
            .bounded("delete from", client, async |client| {
                let transaction = client.transaction().await?;
                let list = transaction
                    .query_opt(LOCK_LIST, &[&conversation, &before])
                    .await?
                    .map(|row| row.get::<_, bool>(0));
                if list == Some(false) {
                    // Dropped uncommitted: rolled back, the lock let go.
                    return Ok(0);
                }
                let gone = transaction
                    .query(FORGET_BOTH, &[&conversation, &record, &list.is_some(), &before])
                    .await?
                    .len();
                transaction.commit().await?;
                Ok(gone)
            })
            .await;
        match deleted {
            Ok(gone) => Ok(gone > 0),
            Err(Failure::Refused(error)) => Err(error),
            // The answer was lost: the rows tell whether they went. A list
            // still there was not removed (or was written again since),
            // which a prune takes as kept and a forget as the failure it is.
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
    /// [`PRUNE_BATCH`] until one comes back short, then the idle records
    /// whose lists are gone.
    pub(super) async fn prune_rows(
        &self,
        prefix: &str,
        changed_before: Timestamp,
        dry_run: bool,
    ) -> Result<Pruned, StoreError> {
        let before = millis(changed_before).map_err(|e| backend("encode for", &self.location, e))?;
        let above = prefix_end(prefix);
        if dry_run {
            let client = self.client().await?;
            let rows = self
                .bounded("read from", client, async |client| {
                    client.query(&idle_lists(), &[&prefix, &above, &before]).await
                })
                .await
                .map_err(Failure::into_error)?;
            let forgotten = rows.iter().map(|row| row.get(0)).collect();
            return Ok(Pruned {
                forgotten,
                failed: Vec::new(),
            });
        }
        let mut pruned = Pruned::default();
        loop {
            let client = self.client().await?;
            let (lists, full) = self
                .bounded("delete from", client, async |client| {
                    let transaction = client.transaction().await?;
                    let locked: Vec<String> = transaction
                        .query(&lock_idle(), &[&prefix, &above, &before, &PRUNE_BATCH])
                        .await?
                        .iter()
                        .map(|row| row.get(0))
                        .collect();
                    let records: Vec<String> = locked.iter().map(|id| turn_key(id)).collect();
                    transaction.query(DELETE_LOCKED, &[&locked, &records]).await?;
                    transaction.commit().await?;
                    let full = locked.len() as i64 >= PRUNE_BATCH;
                    Ok((locked, full))
                })
                .await
                .map_err(Failure::into_error)?;
            pruned.forgotten.extend(lists);
            if !full {
                break;
            }
        }
        loop {
            let client = self.client().await?;
            let gone = self
                .bounded("delete from", client, async |client| {
                    client
                        .query(&orphan_records(), &[&prefix, &above, &before, &PRUNE_BATCH])
                        .await
                })
                .await
                .map_err(Failure::into_error)?;
            if (gone.len() as i64) < PRUNE_BATCH {
                return Ok(pruned);
            }
        }
    }

    /// See [`todokit_app::ConversationContext::save_record`]: one
    /// statement that reads the list's version under a lock and writes the
    /// record only while it is `list_version`.
    pub(super) async fn save_record_row(
        &self,
        conversation: &str,
        list_version: u64,
        expected: u64,
        record: Arc<TodoState>,
    ) -> Result<(), StoreError> {
        let encode = |e| backend("encode for", &self.location, e);
        let key = turn_key(conversation);
        let text = serde_json::to_string(&*record).map_err(encode)?;
        let summary = serde_json::to_string(&record.summary()).map_err(encode)?;
        let number = |n: u64| i64::try_from(n).map_err(|e| backend("encode for", &self.location, e));
        let (next, expected_db, list_db) =
            (number(record.version)?, number(expected)?, number(list_version)?);
        let client = self.client().await?;
        let saved = self
            .bounded("write to", client, async |client| {
                let base: [&(dyn tokio_postgres::types::ToSql + Sync); 6] =
                    [&key, &next, &text, &summary, &conversation, &list_db];
                match expected {
                    0 => client.query_opt(SAVE_RECORD_INSERT, &base).await,
                    _ => {
                        let mut all = base.to_vec();
                        all.push(&expected_db);
                        client.query_opt(SAVE_RECORD_UPDATE, &all).await
                    }
                }
            })
            .await;
        match saved {
            Ok(Some(_)) => Ok(()),
            Ok(None) => {
                let found = self.load_version(conversation).await?;
                if found != list_version {
                    return Err(StoreError::Conflict {
                        conversation: conversation.to_owned(),
                        expected: list_version,
                        found,
                    });
                }
                Err(StoreError::Conflict {
                    conversation: key.clone(),
                    expected,
                    found: self.load_version(&key).await?,
                })
            }
            Err(Failure::Refused(error)) => Err(error),
            Err(Failure::Unanswered(error)) => {
                let written = super::outcome::Written {
                    conversation: &key,
                    expected: expected_db,
                    next,
                    state: &text,
                };
                super::settle(self, &written, error).await
            }
        }
    }

    /// The stored version of `conversation` (0: no row).
    async fn load_version(&self, conversation: &str) -> Result<u64, StoreError> {
        Ok(self
            .row(conversation)
            .await?
            .map_or(0, |(version, _)| u64::try_from(version).unwrap_or_default()))
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
    use crate::test_support::{
        lifecycle_contract, lifecycle_expected, racing_forget, racing_record, record_contract,
        record_expected,
    };

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_turn_record_follows_its_list_and_no_hook_brings_one_back_after_a_forget() {
        let store = PostgresStore::connect(&url(), 8)
            .await
            .expect("the test database is reachable");
        let prefix = unique("records");
        let seen = record_contract(&store, &prefix).await;
        let shared: Arc<dyn ConversationContext> = Arc::new(store.clone());
        let outlived = racing_record(shared, &format!("{prefix}raced"), 30).await;
        let actual = (seen, outlived);
        let expected = (record_expected(), 0);
        assert_eq!(actual, expected);
    }

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
        let would = store
            .prune(&prefix, day_ago, true)
            .await
            .expect("named")
            .forgotten
            .len();
        let pruned = store
            .prune(&prefix, day_ago, false)
            .await
            .expect("pruned")
            .forgotten
            .len();
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
