//! Incremental Server-Sent Events parser (the WHATWG event-stream rules). Bytes go in as
//! they arrive from the network, in chunks cut anywhere: in the middle of a line, of a CRLF
//! pair or of a UTF-8 sequence. Complete events come out.

/// One dispatched event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SseEvent {
    /// The `event:` field, empty for the default "message".
    pub event: String,
    /// The `data:` lines joined with `\n`.
    pub data: String,
}

/// The most bytes one event (its line being read, and its data) may hold. Far above any
/// real event (a whole non-streamed answer fits), it only stops a server that sends one
/// endless line from filling the tab's memory until the call's time runs out.
pub const MAX_EVENT_BYTES: usize = 16 * 1024 * 1024;

#[derive(Default)]
pub struct SseParser {
    /// Bytes of the current, incomplete line.
    line: Vec<u8>,
    /// An event passed `max_event`: what came after it was dropped.
    overflowed: bool,
    max_event: usize,
    /// The previous chunk ended in CR: a LF starting the next one belongs to it.
    after_cr: bool,
    /// Still at the very start of the stream, where a byte-order mark may stand.
    at_start: bool,
    started: bool,
    event: String,
    data: String,
    has_data: bool,
}

impl SseParser {
    pub fn new() -> Self {
        SseParser {
            at_start: true,
            max_event: MAX_EVENT_BYTES,
            ..Default::default()
        }
    }

    /// A parser whose events may hold at most `bytes` (tests use a small bound).
    pub fn bounded(bytes: usize) -> Self {
        SseParser {
            max_event: bytes,
            ..SseParser::new()
        }
    }

    /// An event grew past the bound: the stream must end here.
    pub fn overflowed(&self) -> bool {
        self.overflowed
    }

    /// Feeds the next bytes; returns the events they complete.
    pub fn push(&mut self, bytes: &[u8]) -> Vec<SseEvent> {
        let mut out = Vec::new();
        for &b in bytes {
            if self.overflowed {
                break;
            }
            if self.at_start {
                // The BOM is EF BB BF; hold its bytes until we know.
                self.line.push(b);
                const BOM: [u8; 3] = [0xEF, 0xBB, 0xBF];
                let n = self.line.len();
                if self.line[..] == BOM[..n] {
                    if n == 3 {
                        self.line.clear();
                        self.at_start = false;
                    }
                    continue;
                }
                self.at_start = false;
                let pending = std::mem::take(&mut self.line);
                for p in pending {
                    self.byte(p, &mut out);
                }
                continue;
            }
            self.byte(b, &mut out);
        }
        self.started = true;
        out
    }

    fn byte(&mut self, b: u8, out: &mut Vec<SseEvent>) {
        match b {
            b'\n' if self.after_cr => self.after_cr = false,
            b'\n' => self.end_line(out),
            b'\r' => {
                self.end_line(out);
                self.after_cr = true;
            }
            _ => {
                self.after_cr = false;
                if self.line.len() + self.data.len() >= self.max_event {
                    self.overflowed = true;
                    return;
                }
                self.line.push(b);
            }
        }
    }

    fn end_line(&mut self, out: &mut Vec<SseEvent>) {
        let line = std::mem::take(&mut self.line);
        let line = String::from_utf8_lossy(&line);
        if line.is_empty() {
            if self.has_data {
                out.push(SseEvent {
                    event: std::mem::take(&mut self.event),
                    data: std::mem::take(&mut self.data),
                });
            }
            self.event.clear();
            self.has_data = false;
            return;
        }
        if line.starts_with(':') {
            return; // a comment, used by servers as keep-alive
        }
        let (field, value) = match line.find(':') {
            Some(i) => {
                let v = &line[i + 1..];
                (&line[..i], v.strip_prefix(' ').unwrap_or(v))
            }
            None => (&line[..], ""),
        };
        match field {
            "data" => {
                if self.has_data {
                    self.data.push('\n');
                }
                self.data.push_str(value);
                self.has_data = true;
            }
            "event" => self.event = value.to_string(),
            _ => {} // id, retry and unknown fields do not matter for chat streams
        }
    }

    /// The stream ended: an event without its closing blank line is still delivered, as
    /// several providers end that way.
    pub fn finish(&mut self) -> Vec<SseEvent> {
        let mut out = Vec::new();
        if !self.line.is_empty() {
            self.end_line(&mut out);
        }
        if self.has_data {
            out.push(SseEvent {
                event: std::mem::take(&mut self.event),
                data: std::mem::take(&mut self.data),
            });
            self.has_data = false;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all_at_once(bytes: &[u8]) -> Vec<SseEvent> {
        let mut p = SseParser::new();
        let mut v = p.push(bytes);
        v.extend(p.finish());
        v
    }

    fn ev(data: &str) -> SseEvent {
        SseEvent {
            event: String::new(),
            data: data.into(),
        }
    }

    #[test]
    fn handles_every_line_ending_comments_bom_and_multiline_data() {
        let stream = "\u{feff}: keep-alive\r\ndata: one\r\n\r\ndata:two\n\nevent: delta\rdata: a\rdata: b\r\rdata: é🎉\n\n";
        let got = all_at_once(stream.as_bytes());
        assert_eq!(
            got,
            vec![
                ev("one"),
                ev("two"),
                SseEvent {
                    event: "delta".into(),
                    data: "a\nb".into()
                },
                ev("é🎉")
            ]
        );
    }

    #[test]
    fn a_last_event_without_blank_line_is_delivered() {
        assert_eq!(all_at_once(b"data: [DONE]"), vec![ev("[DONE]")]);
    }

    #[test]
    fn any_split_gives_the_same_events() {
        let stream =
            "\u{feff}data: héllo wörld 🎉\r\n\r\n: c\ndata: x\ndata: y\n\ndata: [DONE]\r\n\r\n"
                .as_bytes();
        let whole = all_at_once(stream);
        for i in 0..=stream.len() {
            for j in i..=stream.len() {
                let mut p = SseParser::new();
                let mut v = p.push(&stream[..i]);
                v.extend(p.push(&stream[i..j]));
                v.extend(p.push(&stream[j..]));
                v.extend(p.finish());
                assert_eq!(v, whole, "split at {i} and {j}");
            }
        }
    }
}
