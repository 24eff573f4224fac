//! Listing the stored conversations: all of them, or one key range.

use todokit_app::{ConversationContext, StoreError, StoredConversation};
use todokit_domain::ListSummary;

use super::{Failure, PostgresStore};

impl PostgresStore {
    /// Every stored conversation, or those whose id starts with `prefix`:
    /// a key range compared byte-wise (`COLLATE "C"`), so the database's
    /// collation cannot put an id of another prefix inside it.
    pub(super) async fn listing(&self, prefix: Option<&str>) -> Result<Vec<StoredConversation>, StoreError> {
        const COLUMNS: &str = "SELECT conversation, version, summary::text, CASE WHEN summary IS NULL THEN state::text END, \
             (extract(epoch from updated_at) * 1000)::bigint FROM todokit_conversations";
        let client = self.client().await?;
        let rows = self
            .bounded("read from", client, async |client| match prefix {
                None => {
                    client
                        .query(&format!("{COLUMNS} ORDER BY updated_at DESC"), &[])
                        .await
                }
                Some(prefix) => {
                    // `conversation LIKE prefix%` would need the prefix's own
                    // `%` and `_` escaped; a range needs nothing.
                    let query = format!(
                        "{COLUMNS} WHERE conversation COLLATE \"C\" >= $1 \
                         AND ($2::text IS NULL OR conversation COLLATE \"C\" < $2) ORDER BY updated_at DESC"
                    );
                    let above = prefix_end(prefix);
                    client.query(&query, &[&prefix, &above]).await
                }
            })
            .await
            .map_err(Failure::into_error)?;
        let mut listed = Vec::with_capacity(rows.len());
        for row in rows {
            let id: String = row.get(0);
            let version: i64 = row.get(1);
            let kept = row
                .get::<_, Option<&str>>(2)
                .and_then(|text| serde_json::from_str::<ListSummary>(text).ok());
            let summary = match (kept, row.get::<_, Option<&str>>(3)) {
                (Some(summary), _) => Ok(summary),
                (None, Some(state)) => self.decode(&id, version, state).map(|state| state.summary()),
                // A summary that cannot be read: the list tells.
                (None, None) => self.load(&id).await.map(|state| state.summary()),
            }
            .map(|summary| summary.version(u64::try_from(version).unwrap_or_default()));
            let changed_at: i64 = row.get(4);
            listed.push(StoredConversation {
                summary,
                changed_at: u64::try_from(changed_at).ok(),
                id,
            });
        }
        Ok(listed)
    }
}

/// The first string after every string that starts with `prefix`, in byte
/// order: the prefix with its last character raised by one (characters at
/// `char::MAX` dropped first); `None` when there is none (every id is
/// after it).
pub(super) fn prefix_end(prefix: &str) -> Option<String> {
    let mut chars: Vec<char> = prefix.chars().collect();
    while let Some(last) = chars.pop() {
        // The next scalar value, skipping the surrogate gap.
        let next = (u32::from(last) + 1..=u32::from(char::MAX)).find_map(char::from_u32);
        if let Some(next) = next {
            chars.push(next);
            return Some(chars.into_iter().collect());
        }
    }
    None
}
