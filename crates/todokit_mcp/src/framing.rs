//! Newline-delimited messages read with a size cap.
//!
//! A line longer than the cap is never held in memory: its bytes are
//! counted and skimmed for a top-level `"id"` so the error reply can name
//! the request, then dropped, and reading goes on at the next line.

use serde_json::Value;
use tokio::io::{AsyncBufRead, AsyncBufReadExt};

/// One message read from the client.
#[derive(Debug, Clone, PartialEq)]
pub enum Frame {
    /// A whole line within the cap, without its line ending.
    Line(Vec<u8>),
    /// A line longer than the cap, dropped unread.
    TooLarge {
        /// How long the line was, without its line ending.
        bytes: u64,
        /// The request id found at the top level of the line, if any.
        id: Option<Value>,
    },
}

/// Reads [`Frame`]s of at most `max` bytes from `input`.
#[derive(Debug)]
pub struct FrameReader<R> {
    input: R,
    max: usize,
}

impl<R: AsyncBufRead + Unpin> FrameReader<R> {
    /// A reader that takes lines of at most `max` bytes from `input`.
    pub fn new(input: R, max: usize) -> Self {
        Self { input, max }
    }

    /// The next message, or `None` at the end of input. A last line without
    /// a line ending still counts.
    pub async fn next(&mut self) -> std::io::Result<Option<Frame>> {
        let mut line = Vec::new();
        let mut oversize: Option<(u64, IdScanner)> = None;
        loop {
            let chunk = self.input.fill_buf().await?;
            if chunk.is_empty() {
                return Ok(match oversize {
                    Some((bytes, scanner)) => Some(too_large(bytes, scanner)),
                    None if line.is_empty() => None,
                    None => Some(Frame::Line(line)),
                });
            }
            // Found with `memchr`: a tool call's line is kilobytes long.
            let newline = memchr::memchr(b'\n', chunk);
            let body = &chunk[..newline.unwrap_or(chunk.len())];
            match oversize.as_mut() {
                Some((bytes, scanner)) => {
                    *bytes += body.len() as u64;
                    scanner.feed(body);
                }
                None if line.len() + body.len() > self.max => {
                    let mut scanner = IdScanner::default();
                    scanner.feed(&line);
                    scanner.feed(body);
                    oversize = Some(((line.len() + body.len()) as u64, scanner));
                    // Give the memory back now: the line may go on for long.
                    line = Vec::new();
                }
                None => line.extend_from_slice(body),
            }
            let used = newline.map_or(chunk.len(), |at| at + 1);
            self.input.consume(used);
            if newline.is_some() {
                return Ok(Some(match oversize {
                    Some((bytes, scanner)) => too_large(bytes, scanner),
                    None => Frame::Line(strip_cr(line)),
                }));
            }
        }
    }
}

fn too_large(bytes: u64, scanner: IdScanner) -> Frame {
    Frame::TooLarge {
        bytes,
        id: scanner.id(),
    }
}

fn strip_cr(mut line: Vec<u8>) -> Vec<u8> {
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    line
}

/// Most bytes of an `"id"` value kept while skimming; JSON-RPC ids are
/// short strings or numbers.
const MAX_ID_BYTES: usize = 256;

/// Finds the value of a top-level `"id"` key in a JSON object fed to it in
/// pieces, without keeping the rest.
#[derive(Debug, Default)]
struct IdScanner {
    depth: u32,
    in_string: bool,
    escaped: bool,
    /// At depth 1, the next string is a key.
    expect_key: bool,
    /// The key being read, while it is short enough to be `id`.
    key: Vec<u8>,
    reading_key: bool,
    /// The last key read at depth 1 was `id` and its colon is due.
    id_key_done: bool,
    capture: Option<Vec<u8>>,
    found: Option<Vec<u8>>,
}

