//! [`undescribed`]: a type whose doc comment is for Rust readers only.
//!
//! schemars makes a type's doc comment its schema's description, which the
//! model reads. Where the original gives a subschema no description (Qwen
//! Code's todo items), the Rust type still needs its doc comment; this
//! transform, for `#[schemars(transform = undescribed)]`, keeps it out of
//! the schema.

use schemars::Schema;

/// Removes the schema's description (and title), leaving its fields'.
pub fn undescribed(schema: &mut Schema) {
    if let Some(object) = schema.as_object_mut() {
        object.remove("description");
        object.remove("title");
    }
}

#[cfg(test)]
mod tests {
    use pretty_assertions::assert_eq;
    use schemars::JsonSchema;
    use serde_json::json;

    use super::*;

    /// For Rust readers only.
    #[allow(dead_code)]
    #[derive(JsonSchema)]
    #[schemars(transform = undescribed)]
    struct Item {
        /// What to do.
        content: String,
    }

    #[test]
    fn the_types_doc_comment_stays_out_and_its_fields_descriptions_stay_in() {
        let actual = crate::schema::canonical::canonical::<Vec<Item>>();
        let expected = json!({
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"content": {"type": "string", "description": "What to do."}},
                "required": ["content"],
            },
        });
        assert_eq!(actual, expected);
    }
}
