//! Reading the client's frames (`Content-Length: N`, a blank line, N bytes of JSON)
//! within bounds. `lsp-server`'s reader allocates whatever length a header says (a
//! length of 2^64 - 1 panicked, 2^40 aborted, 2^31 took 2 GB) and, after a header block
//! without a length, reads the next frame's body as headers forever. Here a header line
//! is at most [`MAX_HEADER_LINE`] bytes, a body over [`MAX_FRAME_BYTES`] is skipped
//! unread (nothing is allocated for it), and after a header block without a length the
//! reader finds the next `Content-Length` header, even one glued to the end of a body
//! sent without one. Each bad frame is one [`Frame::Unreadable`]; reading goes on.

use lsp_server::Message;
use std::io::{self, BufRead, Read};

/// The largest body read: a 16 MB manifest (the largest pupcheck checks) written as a
/// JSON string, every character escaped, with room to spare.
pub const MAX_FRAME_BYTES: usize = 128 << 20;
/// The longest header line read whole (real ones are a few dozen bytes).
pub const MAX_HEADER_LINE: usize = 8 << 10;

const LENGTH_HEADER: &[u8] = b"content-length:";

/// What the next frame of the input is.
#[derive(Debug)]
pub enum Frame {
    Message(Message),
    /// A frame that is not a message, and why (the reader goes on after it).
    Unreadable(String),
    /// The end of the input.
    End,
}

/// Reads the next frame.
pub fn read_frame(input: &mut impl BufRead) -> io::Result<Frame> {
    let mut length: Option<Result<usize, String>> = None;
    let mut problem: Option<String> = None;
    let mut seen_header = false;
    loop {
        let Some(line) = read_line(input)? else {
            return Ok(match (seen_header, problem) {
                (true, Some(why)) => Frame::Unreadable(why),
                _ => Frame::End,
            });
        };
        let mut line = match line {
            Line::Whole(line) => line,
            Line::TooLong => {
                problem.get_or_insert_with(|| {
                    format!("a header line longer than {MAX_HEADER_LINE} bytes")
                });
                seen_header = true;
                continue;
            }
        };
        // A length header after other text on its line (the body of a frame sent
        // without a length, reported already, with the next frame glued to it) starts
        // a new frame there.
        if let Some(at) = find_ignoring_case(&line, LENGTH_HEADER).filter(|&at| at > 0) {
            line.drain(..at);
            length = None;
            problem = None;
        }
        while matches!(line.last(), Some(b'\n' | b'\r')) {
            line.pop();
        }
        if line.is_empty() {
            if !seen_header {
                // Blank lines between frames are skipped.
                continue;
            }
            break;
        }
        seen_header = true;
        if line.len() >= LENGTH_HEADER.len()
            && line[..LENGTH_HEADER.len()].eq_ignore_ascii_case(LENGTH_HEADER)
        {
            let value = String::from_utf8_lossy(&line[LENGTH_HEADER.len()..]);
            length = Some(
                value
                    .trim()
                    .parse::<usize>()
                    .map_err(|_| format!("a Content-Length that is not a length: {value:?}")),
            );
        }
    }
    let length = match length {
        Some(Ok(n)) => n,
        Some(Err(why)) => return Ok(Frame::Unreadable(why)),
        None => {
            return Ok(Frame::Unreadable(problem.unwrap_or_else(|| {
                "a frame without a Content-Length header".into()
            })))
        }
    };
    if length > MAX_FRAME_BYTES {
        // Skipped unread: the next frame starts after it.
        let skipped = io::copy(&mut input.take(length as u64), &mut io::sink())?;
        if skipped < length as u64 {
            return Ok(Frame::End);
        }
        return Ok(Frame::Unreadable(format!(
            "a message of {length} bytes, over the limit of {MAX_FRAME_BYTES}"
        )));
    }
    let mut body = Vec::with_capacity(length.min(1 << 20));
    let read = input.take(length as u64).read_to_end(&mut body)?;
    if read < length {
        return Ok(Frame::End);
    }
    if let Some(why) = problem {
        return Ok(Frame::Unreadable(why));
    }
    Ok(match serde_json::from_slice::<Message>(&body) {
        Ok(message) => Frame::Message(message),
        Err(e) => Frame::Unreadable(format!("a message that is not JSON-RPC: {e}")),
    })
}

enum Line {
    Whole(Vec<u8>),
    /// Longer than `MAX_HEADER_LINE`: consumed to its end, not kept.
    TooLong,
}

