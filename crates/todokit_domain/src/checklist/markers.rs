//! What a checklist dialect is ([`MarkerTable`]: the markers it writes and
//! reads), and the one line parser and writer every dialect shares. Each
//! dialect's table lives in its profile.

use crate::status::Status;

/// How one status is written: the marker in the box, and text put around
/// the todo's own text (markdown emphasis, a suffix).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mark {
    /// The character between the brackets.
    pub marker: char,
    /// Written before the text.
    pub before: &'static str,
    /// Written after the text.
    pub after: &'static str,
}

impl Mark {
    /// A bare marker with nothing around the text.
    pub const fn plain(marker: char) -> Self {
        Self {
            marker,
            before: "",
            after: "",
        }
    }
}

/// Whether an item line starts with a list bullet (`- ` or `* `).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bullet {
    /// Written, and required on read.
    Required,
    /// Not written; accepted on read.
    Optional,
}

/// Whether spaces may stand inside the brackets around the marker.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Spacing {
    /// `[x]` only.
    Exact,
    /// `[ x ]` too.
    Loose,
}

/// Why a line that starts like an item is not one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LineError {
    /// The box is not one marker character in brackets.
    BadBox,
    /// The marker is not one the dialect reads.
    UnknownMarker(char),
}

/// One checklist dialect.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MarkerTable {
    /// How each status is written, in [`Status::ALL`] order.
    pub written: [Mark; 5],
    /// Markers read besides the written ones.
    pub also_read: &'static [(char, Status)],
    /// Bullets before the box.
    pub bullet: Bullet,
    /// Spaces inside the box.
    pub spacing: Spacing,
}

impl MarkerTable {
    /// How `status` is written.
    pub fn mark(&self, status: Status) -> Mark {
        let index = Status::ALL.iter().position(|s| *s == status).unwrap_or(0);
        self.written[index]
    }

    /// The status a marker stands for: the first status written with it,
    /// else one it is also read as.
    pub fn status_of(&self, marker: char) -> Option<Status> {
        Status::ALL
            .iter()
            .zip(self.written)
            .find(|(_, mark)| mark.marker == marker)
            .map(|(status, _)| *status)
            .or_else(|| self.also_read.iter().find(|(c, _)| *c == marker).map(|(_, s)| *s))
    }

    /// One item line: bullet, box, a space, then `text` wrapped as the
    /// status says. No newline.
    pub fn write(&self, status: Status, text: &str) -> String {
        let mut line = String::new();
        self.write_into(&mut line, status, &[text]);
        line
    }

    /// [`MarkerTable::write`] appended to `out`, the text given in parts (so
    /// a caller need not join them first).
    pub fn write_into(&self, out: &mut String, status: Status, text: &[&str]) {
        let mark = self.mark(status);
        if self.bullet == Bullet::Required {
            out.push_str("- ");
        }
        out.push('[');
        out.push(mark.marker);
        out.push_str("] ");
        out.push_str(mark.before);
        text.iter().for_each(|part| out.push_str(part));
        out.push_str(mark.after);
    }

