//! `todokit watch`: the live view in a terminal pane.

use crate::exit::ExitCode;

use anyhow::Result;

use super::Context;
use crate::store::location;
use crate::watch;
use todokit::StoreLocation;

/// Follows the options' conversation (or, with `latest`, whichever changed
/// last), checking at least every `interval_ms`.
pub async fn run(ctx: &Context<'_>, interval_ms: u64, latest: bool) -> Result<ExitCode> {
    // A database or memory has no file to watch: polling alone then.
    let store_dir = StoreLocation::or_default(location(ctx.store))
        .ok()
        .and_then(|store| store.folder().map(ToOwned::to_owned));
    let store_label = match (ctx.store, &store_dir) {
        (Some(store), _) => store.display().to_string(),
        (None, Some(dir)) => dir.display().to_string(),
        (None, None) => "no store".to_owned(),
    };
    let service = ctx.service().await?;
    let options = watch::WatchOptions {
        conversation: ctx.conversation(),
        latest,
        store_dir,
        store_label,
        terminal: ctx.terminal,
        interval: std::time::Duration::from_millis(interval_ms.max(10)),
    };
    watch::run(&service, &options).await?;
    Ok(ExitCode::SUCCESS)
}
