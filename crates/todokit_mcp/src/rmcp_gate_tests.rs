//! The MCP gate's unit tests: the quick reading of a tool call against
//! the full one, and the nesting count against a byte-by-byte one.

use super::*;
use pretty_assertions::assert_eq;

/// The rmcp release the list of client methods and the stdio fast path (which
/// answers `tools/call` with the bytes rmcp would write) were checked
/// against; the workspace pins rmcp to exactly this version, and a test
/// fails when the lock file names another, so a new rmcp is re-checked
/// before it is used.
const RMCP_VERSION: &str = "3.9.0";

fn verdict(line: &str) -> Verdict {
    classify(line.as_bytes())
}

/// The plain byte-by-byte count `nesting_depth` must agree with.
fn depth_byte_by_byte(text: &str) -> usize {
    let (mut depth, mut deepest, mut in_string, mut escaped) = (0usize, 0usize, false, false);
    for byte in text.bytes() {
        match (in_string, escaped, byte) {
            (true, true, _) => escaped = false,
            (true, false, b'\\') => escaped = true,
            (true, false, b'"') => in_string = false,
            (true, false, _) => {}
            (false, _, b'"') => in_string = true,
            (false, _, b'[' | b'{') => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            (false, _, b']' | b'}') => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

/// What `nesting_depth` must say: the depth, or anything past the
/// limit for a text deeper than it.
fn agrees(text: &str, limit: usize) -> bool {
    let (actual, expected) = (nesting_depth(text, limit), depth_byte_by_byte(text));
    match expected > limit {
        true => actual > limit,
        false => actual == expected,
    }
}

#[test]
fn nesting_depth_agrees_with_a_byte_by_byte_count_on_every_short_text() {
    const ALPHABET: [char; 7] = ['{', '}', '[', ']', '"', '\\', 'a'];
    let mut disagreements = Vec::new();
    let mut text = String::new();
    for length in 0..=6u32 {
        for mut code in 0..7usize.pow(length) {
            text.clear();
            for _ in 0..length {
                text.push(ALPHABET[code % 7]);
                code /= 7;
            }
            for limit in 0..=3 {
                if !agrees(&text, limit) {
                    disagreements.push((text.clone(), limit));
                }
            }
        }
    }
    let actual = disagreements.into_iter().take(5).collect::<Vec<_>>();
    let expected: Vec<(String, usize)> = Vec::new();
    assert_eq!(actual, expected);
}

/// Long strings, with escapes and brackets at every offset around the
/// widths `memchr` reads at a time.
#[test]
fn nesting_depth_agrees_with_a_byte_by_byte_count_across_long_strings() {
    let mut disagreements = Vec::new();
    for before in 0..80 {
        for after in 0..80 {
            let filler = |n: usize| "x".repeat(n);
            let texts = [
                format!(
                    r#"{{"a":"{}\\"{}[{{","b":[[{}]]}}"#,
                    filler(before),
                    filler(after),
                    filler(after)
                ),
                format!(
                    r#"[{}"{}\\\\"{{[{}"#,
                    filler(before),
                    filler(after),
                    filler(before)
                ),
                format!(r#"{{"{}\\"#, filler(before)),
                format!(r#"[["{}\\\"]"]{}]"#, filler(before), filler(after)),
            ];
            for text in texts {
                for limit in [1, 2, 64] {
                    if !agrees(&text, limit) {
                        disagreements.push((text.clone(), limit));
                    }
                }
            }
        }
    }
    let actual = disagreements.into_iter().take(5).collect::<Vec<_>>();
    let expected: Vec<(String, usize)> = Vec::new();
    assert_eq!(actual, expected);
}

fn code_and_id(verdict: Verdict) -> (Value, Value) {
    match verdict {
        Verdict::Reply(reply) => (reply["error"]["code"].clone(), reply["id"].clone()),
        other => (json!(format!("{other:?}")), Value::Null),
    }
}

/// Every combination of the parts of a `tools/call` that the quick
/// reading looks at, well formed and not.
fn tool_call_variants() -> Vec<String> {
    let ids = [
        r#"1"#,
        r#""a""#,
        r#"-3"#,
        r#"1.5"#,
        r#"18446744073709551615"#,
        r#"null"#,
        r#"{}"#,
        r#""\u0061""#,
    ];
    let versions = [r#""2.0""#, r#""1.0""#, r#"2"#, r#""2\u002e0""#];
    let methods = [
        r#""tools/call""#,
        r#""tools/list""#,
        r#""tools\/call""#,
        r#""custom/thing""#,
    ];
    let params = [
        r#"{"name":"TodoWrite","arguments":{"todos":[]}}"#,
        r#"{"name":"TodoWrite"}"#,
        r#"{"name":"TodoWrite","arguments":null}"#,
        r#"{"name":"TodoWrite","arguments":[1]}"#,
        r#"{"name":"TodoWrite","arguments":"{}"}"#,
        r#"{"name":7,"arguments":{}}"#,
        r#"{"arguments":{}}"#,
        r#"{"name":"TodoWrite","arguments":{},"_meta":{"progressToken":1}}"#,
        r#"{"name":"TodoWrite","arguments":{},"requestState":"s"}"#,
        r#"{"name":"Todo\u0057rite","arguments":{}}"#,
        r#"{"name":"TodoWrite","arguments":{},"name":"Other"}"#,
        r#"[]"#,
        r#"null"#,
    ];
    let mut lines = Vec::new();
    for id in ids {
        for version in versions {
            for method in methods {
                for param in params {
                    lines.push(format!(
                        r#"{{"jsonrpc":{version},"id":{id},"method":{method},"params":{param}}}"#
                    ));
                }
            }
        }
    }
    let good = r#""jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"TodoWrite","arguments":{}}"#;
    // Deep arguments, and brackets and escapes inside strings.
    for depth in [60, 62, 63, 64, 65, 126, 127, 130, 100_000] {
        let deep = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        lines.push(format!(
            r#"{{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{{"name":"T","arguments":{{"a":{deep},"s":"[[\"\\"}}}}}}"#
        ));
    }
    lines.extend([
        format!("{{{good},\"extra\":true}}"),
        format!("{{{good},\"id\":2}}"),
        format!("{{{good}}} trailing"),
        format!(" {{ {good} }} "),
        r#"{"jsonrpc":"2.0","method":"tools/call","params":{"name":"TodoWrite","arguments":{}}}"#.to_owned(),
    ]);
    lines
}

#[test]
fn the_quick_reading_of_a_tool_call_agrees_with_the_full_one() {
    let lines = tool_call_variants();
    let quick: Vec<(&String, Verdict)> = lines
        .iter()
        .filter_map(|line| plain_tool_call(line.as_bytes()).map(|_| (line, classify(line.as_bytes()))))
        .collect();
    // The same decision; the full reading passes on its own rewriting.
    let decision = |verdict: &Verdict| match verdict {
        Verdict::Forward { request, cancels, .. } => Some((request.clone(), cancels.clone())),
        _ => None,
    };
    let disagreements: Vec<&String> = quick
        .iter()
        .filter(|(line, verdict)| decision(verdict) != decision(&classify_fully(line.as_bytes())))
        .map(|(line, _)| *line)
        .collect();
    // Ids 1, "a", -3 and an escaped "a" under version "2.0" and method
    // "tools/call", each with the three params that have a name and
    // object or no arguments; arguments nested at most 64 deep (60, 62,
    // 63: the object around them is one more); and the whole message
    // with spaces around.
    let actual = (disagreements, quick.len());
    let expected = (Vec::<&String>::new(), 4 * 3 + 3 + 1);
    assert_eq!(actual, expected);
}

#[test]
fn well_formed_messages_pass_with_the_ids_to_wait_for() {
    let actual = vec![
        verdict(r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#),
        verdict(
            r#"{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"TodoWrite","arguments":{}}}"#,
        ),
        verdict(r#"{"jsonrpc":"2.0","id":2,"method":"no/such/method"}"#),
        verdict(r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"a"}}"#),
    ];
    let message = |text: &str| Some(text.as_bytes().to_vec());
    let expected = vec![
        Verdict::Forward {
            request: Some(json!(1)),
            cancels: None,
            message: message(r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#),
        },
        Verdict::Forward {
            request: Some(json!("a")),
            cancels: None,
            message: None,
        },
        Verdict::Forward {
            request: Some(json!(2)),
            cancels: None,
            message: message(r#"{"jsonrpc":"2.0","id":2,"method":"no/such/method"}"#),
        },
        Verdict::Forward {
            request: None,
            cancels: Some(json!("a")),
            message: message(
                r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"a"}}"#,
            ),
        },
    ];
    assert_eq!(actual, expected);
}

#[test]
fn ids_in_any_spelling_are_passed_on_as_rmcp_answers_them_and_repeated_keys_once() {
    let forwarded = |line: &str| match verdict(line) {
        Verdict::Forward { request, message, .. } => {
            let message = message.map(|m| String::from_utf8_lossy(&m).into_owned());
            json!([request, message])
        }
        other => json!(format!("{other:?}")),
    };
    let actual: Vec<Value> = [
        r#"{"jsonrpc":"2.0","id":100.0,"method":"ping"}"#,
        r#"{"jsonrpc":"2.0","id":1e0,"method":"ping"}"#,
        r#"{"jsonrpc":"2.0","id":-0,"method":"ping"}"#,
        r#"{"jsonrpc":"2.0","id":7,"id":8,"method":"ping"}"#,
        r#"{"jsonrpc":"2.0","id":9,"method":"tools/list","method":"ping"}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":4.0}}"#,
    ]
    .into_iter()
    .map(forwarded)
    .collect();
    let expected = vec![
        json!([100, r#"{"jsonrpc":"2.0","id":100,"method":"ping"}"#]),
        json!([1, r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#]),
        json!([0, r#"{"jsonrpc":"2.0","id":0,"method":"ping"}"#]),
        json!([8, r#"{"jsonrpc":"2.0","id":8,"method":"ping"}"#]),
        json!([9, r#"{"jsonrpc":"2.0","id":9,"method":"ping"}"#]),
        json!([
            null,
            r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":4}}"#
        ]),
    ];
    assert_eq!(actual, expected);
}

#[test]
fn an_id_that_is_not_a_string_or_a_64_bit_integer_is_refused_with_a_null_id() {
    let actual: Vec<(Value, Value)> = [
        r#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#,
        r#"{"jsonrpc":"2.0","id":1e300,"method":"ping"}"#,
        r#"{"jsonrpc":"2.0","id":18446744073709551616,"method":"ping"}"#,
        r#"{"jsonrpc":"2.0","id":-9223372036854775809,"method":"ping"}"#,
        r#"{"jsonrpc":"2.0","id":true,"method":"ping"}"#,
        r#"{"jsonrpc":"2.0","id":"\u0001todokit-u64:1","method":"ping"}"#,
        r#"{"jsonrpc":"2.0","id":"\u0001x","method":"tools/call","params":{"name":"TodoWrite","arguments":{}}}"#,
        r#"{"jsonrpc":"2.0","id":9,"method":null}"#,
        r#"{"jsonrpc":"2.0","id":"m","method":5}"#,
    ]
    .into_iter()
    .map(|line| code_and_id(verdict(line)))
    .collect();
    let expected = vec![
        (json!(INVALID_REQUEST), Value::Null),
        (json!(INVALID_REQUEST), Value::Null),
        (json!(INVALID_REQUEST), Value::Null),
        (json!(INVALID_REQUEST), Value::Null),
        (json!(INVALID_REQUEST), Value::Null),
        (json!(INVALID_REQUEST), json!("\u{1}todokit-u64:1")),
        (json!(INVALID_REQUEST), json!("\u{1}x")),
        (json!(INVALID_REQUEST), json!(9)),
        (json!(INVALID_REQUEST), json!("m")),
    ];
    assert_eq!(actual, expected);
}

#[test]
fn integer_ids_from_minus_2_63_to_2_64_minus_1_pass_and_come_back_as_sent() {
    let fixture = [
        r#"{"jsonrpc":"2.0","id":-9223372036854775808,"method":"ping"}"#,
        r#"{"jsonrpc":"2.0","id":9223372036854775807,"method":"ping"}"#,
        r#"{"jsonrpc":"2.0","id":9223372036854775808,"method":"ping"}"#,
        r#"{"jsonrpc":"2.0","id":18446744073709551615,"method":"ping"}"#,
    ];
    let actual: Vec<Value> = fixture
        .iter()
        .map(|line| match verdict(line) {
            Verdict::Forward {
                request: Some(request),
                ..
            } => client_id(&request),
            other => json!(format!("{other:?}")),
        })
        .collect();
    let expected = vec![
        json!(i64::MIN),
        json!(i64::MAX),
        json!(9_223_372_036_854_775_808u64),
        json!(u64::MAX),
    ];
    assert_eq!(actual, expected);
}

#[test]
fn an_id_without_a_method_result_or_error_is_an_invalid_request_with_that_id() {
    let actual = vec![
        code_and_id(verdict(r#"{"jsonrpc":"2.0","id":201}"#)),
        code_and_id(verdict(r#"{"jsonrpc":"2.0","id":"a","params":{}}"#)),
        code_and_id(verdict(r#"{"jsonrpc":"2.0","id":18446744073709551615}"#)),
    ];
    let expected = vec![
        (json!(INVALID_REQUEST), json!(201)),
        (json!(INVALID_REQUEST), json!("a")),
        (json!(INVALID_REQUEST), json!(u64::MAX)),
    ];
    assert_eq!(actual, expected);
}

#[test]
fn wrong_params_of_a_known_method_are_invalid_params_with_the_request_id() {
    let actual: Vec<_> = [
        r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":5}}"#,
        r#"{"jsonrpc":"2.0","id":8,"method":"tools/call","params":"x"}"#,
        r#"{"jsonrpc":"2.0","id":9,"method":"tools/list","params":5}"#,
        r#"{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"T","arguments":[1]}}"#,
        r#"{"jsonrpc":"2.0","id":11,"method":"tools/call"}"#,
    ]
    .into_iter()
    .map(|line| code_and_id(verdict(line)))
    .collect();
    let expected: Vec<_> = (7..=11).map(|id| (json!(INVALID_PARAMS), json!(id))).collect();
    assert_eq!(actual, expected);
}

#[test]
fn the_invalid_params_message_says_what_is_wrong_with_a_tool_call() {
    let actual = verdict(r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":5}}"#);
    let expected = Verdict::Reply(error_reply(
        Some(json!(7)),
        INVALID_PARAMS,
        "Invalid params for tools/call: invalid type: integer `5`, expected a string".to_owned(),
    ));
    assert_eq!(actual, expected);
}

#[test]
fn what_is_not_a_request_is_answered_or_dropped_never_passed_on() {
    let actual = vec![
        code_and_id(verdict("not json")),
        code_and_id(verdict("[1,2]")),
        code_and_id(verdict(r#"{"id":12,"method":"tools/list"}"#)),
        code_and_id(verdict(r#"{"jsonrpc":"2.0","id":{"a":1},"method":"tools/list"}"#)),
        code_and_id(verdict(
            r#"{"jsonrpc":"1.0","method":"notifications/initialized"}"#,
        )),
    ];
    let expected = vec![
        (json!(PARSE_ERROR), Value::Null),
        (json!(INVALID_REQUEST), Value::Null),
        (json!(INVALID_REQUEST), json!(12)),
        (json!(INVALID_REQUEST), Value::Null),
        (
            json!(format!(
                "{:?}",
                Verdict::Drop("Invalid request: \"jsonrpc\" must be \"2.0\"".to_owned())
            )),
            Value::Null,
        ),
    ];
    assert_eq!(actual, expected);
}

#[test]
fn every_answer_and_drop_reason_of_the_gate_is_pinned() {
    let fixture = [
        "{not json",
        "[1, 2]",
        "42",
        r#"{"jsonrpc":"2.0","id":{"nested":true},"method":"tools/call","params":{"name":"x"}}"#,
        r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"arguments":{}}}"#,
        r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":"TodoWrite"}"#,
        r#"{"jsonrpc":"2.0","id":5,"method":"tools/list","params":[1]}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":"soon"}"#,
        r#"{"jsonrpc":"2.0","result":7}"#,
        r#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#,
        r#"{"jsonrpc":"2.0","id":9,"method":null}"#,
        r#"{"jsonrpc":"2.0","id":201}"#,
        r#"{"jsonrpc":"2.0","id":18446744073709551616,"method":"ping"}"#,
    ];
    let actual: Vec<Value> = fixture
        .iter()
        .map(|line| match verdict(line) {
            Verdict::Reply(reply) => json!({"line": line, "reply": reply}),
            Verdict::Drop(reason) => json!({"line": line, "dropped": reason}),
            Verdict::Forward { request, .. } => json!({"line": line, "forwarded": request}),
        })
        .chain([json!({"line": "(5 MiB)", "reply": too_large(Some(json!(7)), 5_242_880)})])
        .collect();
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(concat!(env!("CARGO_MANIFEST_DIR"), "/../../snapshots"));
    settings.set_omit_expression(true);
    settings.bind(|| insta::assert_json_snapshot!("mcp_gate_answers", actual));
}

#[test]
fn the_rmcp_in_the_lock_file_is_the_one_the_gate_was_checked_against() {
    let lock =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../Cargo.lock")).unwrap_or_default();
    let locked: Vec<&str> = lock
        .split("[[package]]")
        .filter(|entry| entry.contains("\nname = \"rmcp\"\n"))
        .filter_map(|entry| entry.split("\nversion = \"").nth(1)?.split('"').next())
        .collect();
    assert_eq!(
        locked,
        vec![RMCP_VERSION],
        "a new rmcp: check CLIENT_METHODS and the fast path's answers against it, then set RMCP_VERSION"
    );
}

#[test]
fn every_listed_method_is_one_rmcp_reads_as_its_own_request() {
    // Parameters rmcp takes for each method: a method it did not know (or
    // whose parameters it no longer reads so) would come back custom.
    let params = |method: &str| match method {
        "initialize" => {
            json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}})
        }
        "completion/complete" => {
            json!({"ref": {"type": "ref/prompt", "name": "p"}, "argument": {"name": "a", "value": "v"}})
        }
        "logging/setLevel" => json!({"level": "info"}),
        "prompts/get" | "skills/get" => json!({"name": "p", "uri": "skill://p"}),
        "resources/read" | "resources/subscribe" | "resources/unsubscribe" | "resources/directory/read" => {
            json!({"uri": "todo://x"})
        }
        "subscriptions/listen" => json!({"notifications": {}}),
        "tools/call" => json!({"name": "t"}),
        "tasks/get" | "tasks/cancel" => json!({"taskId": "t"}),
        "tasks/update" => json!({"taskId": "t", "inputResponses": {}}),
        _ => json!({}),
    };
    let read = |method: &str| {
        let message = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params(method)});
        match ClientJsonRpcMessage::deserialize(&message) {
            Ok(JsonRpcMessage::Request(request)) => match request.request {
                ClientRequest::CustomRequest(_) => "custom".to_owned(),
                known => format!("known as {}", known.method()),
            },
            Ok(_) => "not a request".to_owned(),
            Err(error) => format!("refused: {error}"),
        }
    };
    let actual: Vec<(&str, String)> = CLIENT_METHODS
        .iter()
        .copied()
        .chain(["todokit/unknown"])
        .map(|method| (method, read(method)))
        .collect();
    let expected: Vec<(&str, String)> = CLIENT_METHODS
        .iter()
        .map(|method| (*method, format!("known as {method}")))
        .chain([("todokit/unknown", "custom".to_owned())])
        .collect();
    assert_eq!(actual, expected);
}
