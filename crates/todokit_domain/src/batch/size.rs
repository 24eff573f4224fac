//! Sizes checked on an op before it runs: a name no task can have is
//! refused rather than quoted back, and a list too long to keep is refused
//! before it is built (the engine compares each new task with the others).

use super::op::Op;
use crate::error::{Violation, Violations};
use crate::rules::Limits;
use crate::validate::{Presence, check_text_with};

/// Records in `problems` every text of `op` longer than `limits` allow
/// (names and items as content, `text` and `reason` as descriptions) and
/// an `init` or `append` with more tasks than a list may hold. `field`
/// turns an argument's name (`task`, `list[0].items[2]`) into the name the
/// refusal gives it. Gives the number of tasks the op sends, so a batch
/// can bound its total too.
pub fn check_op_size(
    op: &Op,
    limits: &Limits,
    field: impl Fn(&str) -> String,
    problems: &mut Violations,
) -> usize {
    let content = |text: &str, name: &dyn Fn() -> String, problems: &mut Violations| {
        check_text_with(text, limits.max_content_bytes, Presence::Optional, name, problems);
    };
    let description = |text: &str, name: &dyn Fn() -> String, problems: &mut Violations| {
        check_text_with(
            text,
            limits.max_description_bytes,
            Presence::Optional,
            name,
            problems,
        );
    };
    if let Some(task) = &op.task {
        content(task, &|| field("task"), problems);
    }
    if let Some(phase) = &op.phase {
        content(phase, &|| field("phase"), problems);
    }
    if let Some(text) = &op.text {
        description(text, &|| field("text"), problems);
    }
    if let Some(reason) = &op.reason {
        description(reason, &|| field("reason"), problems);
    }
    let mut count = 0;
    if let Some(items) = &op.items {
        count += items.len();
        for (i, item) in items.iter().enumerate() {
            content(item, &|| field(&format!("items[{i}]")), problems);
        }
    }
    for (p, entry) in op.list.iter().flatten().enumerate() {
        content(&entry.phase, &|| field(&format!("list[{p}].phase")), problems);
        count += entry.items.len();
        for (i, item) in entry.items.iter().enumerate() {
            content(item, &|| field(&format!("list[{p}].items[{i}]")), problems);
        }
    }
    if count > limits.max_items {
        problems.push(Violation::TooManyItems {
            field: field(if op.list.is_some() { "list" } else { "items" }),
            count,
            max: limits.max_items,
        });
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::batch::{OpKind, PhaseItems};
    use pretty_assertions::assert_eq;

    #[test]
    fn every_text_is_measured_and_the_tasks_of_init_are_counted() {
        let limits = Limits {
            max_description_bytes: 3,
            ..Limits::capped(2, 3)
        };
        let fixture = Op::new(OpKind::Init).task("abcd").reason("abcd").list(vec![
            PhaseItems {
                phase: "ok".to_owned(),
                items: vec!["a".to_owned(), "long".to_owned()],
            },
            PhaseItems {
                phase: "four".to_owned(),
                items: vec!["b".to_owned()],
            },
        ]);
        let mut problems = Violations::default();
        let sent = check_op_size(&fixture, &limits, |name| format!("ops[0].{name}"), &mut problems);
        let fields: Vec<String> = problems
            .into_result()
            .err()
            .map(|e| e.problems().into_iter().map(|(f, _)| f).collect())
            .unwrap_or_default();
        let actual = (fields, sent);
        let expected = (
            vec![
                "ops[0].task".to_owned(),
                "ops[0].reason".to_owned(),
                "ops[0].list[0].items[1]".to_owned(),
                "ops[0].list[1].phase".to_owned(),
                "ops[0].list".to_owned(),
            ],
            3,
        );
        assert_eq!(actual, expected);
    }
}
