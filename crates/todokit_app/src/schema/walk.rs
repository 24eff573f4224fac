//! Visiting every object of a schema.

use serde_json::{Map, Value};

/// Applies `f` to every schema object in `value`, parents before children.
pub(super) fn walk(value: &mut Value, f: &mut dyn FnMut(&mut Map<String, Value>)) {
    let Some(map) = value.as_object_mut() else {
        return;
    };
    f(map);
    if let Some(Value::Object(props)) = map.get_mut("properties") {
        for sub in props.values_mut() {
            walk(sub, f);
        }
    }
    if let Some(items) = map.get_mut("items") {
        walk(items, f);
    }
    for keyword in ["anyOf", "oneOf", "allOf"] {
        if let Some(Value::Array(list)) = map.get_mut(keyword) {
            for sub in list {
                walk(sub, f);
            }
        }
    }
}