impl IdScanner {
    fn feed(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            if self.found.is_some() {
                return;
            }
            self.step(byte);
        }
    }

    fn step(&mut self, byte: u8) {
        if let Some(capture) = self.capture.as_mut() {
            let ends = !self.in_string && self.depth == 1 && (byte == b',' || byte == b'}');
            if ends {
                self.found = self.capture.take();
                return;
            }
            if capture.len() >= MAX_ID_BYTES {
                // Not an id a JSON-RPC client sends; give up on it.
                self.capture = None;
            } else {
                capture.push(byte);
            }
        }
        if self.in_string {
            if self.escaped {
                self.escaped = false;
            } else if byte == b'\\' {
                self.escaped = true;
            } else if byte == b'"' {
                self.in_string = false;
                if self.reading_key {
                    self.reading_key = false;
                    self.id_key_done = self.key == b"id";
                }
                return;
            }
            if self.reading_key && self.key.len() <= 2 {
                self.key.push(byte);
            }
            return;
        }
        match byte {
            b'"' => {
                self.in_string = true;
                if self.depth == 1 && self.expect_key {
                    self.expect_key = false;
                    self.reading_key = true;
                    self.key.clear();
                }
            }
            b'{' | b'[' => {
                self.depth += 1;
                if self.depth == 1 {
                    self.expect_key = byte == b'{';
                }
            }
            b'}' | b']' => self.depth = self.depth.saturating_sub(1),
            b',' if self.depth == 1 => self.expect_key = true,
            b':' if self.depth == 1 && self.id_key_done => {
                self.id_key_done = false;
                self.capture = Some(Vec::new());
            }
            b':' if self.depth == 1 => {}
            _ => {}
        }
    }

    /// The id, when it is one JSON-RPC answers with itself (a string, or an
    /// integer from −2^63 to 2^64−1); `None` (answered as `null`) otherwise.
    fn id(self) -> Option<Value> {
        let raw = self.found?;
        serde_json::from_slice::<Value>(raw.trim_ascii())
            .ok()
            .filter(super::rmcp_gate::is_valid_id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;
    use serde_json::json;

    async fn frames(input: &[u8], max: usize) -> Vec<Frame> {
        // A tiny buffer so every line crosses several reads.
        let mut reader = FrameReader::new(tokio::io::BufReader::with_capacity(7, input), max);
        let mut out = Vec::new();
        while let Some(frame) = reader.next().await.unwrap_or(None) {
            out.push(frame);
        }
        out
    }

    fn line(text: &str) -> Frame {
        Frame::Line(text.as_bytes().to_vec())
    }

    #[tokio::test]
    async fn lines_within_the_cap_come_whole_and_a_last_unterminated_line_counts() {
        let actual = frames(b"{\"a\":1}\r\n\n[2]\nlast", 16).await;
        let expected = vec![line("{\"a\":1}"), line(""), line("[2]"), line("last")];
        assert_eq!(actual, expected);
    }

    #[tokio::test]
    async fn a_line_over_the_cap_is_counted_and_its_id_found_and_the_next_line_still_read() {
        let big = format!(
            r#"{{"jsonrpc":"2.0","method":"tools/call","params":{{"id":"inner","x":"{}"}},"id":42}}"#,
            "y".repeat(100)
        );
        let input = format!("{big}\n{{\"ok\":1}}\n");
        let actual = frames(input.as_bytes(), 64).await;
        let expected = vec![
            Frame::TooLarge {
                bytes: big.len() as u64,
                id: Some(json!(42)),
            },
            line("{\"ok\":1}"),
        ];
        assert_eq!(actual, expected);
    }

    #[tokio::test]
    async fn string_ids_with_commas_and_escapes_are_found_and_odd_ids_are_not() {
        let cases = [
            (
                r#"{"id":"a,\"}b","x":"zzzzzzzzzzzzzzzzzzzzzzzzz"}"#,
                Some(json!("a,\"}b")),
            ),
            (r#"{"x":"\"id\":9","id" : 7 }"#, Some(json!(7))),
            (r#"{"id":{"nested":1},"x":"zzzzzzzzzzzzzzzzzzzzzzz"}"#, None),
            (r#"not json at all, just a very long line of text"#, None),
            (r#"{"idx":1,"x":"zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz"}"#, None),
        ];
        let mut actual = Vec::new();
        let mut expected = Vec::new();
        for (text, id) in cases {
            let got = frames(text.as_bytes(), 8).await;
            actual.push(got);
            expected.push(vec![Frame::TooLarge {
                bytes: text.len() as u64,
                id,
            }]);
        }
        assert_eq!(actual, expected);
    }

    #[tokio::test]
    async fn an_endless_line_is_reported_at_the_end_of_input() {
        let input = vec![b'x'; 100_000];
        let actual = frames(&input, 1024).await;
        let expected = vec![Frame::TooLarge {
            bytes: 100_000,
            id: None,
        }];
        assert_eq!(actual, expected);
    }
}
