//! Which store `--store` names: a folder (the JSON-file store, the
//! default), or a PostgreSQL URL in builds with the `postgres` feature.

use anyhow::Result;
use todokit::{JsonFileStore, TodoWriteService, Todokit};

/// True for a `--store` that names a database rather than a folder.
pub fn is_database_url(store: &std::path::Path) -> bool {
    matches!(
        todokit::StoreLocation::parse(store),
        todokit::StoreLocation::Database(_)
    )
}

/// The service for `profile` on the store `--store` names (a folder, or a
/// `postgres://` URL in builds with the `postgres` feature). With
/// `files_on_calling_thread`, a folder store does its file work on the
/// thread that awaits it ([`JsonFileStore::on_calling_thread`]).
pub async fn make_service(
    store: Option<&std::path::Path>,
    profile: &str,
    files_on_calling_thread: bool,
) -> Result<TodoWriteService> {
    let builder = Todokit::builder().profile(profile)?;
    let builder = match store {
        Some(url) if is_database_url(url) => {
            #[cfg(feature = "postgres")]
            {
                let url = url.to_str().unwrap_or_default();
                let store = todokit::infra::store::PostgresStore::connect(
                    url,
                    todokit::infra::store::DEFAULT_POOL_SIZE,
                )
                .await?;
                builder.store(store)
            }
            #[cfg(not(feature = "postgres"))]
            {
                anyhow::bail!(
                    "{} names a PostgreSQL database, but this todokit was built without the `postgres` feature \
                     (cargo install --features postgres)",
                    url.display()
                );
            }
        }
        Some(dir) if files_on_calling_thread => builder.store(JsonFileStore::new(dir).on_calling_thread()),
        Some(dir) => builder.store_dir(dir),
        None if files_on_calling_thread => match todokit::default_store_dir() {
            Some(dir) => builder.store(JsonFileStore::new(dir).on_calling_thread()),
            // Left to `build`, which says why there is no folder.
            None => builder,
        },
        None => builder,
    };
    Ok(builder.build()?)
}
