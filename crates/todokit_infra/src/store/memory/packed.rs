//! The compact form the memory store keeps an idle conversation in.
//!
//! A `TodoState` in memory costs about 350 bytes per task before its text
//! (optional fields, maps, vectors); most conversations a host holds are
//! idle, so the store keeps them as one byte string instead: each task's
//! text with a varint length, its status and the set of fields present in
//! one varint, timestamps as varints. Rare fields whose shape is open
//! (metadata, unknown stored fields, notices) go in as JSON text, so the
//! form is lossless for any state without a second schema to keep in step.
//!
//! Encoders destructure every struct without `..`, so a field added to the
//! domain types fails to compile here instead of being silently dropped.

use serde_json::{Map, Value};
use todokit_domain::{Notice, Phase, Priority, Status, Todo, TodoState};

/// Why a packed state could not be read back. Only a bug in this module can
/// cause one (the bytes never leave the process), but reading them must not
/// panic either way.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("packed list unreadable at byte {at}: {what}")]
pub(crate) struct UnpackError {
    at: usize,
    what: &'static str,
}

// Which optional fields of a task are present, above its status (3 bits).
const ID: u64 = 1 << 3;
const ACTIVE_FORM: u64 = 1 << 4;
const PRIORITY: u64 = 1 << 5;
const NOTES: u64 = 1 << 6;
const DESCRIPTION: u64 = 1 << 7;
const OWNER: u64 = 1 << 8;
const METADATA: u64 = 1 << 9;
const BLOCKED_BY: u64 = 1 << 10;
const CREATED_AT: u64 = 1 << 11;
const STATUS_CHANGED_AT: u64 = 1 << 12;
const FOREIGN: u64 = 1 << 13;
const BLOCKED_REASON: u64 = 1 << 14;
const PARENT: u64 = 1 << 15;
const KIND: u64 = 1 << 16;
const STATUS_BITS: u64 = 0b111;

// Which optional parts of the state are present.
const STATE_NOTICES: u64 = 1;
const STATE_PROFILE: u64 = 1 << 1;
const STATE_EXPLANATION: u64 = 1 << 2;
const STATE_FOREIGN: u64 = 1 << 3;
const STATE_DOCUMENT: u64 = 1 << 4;
const STATE_TURN: u64 = 1 << 5;

/// Packs `state` into its compact form.
pub(crate) fn pack(state: &TodoState) -> Box<[u8]> {
    let TodoState {
        version,
        phases,
        next_id,
        notices,
        profile,
        explanation,
        document,
        turn,
        foreign,
    } = state;
    let mut out = Packer(Vec::with_capacity(
        64 + 96 * phases.iter().map(|p| p.tasks.len()).sum::<usize>(),
    ));
    let present = flag(!notices.is_empty(), STATE_NOTICES)
        | flag(profile.is_some(), STATE_PROFILE)
        | flag(explanation.is_some(), STATE_EXPLANATION)
        | flag(document.is_some(), STATE_DOCUMENT)
        | flag(turn.is_some(), STATE_TURN)
        | flag(!foreign.is_empty(), STATE_FOREIGN);
    out.varint(present);
    out.varint(*version);
    out.varint(*next_id);
    if !notices.is_empty() {
        out.json(notices);
    }
    out.optional(profile);
    out.optional(explanation);
    out.optional(document);
    if let Some(turn) = turn {
        out.json(turn);
    }
    if !foreign.is_empty() {
        out.json(foreign);
    }
    out.varint(phases.len() as u64);
    for phase in phases {
        let Phase { name, tasks, foreign } = phase;
        out.text(name);
        out.json(foreign);
        out.varint(tasks.len() as u64);
        for task in tasks {
            out.todo(task);
        }
    }
    out.0.into_boxed_slice()
}

