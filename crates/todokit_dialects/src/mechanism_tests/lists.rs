//! `todokit_app`'s service lists with the dialects todokit ships (moved here with
//! the dialects: a mechanism's crate cannot name one).

use crate::test_support::memory_service;
use pretty_assertions::assert_eq;
use todokit_domain::TodoState;

#[test]
fn a_list_is_shown_under_the_profile_that_wrote_it_else_the_services() {
    let service = memory_service("claude-code");
    let written_by_pi = TodoState::new().profile("pi");
    let unsigned = TodoState::new();
    let actual = (
        service.as_written(&written_by_pi).0.name(),
        service.as_written(&unsigned).0.name(),
        service
            .as_written(&TodoState::new().profile("no-such-profile"))
            .0
            .name(),
    );
    let expected = ("pi", "claude-code", "claude-code");
    assert_eq!(actual, expected);
}
