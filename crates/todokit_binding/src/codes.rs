//! The error codes every binding raises by: one word per kind of failure a
//! host tells apart (`TodokitError.code` in TypeScript, the exception class
//! in Python), and which of them each Rust error is.

use todokit::app::{ServiceError, StoreError, UserEditError};

use crate::OpenError;

/// A kind of failure, as a binding's host tells it apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorCode {
    /// No profile has that name.
    UnknownProfile,
    /// The profile has no such tool.
    UnknownTool,
    /// The store failed.
    Store,
    /// A write whose outcome cannot be known: it may have been stored.
    StoreUncertain,
    /// A hand edit was refused.
    Edit,
    /// A blocking call on a store that needs its runtime (PostgreSQL).
    Unsupported,
    /// The host's own mistake: a closed kit, a wrong option.
    Usage,
}

impl ErrorCode {
    /// Every code, in the order the bindings list them.
    pub const ALL: [Self; 7] = [
        Self::UnknownProfile,
        Self::UnknownTool,
        Self::Store,
        Self::StoreUncertain,
        Self::Edit,
        Self::Unsupported,
        Self::Usage,
    ];

    /// The code's word, as the bindings' typed layers read it
    /// (`UNKNOWN_PROFILE`, `STORE_UNCERTAIN` …).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::UnknownProfile => "UNKNOWN_PROFILE",
            Self::UnknownTool => "UNKNOWN_TOOL",
            Self::Store => "STORE",
            Self::StoreUncertain => "STORE_UNCERTAIN",
            Self::Edit => "EDIT",
            Self::Unsupported => "UNSUPPORTED",
            Self::Usage => "USAGE",
        }
    }

    /// The code of a service error: a tool the profile lacks, a write whose
    /// outcome cannot be known (alone or ending a round), else the store's.
    pub fn of_service(error: &ServiceError) -> Self {
        let uncertain =
            |error: &ServiceError| matches!(error, ServiceError::Store(StoreError::OutcomeUnknown { .. }));
        match error {
            ServiceError::UnknownTool { .. } => Self::UnknownTool,
            error if uncertain(error) => Self::StoreUncertain,
            ServiceError::RoundInterrupted { source, .. } if uncertain(source) => Self::StoreUncertain,
            _ => Self::Store,
        }
    }

    /// The code of a hand edit's error: the store's as a service error, the
    /// rest a refused edit.
    pub fn of_edit(error: &UserEditError) -> Self {
        match error {
            UserEditError::Service(error) => Self::of_service(error),
            _ => Self::Edit,
        }
    }

    /// The code of a kit that could not be opened.
    pub fn of_open(error: &OpenError) -> Self {
        match error {
            OpenError::UnknownProfile(_) => Self::UnknownProfile,
            OpenError::Store(_) => Self::Store,
            OpenError::Setup(_) => Self::Usage,
        }
    }
}

impl std::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use pretty_assertions::assert_eq;

    use super::*;

    #[test]
    fn every_code_has_its_word() {
        let codes = [
            ErrorCode::UnknownProfile,
            ErrorCode::UnknownTool,
            ErrorCode::Store,
            ErrorCode::StoreUncertain,
            ErrorCode::Edit,
            ErrorCode::Unsupported,
            ErrorCode::Usage,
        ];
        let actual: Vec<&str> = codes.iter().map(|code| code.as_str()).collect();
        let expected = [
            "UNKNOWN_PROFILE",
            "UNKNOWN_TOOL",
            "STORE",
            "STORE_UNCERTAIN",
            "EDIT",
            "UNSUPPORTED",
            "USAGE",
        ];
        assert_eq!(actual, expected);
    }

    #[test]
    fn an_unknown_outcome_is_uncertain_alone_and_ending_a_round() {
        let unknown = || {
            ServiceError::Store(StoreError::OutcomeUnknown {
                conversation: "c".into(),
                location: "db".into(),
                reason: "lost".into(),
            })
        };
        let interrupted = |source: ServiceError| ServiceError::RoundInterrupted {
            index: 1,
            answered: Vec::new(),
            source: Box::new(source),
        };
        let failed = || {
            ServiceError::Store(StoreError::Unsupported {
                operation: "list its conversations",
            })
        };
        let actual = [
            ErrorCode::of_service(&unknown()),
            ErrorCode::of_service(&interrupted(unknown())),
            ErrorCode::of_service(&failed()),
            ErrorCode::of_service(&interrupted(failed())),
            ErrorCode::of_edit(&UserEditError::Service(unknown())),
        ];
        let expected = [
            ErrorCode::StoreUncertain,
            ErrorCode::StoreUncertain,
            ErrorCode::Store,
            ErrorCode::Store,
            ErrorCode::StoreUncertain,
        ];
        assert_eq!(actual, expected);
    }

    #[test]
    fn opening_errors_map_by_kind() {
        let actual = [
            ErrorCode::of_open(&OpenError::UnknownProfile("x".into())),
            ErrorCode::of_open(&OpenError::Store("x".into())),
            ErrorCode::of_open(&OpenError::Setup("x".into())),
        ];
        assert_eq!(
            actual,
            [ErrorCode::UnknownProfile, ErrorCode::Store, ErrorCode::Usage]
        );
    }
}
