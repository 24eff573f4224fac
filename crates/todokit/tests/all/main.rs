//! The facade's integration tests, in one test binary: a module per area,
//! each driving `todokit` as a host does.

mod conversations;
mod executor;
mod feeds;
mod hostile;
mod postgres_builder;
mod properties;
mod registry_docs;
#[cfg(feature = "rig")]
mod rig;
mod service;
