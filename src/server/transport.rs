//! The connection over standard input and output. `lsp-server`'s own stdio transport
//! stops reading at the first message that is not JSON-RPC; this one reads on, so no
//! input ends the session but the end of the stream, and reads each frame within
//! bounds (`frame`). What could not be read goes to
//! the server as an `UNREADABLE` notification, which the server logs to the client
//! (JSON-RPC's answer, a parse error with a null id, is one `lsp-server` cannot
//! send; a client could take an id it made up for one of its own). The writer ends
//! once the server drops its side of the connection, with everything written.

use super::frame::Frame;
use crossbeam_channel::{bounded, unbounded};
use lsp_server::{Connection, Message, Notification};
use std::io::{BufReader, Write};
use std::thread::JoinHandle;

/// The notification the reader sends the server for input that is not a message
/// (its parameter: why).
pub const UNREADABLE: &str = "pupcheck/unreadable";

pub struct Threads {
    reader: JoinHandle<()>,
    writer: JoinHandle<()>,
}

impl Threads {
    /// Waits for the writer to write what is left, once the server dropped its side
    /// (the reader may still be blocked on input: it ends with the process).
    pub fn join(self) {
        let _ = self.writer.join();
        drop(self.reader);
    }
}

/// A connection reading messages from stdin and writing them to stdout.
pub fn stdio() -> (Connection, Threads) {
    let (to_writer, from_server) = unbounded::<Message>();
    let (to_server, from_reader) = bounded::<Message>(0);
    let writer = std::thread::spawn(move || {
        let stdout = std::io::stdout();
        let mut out = stdout.lock();
        for message in from_server {
            if message.write(&mut out).is_err() || out.flush().is_err() {
                return;
            }
        }
    });
    let reader = std::thread::spawn(move || {
        let mut input = BufReader::new(std::io::stdin().lock());
        loop {
            match super::frame::read_frame(&mut input) {
                Ok(Frame::Message(message)) => {
                    let exit = matches!(&message, Message::Notification(n) if n.method == "exit");
                    if to_server.send(message).is_err() || exit {
                        return;
                    }
                }
                // End of input: the channel closes, and the server ends.
                Ok(Frame::End) | Err(_) => return,
                // One frame that is not a message (bad header, too large, bad JSON):
                // answered, then the next one is read.
                Ok(Frame::Unreadable(why)) => {
                    let why = Notification::new(
                        UNREADABLE.to_string(),
                        format!("pupcheck could not read a message: {why}"),
                    );
                    if to_server.send(Message::Notification(why)).is_err() {
                        return;
                    }
                }
            }
        }
    });
    (
        Connection {
            sender: to_writer,
            receiver: from_reader,
        },
        Threads { reader, writer },
    )
}
