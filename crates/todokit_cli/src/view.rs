//! A conversation's list as its own agent shows it: under the profile that
//! last wrote it (recorded on every call), whatever `--profile` says. Used
//! by `watch` and `serve`.

use todokit::{Profile, TodoState, TodoWriteService};

/// The list as the profile that last wrote it shows it now (a `pi` list
/// drops what pi clears), and that profile; the service's own profile for a
/// list that does not say.
pub async fn stored_view(
    service: &TodoWriteService,
    conversation: &str,
) -> (Profile, Result<TodoState, String>) {
    let stored = match service.state(conversation).await {
        Ok(stored) => stored,
        Err(error) => return (service.profile().clone(), Err(error.to_string())),
    };
    let (profile, settled) = service.as_written(&stored);
    (profile, Ok(settled))
}
