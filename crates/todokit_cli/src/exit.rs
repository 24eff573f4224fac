//! A command's exit status as a number: `std::process::ExitCode` cannot be
//! read back, and a host that runs the command in its own process (the
//! Python and npm packages' `todokit`) must hand the number to its own exit.

/// The status a command ends with (0 success, 1 failure, 2 a usage error,
/// 3 the end-of-turn check's reminder, 4 an outcome not known).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExitCode(u8);

impl ExitCode {
    /// Success: 0.
    pub const SUCCESS: ExitCode = ExitCode(0);
    /// A failure the message on standard error explains: 1.
    pub const FAILURE: ExitCode = ExitCode(1);

    /// The number the process exits with.
    pub fn code(self) -> u8 {
        self.0
    }
}

impl From<u8> for ExitCode {
    fn from(code: u8) -> Self {
        ExitCode(code)
    }
}

#[cfg(test)]
mod tests {
    use pretty_assertions::assert_eq;

    use super::ExitCode;

    #[test]
    fn the_number_is_the_one_given() {
        let actual = [ExitCode::SUCCESS, ExitCode::FAILURE, ExitCode::from(4)].map(ExitCode::code);
        let expected = [0, 1, 4];
        assert_eq!(actual, expected);
    }
}
