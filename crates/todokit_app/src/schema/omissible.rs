//! [`omissible`]: a field a call may leave out, shown as its plain type.
//!
//! schemars shows an `Option<T>` field as "T or null" with a `null`
//! default. Some dialects' fields may be left out but are never `null`
//! (Cursor's merge items): their originals show the plain type, and so
//! does this transform, for `#[schemars(transform = omissible)]`.

use schemars::Schema;
use serde_json::Value;

/// Removes `null` from the schema's types and allowed values, and a
/// `null` default.
pub fn omissible(schema: &mut Schema) {
    let Some(object) = schema.as_object_mut() else {
        return;
    };
    if let Some(Value::Array(types)) = object.get_mut("type") {
        types.retain(|t| t != "null");
        if let [only] = types.as_slice() {
            let only = only.clone();
            object.insert("type".to_owned(), only);
        }
    }
    if let Some(Value::Array(values)) = object.get_mut("enum") {
        values.retain(|v| !v.is_null());
    }
    if object.get("default") == Some(&Value::Null) {
        object.remove("default");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;
    use serde_json::json;

    #[test]
    fn null_leaves_the_types_the_values_and_the_default() {
        let mut fixture: Schema =
            json!({"type": ["string", "null"], "enum": ["a", null], "default": null, "description": "d"})
                .try_into()
                .unwrap_or_default();
        omissible(&mut fixture);
        let actual = fixture.to_value();
        let expected = json!({"type": "string", "enum": ["a"], "description": "d"});
        assert_eq!(actual, expected);
    }
}
