//! Any text as an edited markdown list: the import never panics, and what
//! it accepts exports and imports back to the same list (times aside: the
//! text does not carry them).
#![no_main]

use libfuzzer_sys::fuzz_target;
use todokit::TodoState;
use todokit::infra::markdown::{export, import};

fn without_times(mut state: TodoState) -> TodoState {
    for task in state.phases.iter_mut().flat_map(|p| p.tasks.iter_mut()) {
        task.created_at = None;
        task.status_changed_at = None;
    }
    state
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(state) = import(text, 0) {
        let again = import(&export(&state), 0).expect("an export imports");
        assert_eq!(
            without_times(again),
            without_times(state),
            "the round trip changed the list"
        );
    }
});
