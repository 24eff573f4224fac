//! Which store `--store` names ([`StoreLocation::parse`]: a folder, the
//! default; `memory:`; or a PostgreSQL URL in builds with the `postgres`
//! feature), opened by the facade's one opener.

use std::path::Path;

use anyhow::Result;
use todokit::{OpenOptions, StoreLocation, TodoWriteService, Todokit};

/// What `--store` names (`None`: the default, [`StoreLocation::or_default`]).
pub fn location(store: Option<&Path>) -> Option<StoreLocation> {
    store.map(StoreLocation::parse)
}

/// The service for `profile` on the store `--store` names. With
/// `files_on_calling_thread`, a folder store does its file work on the
/// thread that awaits it. A database is reached before this returns, so a
/// store that cannot be reached is said at once, not at the first call.
pub async fn make_service(
    store: Option<&Path>,
    profile: &str,
    files_on_calling_thread: bool,
) -> Result<TodoWriteService> {
    let options = OpenOptions::default().files_on_calling_thread(files_on_calling_thread);
    let mut builder = Todokit::builder().profile(profile)?.open_options(options);
    if let Some(location) = location(store) {
        builder = builder.location(location);
    }
    let service = builder.build()?;
    service.store().ready().await?;
    Ok(service)
}
