//! Pretty JSON for results whose details are already written as JSON text.
//!
//! A result's details arrive as compact JSON text. Printing the result
//! through a `serde_json::Value` read that text back into a tree only to
//! indent it, which was half of a `todokit call`'s instructions. This
//! formatter indents the text as it copies it, and writes exactly what
//! `serde_json::to_string_pretty` writes for the same value: two spaces a
//! level, `": "` after a key, empty arrays and objects as `[]` and `{}`.
//! Strings and numbers are copied as they are, which is how serde_json
//! writes them again after reading them (the text is serde_json's own).

use std::io::{self, Write};

use serde::Serialize;
use serde_json::ser::{Formatter, PrettyFormatter};
use todokit::internal::json_string_end;

/// `value` as pretty JSON, details indented in place.
pub fn to_string_pretty<T: Serialize>(value: &T) -> serde_json::Result<String> {
    let mut out = Vec::with_capacity(4096);
    let mut serializer = serde_json::Serializer::with_formatter(&mut out, Indenting::default());
    value.serialize(&mut serializer)?;
    // serde_json writes only valid UTF-8, and the fragments copied are
    // `str`s cut at ASCII bytes.
    String::from_utf8(out).map_err(|e| serde_json::Error::io(io::Error::other(e)))
}

/// serde_json's pretty formatter, counting how deep it is so a raw
/// fragment can be indented to match.
#[derive(Default)]
struct Indenting {
    inner: PrettyFormatter<'static>,
    depth: usize,
}

const INDENT: &[u8] = b"  ";

fn new_line<W: ?Sized + Write>(writer: &mut W, depth: usize) -> io::Result<()> {
    writer.write_all(b"\n")?;
    for _ in 0..depth {
        writer.write_all(INDENT)?;
    }
    Ok(())
}

/// The index of the first byte of `bytes` from `from` on that is not JSON
/// whitespace.
fn skip_space(bytes: &[u8], from: usize) -> usize {
    bytes[from.min(bytes.len())..]
        .iter()
        .position(|b| !matches!(b, b' ' | b'\n' | b'\r' | b'\t'))
        .map_or(bytes.len(), |i| from + i)
}

/// Writes the JSON text `fragment` indented as if it stood `depth` levels
/// deep in a pretty document.
fn write_indented<W: ?Sized + Write>(writer: &mut W, fragment: &str, depth: usize) -> io::Result<()> {
    let bytes = fragment.as_bytes();
    let mut depth = depth;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                // Copy the string whole: its quotes, escapes and any of
                // the characters that are structure outside it.
                // (A fragment is valid JSON, so its strings end; one that
                // did not would be copied to the end.)
                let end = json_string_end(bytes, i + 1)
                    .unwrap_or(bytes.len())
                    .min(bytes.len());
                writer.write_all(&bytes[i..end])?;
                i = end;
                continue;
            }
            open @ (b'{' | b'[') => {
                let close = if open == b'{' { b'}' } else { b']' };
                let next = skip_space(bytes, i + 1);
                if bytes.get(next) == Some(&close) {
                    writer.write_all(&[open, close])?;
                    i = next + 1;
                    continue;
                }
                writer.write_all(&[open])?;
                depth += 1;
                new_line(writer, depth)?;
            }
            close @ (b'}' | b']') => {
                depth = depth.saturating_sub(1);
                new_line(writer, depth)?;
                writer.write_all(&[close])?;
            }
            b',' => {
                writer.write_all(b",")?;
                new_line(writer, depth)?;
            }
            b':' => writer.write_all(b": ")?,
            b' ' | b'\n' | b'\r' | b'\t' => {}
            _ => {
                // A number, `true`, `false` or `null`: up to the next
                // byte that ends it.
                let end = bytes[i..]
                    .iter()
                    .position(|b| {
                        matches!(b, b',' | b'}' | b']' | b':' | b' ' | b'\n' | b'\r' | b'\t' | b'"')
                    })
                    .map_or(bytes.len(), |n| i + n);
                writer.write_all(&bytes[i..end])?;
                i = end;
                continue;
            }
        }
        i += 1;
    }
    Ok(())
}

