//! The size gate's own tests: the skim agrees with the walk, and each cap
//! is refused at one past it, naming the field.

use super::*;
use pretty_assertions::assert_eq;
use serde_json::json;

fn limits() -> SizeLimits {
    SizeLimits {
        item_text_bytes: 10,
        list_text_bytes: 40,
        list_text_fields: vec!["checklist"],
        array_items: 3,
        task_text_bytes: 10,
    }
}

fn schema() -> CompiledSchema {
    CompiledSchema::new(&json!({
        "type": "object",
        "properties": {
            "todos": {"type": "array", "items": {"type": "object", "properties": {"content": {"type": "string"}}}},
            "checklist": {"type": "string"},
        },
    }))
}

fn verdict(text: &str) -> Option<String> {
    refused_text(text, &schema(), &limits()).map(|e| e.to_string())
}

#[test]
fn each_cap_is_refused_at_one_past_it_naming_the_field() {
    let fixture = [
        json!({"todos": [{"content": "x".repeat(10)}]}),
        json!({"todos": [{"content": "x".repeat(11)}]}),
        json!({"checklist": "x".repeat(40)}),
        json!({"checklist": "x".repeat(41)}),
        json!({"todos": [1, 2, 3]}),
        json!({"todos": [1, 2, 3, 4]}),
        json!({"other": {"deep": ["é".repeat(6)]}}),
        json!({"todos": json!([1, 2, 3, 4]).to_string()}),
        json!({"todos": "x".repeat(41)}),
        json!({ "k".repeat(11): 1 }),
    ];
    let actual: Vec<Option<String>> = fixture.iter().map(|v| verdict(&v.to_string())).collect();
    let expected = vec![
        None,
        Some("todos[0].content: 11 bytes of UTF-8 were sent; at most 10 bytes are allowed".to_owned()),
        None,
        Some("checklist: 41 bytes of UTF-8 were sent; at most 40 bytes are allowed".to_owned()),
        None,
        Some("todos: 4 items were sent; at most 3 are allowed in one list".to_owned()),
        Some("other.deep[0]: 12 bytes of UTF-8 were sent; at most 10 bytes are allowed".to_owned()),
        Some("todos: 4 items were sent; at most 3 are allowed in one list".to_owned()),
        Some("todos: 41 bytes of UTF-8 were sent; at most 40 bytes are allowed".to_owned()),
        Some("(arguments): a key of 11 bytes was sent; at most 10 bytes are allowed".to_owned()),
    ];
    assert_eq!(actual, expected);
}

