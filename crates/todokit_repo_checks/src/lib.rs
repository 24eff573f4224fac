//! Checks over the todokit repository itself, run by `make test` through
//! this crate's tests: no module of any crate uses another that uses it
//! back ([`module_graph`]), every Rust file is under rustfmt, found by
//! path ([`formatting`]), and every committed snapshot's header names a
//! test source that exists ([`snapshots`]), the dialects reach the
//! mechanisms through the profile-author prelude only ([`dialect_api`]),
//! and `docs/architecture.md` draws the crate graph as it is, no two
//! crates depend on each other even in their tests ([`crate_graph`]),
//! every manifest takes one version and one home from the workspace's
//! ([`manifests`]), the README's references to other documents are
//! working links ([`doc_links`]), the facade's and the MCP server's
//! public items are the committed lists ([`public_api`]), and the two packages' native modules
//! resolve their shared dependencies alike ([`shared_build`]), and each
//! crate's tests keep their shared helpers in one module of each kind
//! ([`test_layout`]). Not published.

pub mod crate_graph;
pub mod dialect_api;
pub mod doc_links;
pub mod formatting;
pub mod manifests;
pub mod module_graph;
pub mod public_api;
pub mod shared_build;
pub mod snapshots;
pub mod test_layout;

use std::path::PathBuf;

/// The workspace root: two folders above this crate.
pub fn workspace_root() -> PathBuf {
    let here = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    here.ancestors().nth(2).map(PathBuf::from).unwrap_or(here)
}