/// Reads back what [`pack`] wrote.
pub(crate) fn unpack(bytes: &[u8]) -> Result<TodoState, UnpackError> {
    let mut input = Unpacker { bytes, at: 0 };
    let present = input.varint()?;
    let version = input.varint()?;
    let next_id = input.varint()?;
    let notices: Vec<Notice> = if present & STATE_NOTICES != 0 {
        input.json()?
    } else {
        Vec::new()
    };
    let profile = input.optional(present & STATE_PROFILE != 0)?;
    let explanation = input.optional(present & STATE_EXPLANATION != 0)?;
    let document = input.optional(present & STATE_DOCUMENT != 0)?;
    let turn = if present & STATE_TURN != 0 {
        Some(input.json()?)
    } else {
        None
    };
    let foreign = if present & STATE_FOREIGN != 0 {
        input.json()?
    } else {
        Map::new()
    };
    let phase_count = input.count()?;
    let mut phases = Vec::with_capacity(phase_count);
    for _ in 0..phase_count {
        let name = input.text()?;
        let foreign = input.json()?;
        let task_count = input.count()?;
        let mut tasks = Vec::with_capacity(task_count);
        for _ in 0..task_count {
            tasks.push(input.todo()?);
        }
        phases.push(Phase { name, tasks, foreign });
    }
    if input.at != bytes.len() {
        return Err(input.fail("bytes after the end"));
    }
    Ok(TodoState {
        version,
        phases,
        next_id,
        notices,
        profile,
        explanation,
        document,
        turn,
        foreign,
    })
}

fn flag(present: bool, bit: u64) -> u64 {
    if present { bit } else { 0 }
}

fn status_code(status: Status) -> u64 {
    match status {
        Status::Pending => 0,
        Status::InProgress => 1,
        Status::Blocked => 2,
        Status::Completed => 3,
        Status::Abandoned => 4,
    }
}

fn priority_code(priority: Priority) -> u64 {
    match priority {
        Priority::Low => 0,
        Priority::Medium => 1,
        Priority::High => 2,
    }
}

struct Packer(Vec<u8>);

impl Packer {
    fn varint(&mut self, mut n: u64) {
        while n >= 0x80 {
            self.0.push((n as u8) | 0x80);
            n >>= 7;
        }
        self.0.push(n as u8);
    }

    fn text(&mut self, text: &str) {
        self.varint(text.len() as u64);
        self.0.extend_from_slice(text.as_bytes());
    }

    fn optional(&mut self, text: &Option<String>) {
        if let Some(text) = text {
            self.text(text);
        }
    }

    fn texts(&mut self, texts: &[String]) {
        self.varint(texts.len() as u64);
        for text in texts {
            self.text(text);
        }
    }

    fn json<T: serde::Serialize>(&mut self, value: &T) {
        // Maps of JSON values and notices always serialize; the fallback
        // (an empty object) cannot be reached, and is not a panic.
        let text = serde_json::to_string(value).unwrap_or_else(|_| "{}".to_owned());
        self.text(&text);
    }

    fn todo(&mut self, todo: &Todo) {
        let Todo {
            content,
            id,
            active_form,
            status,
            priority,
            notes,
            description,
            owner,
            metadata,
            blocked_by,
            parent,
            kind,
            blocked_reason,
            created_at,
            status_changed_at,
            foreign,
        } = todo;
        let head = status_code(*status)
            | flag(id.is_some(), ID)
            | flag(active_form.is_some(), ACTIVE_FORM)
            | flag(priority.is_some(), PRIORITY)
            | flag(!notes.is_empty(), NOTES)
            | flag(description.is_some(), DESCRIPTION)
            | flag(owner.is_some(), OWNER)
            | flag(metadata.is_some(), METADATA)
            | flag(!blocked_by.is_empty(), BLOCKED_BY)
            | flag(created_at.is_some(), CREATED_AT)
            | flag(status_changed_at.is_some(), STATUS_CHANGED_AT)
            | flag(!foreign.is_empty(), FOREIGN)
            | flag(blocked_reason.is_some(), BLOCKED_REASON)
            | flag(parent.is_some(), PARENT)
            | flag(kind.is_some(), KIND);
        self.varint(head);
        self.text(content);
        self.optional(id);
        self.optional(active_form);
        if let Some(priority) = priority {
            self.varint(priority_code(*priority));
        }
        if !notes.is_empty() {
            self.texts(notes);
        }
        self.optional(description);
        self.optional(owner);
        if let Some(metadata) = metadata {
            self.json(metadata);
        }
        if !blocked_by.is_empty() {
            self.texts(blocked_by);
        }
        if let Some(at) = created_at {
            self.varint(*at);
        }
        if let Some(at) = status_changed_at {
            self.varint(*at);
        }
        if !foreign.is_empty() {
            self.json(foreign);
        }
        self.optional(blocked_reason);
        self.optional(parent);
        self.optional(kind);
    }
}