impl Formatter for Indenting {
    fn begin_array<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.depth += 1;
        self.inner.begin_array(writer)
    }

    fn end_array<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.depth -= 1;
        self.inner.end_array(writer)
    }

    fn begin_array_value<W: ?Sized + Write>(&mut self, writer: &mut W, first: bool) -> io::Result<()> {
        self.inner.begin_array_value(writer, first)
    }

    fn end_array_value<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.inner.end_array_value(writer)
    }

    fn begin_object<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.depth += 1;
        self.inner.begin_object(writer)
    }

    fn end_object<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.depth -= 1;
        self.inner.end_object(writer)
    }

    fn begin_object_key<W: ?Sized + Write>(&mut self, writer: &mut W, first: bool) -> io::Result<()> {
        self.inner.begin_object_key(writer, first)
    }

    fn begin_object_value<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.inner.begin_object_value(writer)
    }

    fn end_object_value<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.inner.end_object_value(writer)
    }

    fn write_raw_fragment<W: ?Sized + Write>(&mut self, writer: &mut W, fragment: &str) -> io::Result<()> {
        write_indented(writer, fragment, self.depth)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;
    use serde_json::value::RawValue;

    #[derive(Serialize)]
    struct Wrapped<'a> {
        flag: bool,
        raw: &'a RawValue,
        after: Vec<u32>,
    }

    /// What the slow way writes: the whole value read into a tree first.
    fn through_a_tree(raw: &str) -> String {
        let value = serde_json::json!({
            "flag": true,
            "raw": serde_json::from_str::<serde_json::Value>(raw).unwrap(),
            "after": [1, 2],
        });
        serde_json::to_string_pretty(&value).unwrap()
    }

    #[test]
    fn a_fragment_is_indented_as_the_tree_would_be() {
        let fragments = [
            r#"{}"#,
            r#"[]"#,
            r#"null"#,
            r#"-1.5e-7"#,
            r#""a \"quoted\" {[,:]} \\ string""#,
            r#"{"a":[],"b":{},"c":[1,{"d":null,"e":[true,false]}],"f":"x,y:z{"}"#,
            r#"[[[]],[{}],[[1]],{"k":[{"l":{}}]}]"#,
            r#"{ "spaced" : [ 1 , 2 ] , "empty" : { } , "list" : [ ] }"#,
            r#"{"é":"é\n\t\u0001","emoji":"😀","big":18446744073709551615,"neg":-9223372036854775808}"#,
        ];
        for fragment in fragments {
            let wrapped = Wrapped {
                flag: true,
                raw: &RawValue::from_string(fragment.to_owned()).unwrap(),
                after: vec![1, 2],
            };
            let actual = to_string_pretty(&wrapped).unwrap();
            let expected = through_a_tree(fragment);
            assert_eq!(actual, expected, "fragment {fragment}");
        }
    }

    /// Every profile's example call, twice (a first write, then a rewrite
    /// with transitions), and a refused call: the result as `call` prints
    /// it is what the tree would print.
    #[test]
    fn every_profiles_results_print_as_the_tree_prints_them() {
        use std::sync::Arc;
        use todokit::{ManualClock, MemoryStore, TodoWriteService, profiles};
        let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
        for profile in profiles::all() {
            let Some(example) = profile.example() else {
                continue;
            };
            let name = profile.name().to_owned();
            let service = TodoWriteService::new(
                profile,
                Arc::new(MemoryStore::new()),
                Arc::new(ManualClock::new(5)),
            );
            for arguments in [
                example.arguments,
                example.arguments,
                "{\"not\": [\"what it takes\"]}",
            ] {
                let result = runtime
                    .block_on(service.call("c", example.tool, arguments))
                    .unwrap();
                let actual = to_string_pretty(&result).unwrap();
                let expected = serde_json::to_string_pretty(&serde_json::to_value(&result).unwrap()).unwrap();
                assert_eq!(actual, expected, "{name} {arguments}");
            }
        }
    }
}
