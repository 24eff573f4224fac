//! The canonical input schema of a tool, generated from its input type:
//! every subschema inlined, enums as plain lists, doc comments as one-line
//! descriptions, forgiven spellings named in the description.

use schemars::JsonSchema;
use schemars::generate::SchemaSettings;
use serde_json::{Map, Value};

use super::walk::walk;
use crate::arguments::ALIASES_KEY;

/// The canonical input schema of `T`.
pub fn canonical<T: JsonSchema>() -> Value {
    let generator = SchemaSettings::draft2020_12()
        .with(|s| {
            s.inline_subschemas = true;
            s.meta_schema = None;
        })
        .into_generator();
    let mut value = generator.into_root_schema_for::<T>().to_value();
    if let Some(root) = value.as_object_mut() {
        // The type's name and doc comment are for Rust readers; the tool's
        // description is what the model reads.
        root.remove("title");
        root.remove("description");
    }
    walk(&mut value, &mut collapse_const_one_of);
    walk(&mut value, &mut unwrap_description);
    walk(&mut value, &mut describe_aliases);
    value
}

/// Joins the lines of a hard-wrapped doc comment: a line break the source
/// needed for width is a space to the model. Blank lines (paragraphs) stay.
fn unwrap_description(node: &mut Map<String, Value>) {
    let Some(Value::String(text)) = node.get_mut("description") else {
        return;
    };
    if !text.contains('\n') {
        return;
    }
    let paragraphs: Vec<String> = text
        .split("\n\n")
        .map(|p| p.split('\n').map(str::trim).collect::<Vec<_>>().join(" "))
        .collect();
    *text = paragraphs.join("\n\n");
}

/// Says in an enum's description which extra spellings it accepts, so the
/// views (which drop `x-aliases`) still tell the model.
fn describe_aliases(node: &mut Map<String, Value>) {
    let Some(Value::Object(aliases)) = node.get(ALIASES_KEY) else {
        return;
    };
    let pairs: Vec<String> = aliases
        .iter()
        .map(|(alias, target)| format!("`{alias}` for `{}`", target.as_str().unwrap_or_default()))
        .collect();
    if pairs.is_empty() {
        return;
    }
    let note = format!("Also accepted: {}.", pairs.join(", "));
    let description = match node.get("description").and_then(Value::as_str) {
        Some(text) => format!("{text} {note}"),
        None => note,
    };
    node.insert("description".into(), Value::String(description));
}

/// A `oneOf` whose branches are all string constants (what schemars makes of
/// an enum whose variants carry doc comments) becomes a plain `enum`, the
/// shape every provider handles.
fn collapse_const_one_of(node: &mut Map<String, Value>) {
    let Some(Value::Array(branches)) = node.get("oneOf") else {
        return;
    };
    let consts: Option<Vec<Value>> = branches
        .iter()
        .map(|b| {
            let b = b.as_object()?;
            let only_const = b
                .keys()
                .all(|k| matches!(k.as_str(), "const" | "type" | "description"));
            b.get("const").filter(|c| c.is_string() && only_const).cloned()
        })
        .collect();
    if let Some(consts) = consts {
        node.remove("oneOf");
        node.insert("type".into(), "string".into());
        node.insert("enum".into(), Value::Array(consts));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn wrapped_doc_lines_join_and_paragraphs_stay() {
        let mut fixture = Map::new();
        fixture.insert(
            "description".into(),
            "One line\nwrapped.\n\nA second\n paragraph.".into(),
        );
        unwrap_description(&mut fixture);
        let actual = fixture["description"].clone();
        let expected = Value::from("One line wrapped.\n\nA second paragraph.");
        assert_eq!(actual, expected);
    }
}