struct Unpacker<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Unpacker<'_> {
    fn fail(&self, what: &'static str) -> UnpackError {
        UnpackError { at: self.at, what }
    }

    fn varint(&mut self) -> Result<u64, UnpackError> {
        let mut n = 0u64;
        for shift in (0..64).step_by(7) {
            let Some(&byte) = self.bytes.get(self.at) else {
                return Err(self.fail("ends inside a number"));
            };
            self.at += 1;
            n |= u64::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                return Ok(n);
            }
        }
        Err(self.fail("a number longer than 64 bits"))
    }

    /// A count of items that follow, no larger than the bytes left (each
    /// item takes at least one), so a bad count cannot ask for a huge
    /// allocation.
    fn count(&mut self) -> Result<usize, UnpackError> {
        let n = self.varint()?;
        let left = (self.bytes.len() - self.at) as u64;
        if n > left {
            return Err(self.fail("a count larger than what follows"));
        }
        Ok(n as usize)
    }

    fn slice(&mut self) -> Result<&[u8], UnpackError> {
        let len = self.count()?;
        let start = self.at;
        self.at += len;
        Ok(&self.bytes[start..self.at])
    }

    fn text(&mut self) -> Result<String, UnpackError> {
        let start = self.at;
        let bytes = self.slice()?;
        String::from_utf8(bytes.to_vec()).map_err(|_| UnpackError {
            at: start,
            what: "text that is not UTF-8",
        })
    }

    fn optional(&mut self, present: bool) -> Result<Option<String>, UnpackError> {
        present.then(|| self.text()).transpose()
    }

    fn texts(&mut self, present: bool) -> Result<Vec<String>, UnpackError> {
        if !present {
            return Ok(Vec::new());
        }
        let count = self.count()?;
        (0..count).map(|_| self.text()).collect()
    }

    fn json<T: serde::de::DeserializeOwned>(&mut self) -> Result<T, UnpackError> {
        let start = self.at;
        let bytes = self.slice()?;
        serde_json::from_slice(bytes).map_err(|_| UnpackError {
            at: start,
            what: "JSON that does not read back",
        })
    }

    fn timestamp(&mut self, present: bool) -> Result<Option<u64>, UnpackError> {
        present.then(|| self.varint()).transpose()
    }

    fn todo(&mut self) -> Result<Todo, UnpackError> {
        let head = self.varint()?;
        let status = match head & STATUS_BITS {
            0 => Status::Pending,
            1 => Status::InProgress,
            2 => Status::Blocked,
            3 => Status::Completed,
            4 => Status::Abandoned,
            _ => return Err(self.fail("an unknown status")),
        };
        let content = self.text()?;
        let id = self.optional(head & ID != 0)?;
        let active_form = self.optional(head & ACTIVE_FORM != 0)?;
        let priority = if head & PRIORITY != 0 {
            Some(match self.varint()? {
                0 => Priority::Low,
                1 => Priority::Medium,
                2 => Priority::High,
                _ => return Err(self.fail("an unknown priority")),
            })
        } else {
            None
        };
        let notes = self.texts(head & NOTES != 0)?;
        let description = self.optional(head & DESCRIPTION != 0)?;
        let owner = self.optional(head & OWNER != 0)?;
        let metadata: Option<Map<String, Value>> = if head & METADATA != 0 {
            Some(self.json()?)
        } else {
            None
        };
        let blocked_by = self.texts(head & BLOCKED_BY != 0)?;
        let created_at = self.timestamp(head & CREATED_AT != 0)?;
        let status_changed_at = self.timestamp(head & STATUS_CHANGED_AT != 0)?;
        let foreign = if head & FOREIGN != 0 {
            self.json()?
        } else {
            Map::new()
        };
        let blocked_reason = self.optional(head & BLOCKED_REASON != 0)?;
        let parent = self.optional(head & PARENT != 0)?;
        let kind = self.optional(head & KIND != 0)?;
        Ok(Todo {
            content,
            id,
            active_form,
            status,
            priority,
            notes,
            description,
            owner,
            metadata,
            blocked_by,
            parent,
            kind,
            blocked_reason,
            created_at,
            status_changed_at,
            foreign,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;
    use serde_json::json;
    use todokit_domain::NoticeKind;
    use todokit_domain::turn::{Enforcement, Injection, Placement, ReminderKind, TurnRecord};

    fn object(value: Value) -> Map<String, Value> {
        value.as_object().cloned().unwrap_or_default()
    }

    /// A state with every field of every part set, in two phases.
    fn full_state() -> TodoState {
        let rich = Todo::new("Write the parser")
            .id("t1")
            .active_form("Writing the parser")
            .status(Status::Blocked)
            .priority(Priority::High)
            .notes(vec!["first".to_owned(), "zwei ✓".to_owned()])
            .description("the whole grammar")
            .owner("agent-7")
            .metadata(object(json!({"b": 1, "a": [1.5, null, {"x": "y"}]})))
            .blocked_by(vec!["t0".to_owned()])
            .blocked_reason("waits for the grammar review")
            .parent("t0")
            .kind("epic")
            .created_at(1_763_000_000_000u64)
            .status_changed_at(u64::MAX)
            .foreign(object(json!({"zeta": true, "alpha": "kept"})));
        let plain = Todo::new("").status(Status::Abandoned);
        let empty_metadata = Todo::new("m").metadata(Map::new()).priority(Priority::Low);
        let mut first = Phase::new("Build");
        first.tasks = vec![rich, plain];
        first.foreign = object(json!({"color": "red"}));
        let mut second = Phase::new(Phase::IMPLICIT);
        second.tasks = vec![empty_metadata];
        TodoState::new()
            .version(42u64)
            .phases(vec![first, second, Phase::new("empty")])
            .next_id(300u64)
            .notices(vec![Notice {
                kind: NoticeKind::UserEdit,
                at: 5,
                text: "edited".to_owned(),
                action: Some("renamed a task".to_owned()),
            }])
            .profile("claude-code")
            .explanation("because")
            .document("- [ ] a")
            .turn(
                TurnRecord::default()
                    .end_of_turn(Enforcement::Strict)
                    .pending(vec![Injection {
                        placement: Placement::BeforeRequest,
                        kind: ReminderKind::EndOfTurn,
                        text: "finish".to_owned(),
                    }])
                    .told(vec!["call-1".to_owned()]),
            )
            .foreign(object(json!({"future": {"nested": [1, 2]}})))
    }

    #[test]
    fn every_field_reads_back_as_it_was() {
        let fixtures = vec![
            full_state(),
            TodoState::new(),
            TodoState::flat(vec![Todo::new("one")]),
        ];
        let actual: Vec<_> = fixtures.iter().map(|state| unpack(&pack(state))).collect();
        let expected: Vec<_> = fixtures.into_iter().map(Ok).collect();
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_plain_task_costs_its_text_and_two_bytes() {
        let fixture = TodoState::flat(vec![Todo::new("ab").status(Status::Completed)]);
        let actual = pack(&fixture).into_vec();
        // present, version, next_id; one phase: name "", foreign "{}",
        // one task: status 3 with no optional field, "ab".
        let expected = vec![0, 0, 0, 1, 0, 2, b'{', b'}', 1, 3, 2, b'a', b'b'];
        assert_eq!(actual, expected);
    }

    #[test]
    fn damaged_bytes_are_an_error_never_a_panic() {
        let bytes = pack(&full_state()).into_vec();
        let cut_short: Vec<_> = (0..bytes.len())
            .filter(|&end| unpack(&bytes[..end]).is_ok())
            .collect();
        // Every single byte set to each value of interest: no panic, and
        // the reading is an error or some state (whatever it decodes to).
        for at in 0..bytes.len() {
            for value in [0x00, 0x7f, 0x80, 0xff, bytes[at] ^ 1] {
                let mut damaged = bytes.clone();
                damaged[at] = value;
                let _ = unpack(&damaged);
            }
        }
        let actual = (cut_short, unpack(&[0xff; 11]).is_err(), unpack(&[]).is_err());
        let expected = (Vec::<usize>::new(), true, true);
        assert_eq!(actual, expected);
    }
}
