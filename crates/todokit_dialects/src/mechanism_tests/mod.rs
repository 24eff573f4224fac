//! Tests of `todokit_app`'s mechanisms (the turn policy, replay, compaction,
//! the fast decoding path, the service's lists, rounds, subscriptions and
//! hand edits) run with the dialects todokit ships. They live here because
//! the mechanisms' crate cannot name a dialect.

mod compaction;
mod guard;
mod lists;
mod replay;
mod restore;
mod rounds;
mod subscription;
mod turn;
mod turn_driver;
mod user_edit;
