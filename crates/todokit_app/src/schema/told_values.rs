//! [`told_values`]: a string whose allowed values the original tells the
//! model in words, not as an `enum`.
//!
//! Some originals send a plain string and list its values in the
//! description (opencode's `todowrite` statuses and priorities). The
//! model should see that plain string; the decoding layer still needs the
//! values, to repair a spelling and to say what is allowed. This
//! transform, for `#[schemars(transform = told_values)]`, moves the
//! `enum` to the `x-values` extension, which the decoding layer reads as
//! it reads `enum` and every model-facing view strips (as every `x-`
//! key).

use schemars::Schema;

use crate::arguments::VALUES_KEY;

/// Moves the schema's `enum` to the `x-values` extension.
pub fn told_values(schema: &mut Schema) {
    if let Some(object) = schema.as_object_mut()
        && let Some(values) = object.remove("enum")
    {
        object.insert(VALUES_KEY.to_owned(), values);
    }
}

#[cfg(test)]
mod tests {
    use pretty_assertions::assert_eq;
    use serde_json::json;

    use super::*;

    #[test]
    fn the_enum_moves_to_the_extension() {
        let mut fixture: Schema =
            serde_json::from_value(json!({"type": "string", "enum": ["a", "b"], "description": "d"}))
                .expect("a schema");
        told_values(&mut fixture);
        let expected = json!({"type": "string", "x-values": ["a", "b"], "description": "d"});
        assert_eq!(fixture.to_value(), expected);
    }
}
