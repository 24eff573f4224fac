//! The summaries of the conversation files listed so far, so that listing
//! the folder again reads only the files that changed since: each is kept
//! with the [`Stamp`] of the file it was read from, and used again only
//! while the file's stamp is the same and was settled when it was read.
//!
//! Only listing fills it (a call never does), so a store that serves calls
//! keeps nothing per conversation; a listed file that is gone is dropped
//! at the next listing.

use std::collections::{HashMap, HashSet};
use std::sync::{Mutex, PoisonError};
use std::time::SystemTime;

use todokit_domain::ListSummary;

use super::stamp::Stamp;

/// The summaries of the files listed last, by file stem.
#[derive(Debug, Default)]
pub struct SummaryCache {
    entries: Mutex<HashMap<String, Cached>>,
}

#[derive(Debug)]
struct Cached {
    stamp: Stamp,
    id: String,
    summary: ListSummary,
}

impl SummaryCache {
    /// The conversation id and summary read from the file named `stem`,
    /// if its stamp is still `stamp`.
    pub fn get(&self, stem: &str, stamp: &Stamp) -> Option<(String, ListSummary)> {
        let entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
        entries
            .get(stem)
            .filter(|cached| cached.stamp == *stamp)
            .map(|cached| (cached.id.clone(), cached.summary.clone()))
    }

    /// The conversation id read from the file named `stem` when it was
    /// last listed, whatever its stamp (a file's name never changes the
    /// conversation it belongs to).
    pub fn id_of(&self, stem: &str) -> Option<String> {
        let entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
        entries.get(stem).map(|cached| cached.id.clone())
    }

    /// Keeps what was read from the file named `stem`, whose stamp was
    /// `stamp` when it was opened at `observed` or later; a stamp that was
    /// not settled then is not kept (the file is read again next time).
    pub fn put(&self, stem: &str, stamp: Stamp, observed: SystemTime, id: &str, summary: &ListSummary) {
        let mut entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
        if stamp.settled_at(observed) {
            let cached = Cached {
                stamp,
                id: id.to_owned(),
                summary: summary.clone(),
            };
            entries.insert(stem.to_owned(), cached);
        } else {
            entries.remove(stem);
        }
    }

    /// Drops the summaries of files not in `listed` (removed since).
    pub fn keep_only(&self, listed: &HashSet<String>) {
        let mut entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
        entries.retain(|stem, _| listed.contains(stem));
    }

    /// How many summaries are kept.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.entries.lock().unwrap_or_else(PoisonError::into_inner).len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;
    use std::time::Duration;

    #[test]
    fn a_summary_is_kept_for_a_settled_stamp_only_and_dropped_with_its_file() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("a.json");
        std::fs::write(&path, "{}").expect("write");
        let stamp = Stamp::of(&std::fs::metadata(&path).expect("stat"));
        let cache = SummaryCache::default();
        let summary = ListSummary::new().version(3u64);
        cache.put("a", stamp, SystemTime::now(), "a", &summary);
        let unsettled = cache.get("a", &stamp);
        let later = SystemTime::now() + Duration::from_secs(5);
        cache.put("a", stamp, later, "a", &summary);
        let settled = cache.get("a", &stamp);
        std::fs::write(&path, "{ }").expect("write");
        let changed = cache.get("a", &Stamp::of(&std::fs::metadata(&path).expect("stat")));
        cache.keep_only(&HashSet::new());
        let actual = (unsettled, settled, changed, cache.len());
        let expected = (None, Some(("a".to_owned(), summary)), None, 0);
        assert_eq!(actual, expected);
    }
}