/// The next line, its end included; `None` at the end of the input.
fn read_line(input: &mut impl BufRead) -> io::Result<Option<Line>> {
    let mut line = Vec::new();
    let mut too_long = false;
    loop {
        let available = match input.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok(match (line.is_empty() && !too_long, too_long) {
                (true, _) => None,
                (false, true) => Some(Line::TooLong),
                (false, false) => Some(Line::Whole(line)),
            });
        }
        let (taken, ended) = match available.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (available.len(), false),
        };
        if !too_long {
            if line.len() + taken > MAX_HEADER_LINE {
                too_long = true;
                line = Vec::new();
            } else {
                line.extend_from_slice(&available[..taken]);
            }
        }
        input.consume(taken);
        if ended {
            return Ok(Some(if too_long {
                Line::TooLong
            } else {
                Line::Whole(line)
            }));
        }
    }
}

fn find_ignoring_case(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack
        .windows(needle.len())
        .position(|w| w.eq_ignore_ascii_case(needle))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(input: &[u8]) -> Vec<String> {
        let mut reader = io::BufReader::new(input);
        let mut out = Vec::new();
        loop {
            match read_frame(&mut reader).unwrap() {
                Frame::Message(Message::Notification(n)) => out.push(n.method),
                Frame::Message(other) => out.push(format!("{other:?}")),
                Frame::Unreadable(why) => out.push(format!("unreadable: {why}")),
                Frame::End => return out,
            }
        }
    }

    fn frame(body: &str) -> String {
        format!("Content-Length: {}\r\n\r\n{body}", body.len())
    }

    const EXIT: &str = r#"{"jsonrpc":"2.0","method":"exit"}"#;

    #[test]
    fn a_length_past_the_limit_is_skipped_without_allocating_it() {
        for length in ["18446744073709551615", "1099511627776", "2147483648"] {
            let input = format!("Content-Length: {length}\r\n\r\n{{}}");
            let got = frames(input.as_bytes());
            // The input ends inside the claimed body: nothing more to read.
            assert!(got.is_empty(), "{length}: {got:?}");
        }
        let big = MAX_FRAME_BYTES + 1;
        let mut input = format!("Content-Length: {big}\r\n\r\n").into_bytes();
        input.resize(input.len() + big, b' ');
        input.extend_from_slice(frame(EXIT).as_bytes());
        let got = frames(&input);
        assert_eq!(got.len(), 2, "{got:?}");
        assert!(got[0].starts_with("unreadable: a message of"), "{got:?}");
        assert_eq!(got[1], "exit");
    }

    #[test]
    fn a_frame_without_a_length_is_one_error_and_the_next_frame_is_read() {
        // The body without a length has no line end: the next header follows it.
        let input = format!("Content-Type: x\r\n\r\n{EXIT}{}", frame(EXIT));
        assert_eq!(
            frames(input.as_bytes()),
            [
                "unreadable: a frame without a Content-Length header",
                "exit"
            ]
        );
        let input = format!("Content-Length: lots\r\n\r\n{}", frame(EXIT));
        let got = frames(input.as_bytes());
        assert_eq!(got.last().map(String::as_str), Some("exit"), "{got:?}");
        assert!(got[0].starts_with("unreadable: a Content-Length that is not"));
    }

    #[test]
    fn long_header_lines_and_bad_json_are_errors_and_reading_goes_on() {
        let long = format!(
            "X: {}\r\n\r\n{}",
            "y".repeat(3 * MAX_HEADER_LINE),
            frame(EXIT)
        );
        let got = frames(long.as_bytes());
        assert_eq!(
            got,
            [
                format!("unreadable: a header line longer than {MAX_HEADER_LINE} bytes"),
                "exit".to_string()
            ]
        );
        let input = format!("{}{}", frame("{not json"), frame(EXIT));
        let got = frames(input.as_bytes());
        assert!(got[0].starts_with("unreadable: a message that is not JSON-RPC"));
        assert_eq!(got[1], "exit");
    }

    #[test]
    fn headers_in_any_case_and_blank_lines_between_frames_are_read() {
        let input = format!(
            "\r\ncontent-length: {}\r\nContent-Type: application/vscode-jsonrpc\r\n\r\n{EXIT}",
            EXIT.len()
        );
        assert_eq!(frames(input.as_bytes()), ["exit"]);
    }
}
