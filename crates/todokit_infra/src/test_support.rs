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
