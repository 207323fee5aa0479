//! LSP's base protocol on standard input and output, with bounds: a header line over
//! [`MAX_HEADER_LINE`] bytes, a `Content-Length` over [`MAX_MESSAGE`] or a body that is not
//! a JSON-RPC message ends the session with an error (lsp-server's own reader would
//! allocate whatever length a client names).

use std::io::{self, BufRead, Read};
use std::thread::JoinHandle;

use lsp_server::{Connection, Message};

/// The largest message accepted: a 64 MiB document is far past what an editor sends.
pub const MAX_MESSAGE: usize = 64 << 20;
/// The longest header line accepted.
pub const MAX_HEADER_LINE: usize = 8 << 10;

/// The reader and writer threads of a stdio connection.
pub struct IoThreads {
    reader: JoinHandle<io::Result<()>>,
    writer: JoinHandle<io::Result<()>>,
}

impl IoThreads {
    /// Waits for both threads; the reader's error first.
    pub fn join(self) -> io::Result<()> {
        let reader = self
            .reader
            .join()
            .unwrap_or_else(|_| Err(io::Error::other("the LSP reader thread panicked")));
        let writer = self
            .writer
            .join()
            .unwrap_or_else(|_| Err(io::Error::other("the LSP writer thread panicked")));
        reader.and(writer)
    }
}

/// A connection over standard input and output.
pub fn stdio() -> (Connection, IoThreads) {
    let (to_client, outgoing) = crossbeam_channel::bounded::<Message>(0);
    let (incoming, from_client) = crossbeam_channel::bounded::<Message>(0);
    let writer = std::thread::spawn(move || {
        let stdout = io::stdout();
        let mut out = stdout.lock();
        for message in outgoing {
            message.write(&mut out)?;
        }
        Ok(())
    });
    let reader = std::thread::spawn(move || {
        let stdin = io::stdin();
        let mut input = stdin.lock();
        while let Some(message) = read(&mut input)? {
            let exit = matches!(&message, Message::Notification(n) if n.method == "exit");
            if incoming.send(message).is_err() || exit {
                break;
            }
        }
        Ok(())
    });
    (
        Connection {
            sender: to_client,
            receiver: from_client,
        },
        IoThreads { reader, writer },
    )
}

/// Reads one message; `None` at the end of input.
pub fn read(input: &mut impl BufRead) -> io::Result<Option<Message>> {
    let mut length = None;
    let mut first = true;
    loop {
        let mut line = Vec::new();
        let n = input
            .by_ref()
            .take(MAX_HEADER_LINE as u64 + 1)
            .read_until(b'\n', &mut line)?;
        if n == 0 {
            return if first {
                Ok(None)
            } else {
                Err(invalid("the input ended inside a message's header"))
            };
        }
        first = false;
        if line.len() > MAX_HEADER_LINE {
            return Err(invalid(format!(
                "a header line is longer than {MAX_HEADER_LINE} bytes"
            )));
        }
        let Some(line) = line.strip_suffix(b"\r\n") else {
            return Err(invalid("a header line does not end with CRLF"));
        };
        if line.is_empty() {
            break;
        }
        let line = std::str::from_utf8(line).map_err(|_| invalid("a header is not UTF-8"))?;
        let Some((name, value)) = line.split_once(':') else {
            return Err(invalid(format!("malformed header {line:?}")));
        };
        if name.trim().eq_ignore_ascii_case("content-length") {
            let n: usize = value.trim().parse().map_err(|_| {
                invalid(format!("Content-Length {:?} is not a number", value.trim()))
            })?;
            if n > MAX_MESSAGE {
                return Err(invalid(format!(
                    "a message of {n} bytes is over the limit of {MAX_MESSAGE}"
                )));
            }
            length = Some(n);
        }
    }
    let length = length.ok_or_else(|| invalid("a message has no Content-Length"))?;
    let mut body = vec![0; length];
    input.read_exact(&mut body)?;
    let message = serde_json::from_slice::<Message>(&body)
        .map_err(|e| invalid(format!("a message is not JSON-RPC: {e}")))?;
    Ok(Some(message))
}

fn invalid(message: impl Into<String>) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, message.into())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(body: &str) -> Vec<u8> {
        format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
    }

    #[test]
    fn reads_messages_and_refuses_hostile_frames() {
        let body = r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#;
        let mut input = io::Cursor::new(frame(body));
        assert!(matches!(
            read(&mut input),
            Ok(Some(Message::Notification(_)))
        ));
        assert!(matches!(read(&mut input), Ok(None)));
        for bad in [
            b"Content-Length: 99999999999\r\n\r\n".to_vec(),
            b"Content-Length: x\r\n\r\n".to_vec(),
            b"Content-Type: a\r\n\r\n{}".to_vec(),
            b"Content-Length: 2\n\n{}".to_vec(),
            [b"X: ".to_vec(), vec![b'a'; MAX_HEADER_LINE + 10]].concat(),
            frame("{\"not\": \"rpc\"}"),
            frame("[1,2"),
            b"Content-Length: 10\r\n\r\n{}".to_vec(),
        ] {
            let mut input = io::Cursor::new(bad.clone());
            assert!(
                read(&mut input).is_err(),
                "{:?}",
                String::from_utf8_lossy(&bad[..bad.len().min(60)])
            );
        }
    }
}