    /// Reads an item line (without its leading indentation): `Ok(None)` when
    /// it does not start like an item, else its status and its text (after
    /// one space, if there is one; emphasis is not undone). A bullet is `-`,
    /// `*` or `+`, spaces after it optional; an empty box `[]` is pending.
    pub fn parse<'a>(&self, line: &'a str) -> Result<Option<(Status, &'a str)>, LineError> {
        let unbulleted = line.strip_prefix(['-', '*', '+']).map(str::trim_start);
        let rest = match (unbulleted, self.bullet) {
            (Some(rest), _) => rest,
            (None, Bullet::Optional) => line,
            (None, Bullet::Required) => return Ok(None),
        };
        let Some(inside) = rest.strip_prefix('[') else {
            return Ok(None);
        };
        let (marker, after) = match self.spacing {
            Spacing::Exact => {
                let mut chars = inside.chars();
                match (chars.next(), chars.next()) {
                    (Some(']'), _) => (' ', &inside[1..]),
                    (Some(marker), Some(']')) => (marker, chars.as_str()),
                    _ => return Err(LineError::BadBox),
                }
            }
            Spacing::Loose => {
                let trimmed = inside.trim_start();
                match trimmed.chars().next() {
                    Some(']') => (' ', &trimmed[1..]),
                    Some(marker) => {
                        let tail = trimmed[marker.len_utf8()..].trim_start();
                        match tail.strip_prefix(']') {
                            Some(after) => (marker, after),
                            None => return Err(LineError::BadBox),
                        }
                    }
                    None => return Err(LineError::BadBox),
                }
            }
        };
        let status = self.status_of(marker).ok_or(LineError::UnknownMarker(marker))?;
        Ok(Some((status, after.strip_prefix(' ').unwrap_or(after))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    /// Every status written, a bullet required, the box exact.
    const STRICT: MarkerTable = MarkerTable {
        written: [
            Mark::plain(' '),
            Mark::plain('>'),
            Mark::plain('!'),
            Mark::plain('x'),
            Mark::plain('-'),
        ],
        also_read: &[('/', Status::InProgress)],
        bullet: Bullet::Required,
        spacing: Spacing::Exact,
    };

    /// Three statuses written, the bullet optional, spaces allowed in the
    /// box.
    const LOOSE: MarkerTable = MarkerTable {
        written: [
            Mark::plain(' '),
            Mark::plain('*'),
            Mark::plain(' '),
            Mark::plain('v'),
            Mark::plain('v'),
        ],
        also_read: &[('~', Status::InProgress), ('V', Status::Completed)],
        bullet: Bullet::Optional,
        spacing: Spacing::Loose,
    };

    #[test]
    fn every_dialect_reads_back_what_it_writes_for_its_own_statuses() {
        let fixture = [
            (STRICT, Status::ALL.to_vec()),
            (
                LOOSE,
                vec![Status::Pending, Status::InProgress, Status::Completed],
            ),
        ];
        let actual: Vec<Vec<Option<Status>>> = fixture
            .iter()
            .map(|(table, statuses)| {
                statuses
                    .iter()
                    .map(|s| table.parse(&table.write(*s, "a")).ok().flatten().map(|(s, _)| s))
                    .collect()
            })
            .collect();
        let expected: Vec<Vec<Option<Status>>> = fixture
            .iter()
            .map(|(_, statuses)| statuses.iter().copied().map(Some).collect())
            .collect();
        assert_eq!(actual, expected);
    }

    #[test]
    fn lines_are_read_per_dialect() {
        let fixture = [
            (STRICT, "- [x] done"),
            (STRICT, "[x] no bullet"),
            (STRICT, "- [xx] two"),
            (STRICT, "- [?] odd"),
            (LOOSE, "[ * ]  spaced"),
            (LOOSE, "- [~] tilde"),
            (LOOSE, "[V] upper"),
            (LOOSE, "[]  empty box"),
            (LOOSE, "plain text"),
            (STRICT, "+[] bare"),
        ];
        let actual: Vec<Result<Option<(Status, &str)>, LineError>> =
            fixture.iter().map(|(table, line)| table.parse(line)).collect();
        let expected = vec![
            Ok(Some((Status::Completed, "done"))),
            Ok(None),
            Err(LineError::BadBox),
            Err(LineError::UnknownMarker('?')),
            Ok(Some((Status::InProgress, " spaced"))),
            Ok(Some((Status::InProgress, "tilde"))),
            Ok(Some((Status::Completed, "upper"))),
            Ok(Some((Status::Pending, " empty box"))),
            Ok(None),
            Ok(Some((Status::Pending, "bare"))),
        ];
        assert_eq!(actual, expected);
    }
}
