//! The decoding layer between what a model sent and a tool's typed input.
//!
//! [`parse_arguments`] reads the text. Models slip; some slips are
//! unambiguous and a profile may accept them ([`Leniency`]): an array sent
//! as a string holding its JSON, `active_form` for `activeForm` (or the
//! reverse), `3` for the id `"3"`, `In Progress` for `in_progress`, and the
//! status spellings a wire enum lists as aliases (`done` for `completed`).
//! [`repair_and_check`] makes those repairs, then reports every problem in
//! the arguments at once, each naming the field, what arrived and what is
//! allowed, so the model can fix the whole call in one go. [`decode`] last
//! turns the checked arguments into the tool's typed input.
//!
//! Most calls are well formed, and for them all of that is wasted work:
//! [`decode_well_formed`] reads the text straight into the typed input,
//! checking the schema as it goes, and gives up (for the path above) at the
//! first thing that path would repair or report.
//!
//! Both passes read the tool's canonical schema, compiled once
//! ([`CompiledSchema`]), so they follow the input types without any
//! per-profile code. Two schema extensions steer them: `x-aliases` on an
//! enum (extra spellings and what they mean) and `x-id` on a field that
//! holds an id or a list of ids. The provider views strip both.

mod check;
mod compiled;
mod guard;
mod leniency;
mod parse;
mod repair;
mod sizes;

use serde_json::Value;
use todokit_domain::MAX_REPORTED_VIOLATIONS;

pub use compiled::CompiledSchema;
pub use guard::decode_well_formed;
use leniency::TEXT_SYNONYMS;
pub use leniency::{ALIASES_KEY, CLOSED_KEY, ID_KEY, Leniency, VALUES_KEY};
pub use parse::{ArgumentError, ROOT_FIELD, decode, kind as json_kind, parse_arguments};
pub use repair::case_variant;
pub use sizes::{
    ARRAY_SLACK, ITEM_TEXT_BYTES, SizeLimits, VALUES_PER_ITEM, json_string_end, json_values_over,
};
pub(crate) use sizes::{nul_in_value, refused_text, refused_value};

/// `args` brought into the shape `schema` describes where `leniency`
/// allows, then checked against it: the repaired arguments, or every problem
/// found (at most [`MAX_REPORTED_VIOLATIONS`]).
#[cfg(test)]
pub fn repair_and_check(
    args: Value,
    schema: &CompiledSchema,
    leniency: &Leniency,
) -> Result<Value, Vec<ArgumentError>> {
    repair_then_check(args, schema, leniency, |_| {}).map_err(|(_, problems)| problems)
}

/// [`repair_and_check`], giving back the repaired arguments with the
/// problems, so a tool can word its refusal from what was sent. `complete`
/// runs between the repair and the check: what the tool infers from the
/// repaired arguments' shape is checked like the rest.
pub(crate) fn repair_then_check(
    mut args: Value,
    schema: &CompiledSchema,
    leniency: &Leniency,
    complete: impl FnOnce(&mut Value),
) -> Result<Value, (Value, Vec<ArgumentError>)> {
    repair::normalize(&mut args, &schema.root, leniency, false);
    complete(&mut args);
    let mut problems = check::problems(&args, &schema.root, leniency);
    if problems.is_empty() {
        Ok(args)
    } else {
        problems.truncate(MAX_REPORTED_VIOLATIONS);
        Err((args, problems))
    }
}

#[cfg(test)]
mod fixtures {
    use serde_json::{Value, json};

    pub fn schema() -> Value {
        json!({
            "type": "object",
            "properties": {
                "todos": {
                    "type": "array",
                    "minItems": 0,
                    "items": {
                        "type": "object",
                        "properties": {
                            "id": {"type": "string", "x-id": true},
                            "content": {"type": "string"},
                            "activeForm": {"type": "string"},
                            "status": {
                                "type": "string",
                                "enum": ["pending", "in_progress", "completed"],
                                "x-aliases": {"done": "completed"}
                            }
                        },
                        "required": ["content", "status", "activeForm"]
                    }
                },
                "remove": {"type": "array", "items": {"type": "string"}, "x-id": true},
                "note": {"type": ["string", "null"]}
            },
            "required": ["todos"]
        })
    }

    pub fn closed_schema() -> Value {
        json!({
            "type": "object",
            "properties": {"plan": {"type": "array", "minItems": 1, "items": {"type": "string"}}},
            "required": ["plan"],
            "additionalProperties": false
        })
    }

    pub fn item() -> Value {
        json!({"content": "a", "status": "pending", "activeForm": "A"})
    }
}