#[test]
fn the_skim_never_passes_what_the_walk_refuses() {
    // Escapes make a literal longer than its text, never shorter.
    let fixture = [
        r#"{"todos":[{"content":"\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9"}]}"#.to_owned(),
        r#"{"todos":[{"content":"a\"b\\c"}]}"#.to_owned(),
        format!(r#"{{"todos":[{{"content":"{}"}}]}}"#, "\\n".repeat(6)),
        r#"{"todos":[[1,2],[3,4],[5,6]]}"#.to_owned(),
        r#"{"todos":"[1,2,3,4]"}"#.to_owned(),
    ];
    let actual: Vec<(bool, bool)> = fixture
        .iter()
        .map(|text| {
            let value: Value = serde_json::from_str(text).expect("JSON");
            let walked = refused_value(&value, &schema(), &limits()).is_none();
            (skim_fits(text.as_bytes(), &limits()) && !walked, walked)
        })
        .collect();
    let expected = vec![
        (false, false),
        (false, true),
        (false, true),
        (false, true),
        (false, false),
    ];
    assert_eq!(actual, expected);
}

#[test]
fn checklist_text_is_skimmed_and_json_in_text_is_read_whole() {
    let fixture = [
        r#"{"todos":"[x] Read\n[-] Fix\n[ ] Test"}"#,
        r#"{"todos":"[{\"content\":\"a\"}]"}"#,
        r#"{"todos":"[1,2]"}"#,
        r#"{"todos":"{\"a\":1}"}"#,
    ];
    // Room for the checklist: only its shape may send it to the walk.
    let roomy = SizeLimits {
        item_text_bytes: 100,
        ..limits()
    };
    let actual: Vec<bool> = fixture
        .iter()
        .map(|text| skim_fits(text.as_bytes(), &roomy))
        .collect();
    let expected = vec![true, false, false, false];
    assert_eq!(actual, expected);
}

#[test]
fn an_item_text_refusal_names_the_smaller_cap_of_a_task_s_text() {
    let tight = SizeLimits {
        task_text_bytes: 4,
        ..limits()
    };
    let fixture = [
        json!({"todos": [{"content": "x".repeat(11)}]}),
        json!({"checklist": "x".repeat(41)}),
    ];
    let actual: Vec<Option<String>> = fixture
        .iter()
        .map(|v| refused_text(&v.to_string(), &schema(), &tight).map(|e| e.to_string()))
        .collect();
    let expected = vec![
        Some(
            "todos[0].content: 11 bytes of UTF-8 were sent; at most 10 bytes are allowed, and a task's text may have at \
             most 4"
                .to_owned(),
        ),
        Some("checklist: 41 bytes of UTF-8 were sent; at most 40 bytes are allowed".to_owned()),
    ];
    assert_eq!(actual, expected);
}

#[test]
fn a_nul_anywhere_is_named_and_an_escaped_backslash_is_not_one() {
    let fixture = [
        r#"{"todos":[{"content":"ok"},{"content":"a\u0000b"}]}"#,
        r#"{"todos":[{"content":"a\\u0000b"}]}"#,
        r#"{"meta":{"k\u0000":1}}"#,
        r#""\u0000""#,
        r#"{"todos":[{"content":"plain"}]}"#,
    ];
    let actual: Vec<Option<String>> = fixture
        .iter()
        .map(|text| refused_text(text, &schema(), &limits()).map(|e| e.field().to_owned()))
        .collect();
    let expected = vec![
        Some("todos[1].content".to_owned()),
        None,
        Some("meta.k\\u0000".to_owned()),
        Some(ROOT_FIELD.to_owned()),
        None,
    ];
    let hand_edit = nul_in_value(&json!([{"tasks": [{"content": "x\u{0}y".repeat(5_000)}]}]))
        .map(|e| e.field().to_owned());
    assert_eq!(
        (actual, hand_edit),
        (expected, Some("[0].tasks[0].content".to_owned()))
    );
}

#[test]
fn values_are_counted_from_the_raw_text_and_strings_are_skipped() {
    let fixture = [
        (r#"{"a":[1,2,3]}"#, 4, false),
        (r#"{"a":[1,2,3]}"#, 3, true),
        (r#"{"a":"[,,,,{{{[[[","b":"\",["}"#, 2, false),
        (r#"[[[[[0]]]],[[[[0]]]]]"#, 9, true),
        (r#"[[[[[0]]]],[[[[0]]]]]"#, 10, false),
        ("", 0, false),
        (r#"{"open":"never closed"#, 0, true),
    ];
    let actual: Vec<bool> = fixture
        .iter()
        .map(|(text, limit, _)| json_values_over(text.as_bytes(), *limit))
        .collect();
    let expected: Vec<bool> = fixture.iter().map(|(_, _, over)| *over).collect();
    assert_eq!(actual, expected);
}

#[test]
fn a_call_of_millions_of_tiny_values_is_refused_before_it_is_parsed() {
    let nested = format!(r#"{{"todos":[{}0]}}"#, "[[[[0]]]],".repeat(10_000));
    let flat = format!(r#"{{"todos":[{}0]}}"#, "0,".repeat(100_000));
    let actual: Vec<Option<String>> = [nested, flat]
        .iter()
        .map(|text| refused_text(text, &schema(), &limits()).map(|e| e.to_string()))
        .collect();
    let message = "(arguments): the arguments hold more than 4096 values (list items, keys and nested values \
                   together); a call holds at most 4096";
    let expected = vec![Some(message.to_owned()), Some(message.to_owned())];
    assert_eq!(actual, expected);
}

#[test]
fn a_string_ends_past_its_closing_quote_whatever_it_escapes() {
    let fixture: [(&[u8], usize); 5] = [
        (br#""plain" rest"#, 1),
        (br#""say \"hi\"" rest"#, 1),
        (br#""back\\" rest"#, 1),
        (br#""never closed"#, 1),
        (br#""ends with a lone \"#, 1),
    ];
    let actual: Vec<Option<usize>> = fixture
        .iter()
        .map(|(text, at)| json_string_end(text, *at))
        .collect();
    let expected = vec![Some(7), Some(12), Some(8), None, None];
    assert_eq!(actual, expected);
}

/// The end of the string starting at `at`, found the plainest way.
fn string_end_by_hand(text: &[u8], mut at: usize) -> Option<usize> {
    while let Some(&byte) = text.get(at) {
        match byte {
            b'"' => return Some(at + 1),
            b'\\' => at += 2,
            _ => at += 1,
        }
    }
    None
}

#[test]
fn a_string_of_any_length_ends_where_a_byte_by_byte_reading_ends_it() {
    // memchr reads 16 and 32 bytes at a time: every length across those
    // blocks, with an escape on each side of their edges, closed or not.
    let escapes = [0, 15, 16, 17, 31, 32, 33, 63].map(Some);
    let mut fixture: Vec<Vec<u8>> = Vec::new();
    for length in 0..70 {
        for escape_at in std::iter::once(None).chain(escapes) {
            for closed in [true, false] {
                let mut text = b"\"".to_vec();
                for i in 0..length {
                    match escape_at == Some(i) {
                        true => text.extend_from_slice(b"\\\""),
                        false => text.push(b'a'),
                    }
                }
                if closed {
                    text.extend_from_slice(b"\" tail");
                }
                fixture.push(text);
            }
        }
    }
    let actual: Vec<Option<usize>> = fixture.iter().map(|text| json_string_end(text, 1)).collect();
    let expected: Vec<Option<usize>> = fixture.iter().map(|text| string_end_by_hand(text, 1)).collect();
    assert_eq!(actual, expected);
}
