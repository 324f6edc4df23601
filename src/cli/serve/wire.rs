//! HTTP/1.1 on the studio's connections: each accepted connection gets a
//! thread of its own, which reads one request's head (parsed by
//! `httparse`) and its body under deadlines, and writes one answer. So a
//! client that sends slowly, or not at all, holds its own thread and
//! socket, never another client's turn. Every answer closes its
//! connection: on the loopback a new connection costs less than keeping
//! idle ones, and a request never waits behind another on a connection.

use std::io::{self, Read, Write};
use std::net::{Shutdown, TcpStream};
use std::time::{Duration, Instant};

/// The longest head (request line and headers) read.
const MAX_HEAD: usize = 16 << 10;
/// The most headers a request may carry.
const MAX_HEADERS: usize = 64;
/// How long a request's head may take to arrive, all of it.
pub const HEAD_TIME: Duration = Duration::from_secs(10);
/// How long a closing connection waits for what its client still sends,
/// so that the answer is read before the connection is reset.
const LINGER: Duration = Duration::from_secs(1);

/// A request's method.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Method {
    /// `GET`.
    Get,
    /// `HEAD`: answered as `GET`, without the body.
    Head,
    /// `POST`.
    Post,
    /// Any other, as written.
    Other(String),
}

impl std::fmt::Display for Method {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Method::Get => "GET",
            Method::Head => "HEAD",
            Method::Post => "POST",
            Method::Other(m) => m,
        })
    }
}

/// Why a request's body was not read.
#[derive(Debug)]
pub enum BodyError {
    /// Longer than the most asked for (announced or sent).
    TooBig,
    /// Not all of it arrived within the time given.
    Late,
    /// Sent in chunks, without its length.
    NoLength,
    /// Its Content-Length is not a number.
    BadLength,
    /// The connection failed or closed before the end.
    Broken(io::Error),
}

/// One request, read up to its body, on its own connection.
pub struct Request {
    method: Method,
    url: String,
    headers: Vec<(String, String)>,
    stream: TcpStream,
    /// What was read past the head: the body's start.
    read: Vec<u8>,
}

/// What came on a new connection.
pub enum Arrival {
    /// A request to answer.
    Request(Request),
    /// Nothing, or nothing more: the connection is done with.
    Nothing,
}

/// Reads a request's head from `stream` within [`HEAD_TIME`]. A head that
/// is malformed, too long or too slow is answered here (400, 431, 408);
/// a connection that sends nothing at all is closed without a word.
pub fn read_request(mut stream: TcpStream) -> Arrival {
    let began = Instant::now();
    let mut buf = vec![0; MAX_HEAD];
    let mut filled = 0;
    loop {
        match parse(&buf[..filled]) {
            Ok(Some((len, method, url, headers))) => {
                let read = buf[len..filled].to_vec();
                return Arrival::Request(Request {
                    method,
                    url,
                    headers,
                    stream,
                    read,
                });
            }
            Ok(None) if filled == MAX_HEAD => {
                let why = format!(
                    "the request's head is over {}",
                    engine::budget::bytes(MAX_HEAD as u64)
                );
                answer_early(stream, 431, &why);
                return Arrival::Nothing;
            }
            Ok(None) => {}
            Err(why) => {
                answer_early(stream, 400, &format!("the request is not HTTP: {why}"));
                return Arrival::Nothing;
            }
        }
        let Some(left) = HEAD_TIME
            .checked_sub(began.elapsed())
            .filter(|d| !d.is_zero())
        else {
            if filled > 0 {
                let why = format!(
                    "the request did not arrive within {} s",
                    HEAD_TIME.as_secs()
                );
                answer_early(stream, 408, &why);
            }
            return Arrival::Nothing;
        };
        let _ = stream.set_read_timeout(Some(left));
        match stream.read(&mut buf[filled..]) {
            Ok(0) => return Arrival::Nothing,
            Ok(n) => filled += n,
            Err(e) if is_timeout(&e) || e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => return Arrival::Nothing,
        }
    }
}

/// A head parsed: its length, method, target and headers; None while it
/// is incomplete.
type Head = (usize, Method, String, Vec<(String, String)>);

fn parse(bytes: &[u8]) -> Result<Option<Head>, httparse::Error> {
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut req = httparse::Request::new(&mut headers);
    let httparse::Status::Complete(len) = req.parse(bytes)? else {
        return Ok(None);
    };
    let method = match req.method.unwrap_or_default() {
        "GET" => Method::Get,
        "HEAD" => Method::Head,
        "POST" => Method::Post,
        m => Method::Other(m.to_string()),
    };
    let url = req.path.unwrap_or("/").to_string();
    let headers = req
        .headers
        .iter()
        .map(|h| {
            (
                h.name.to_string(),
                String::from_utf8_lossy(h.value).into_owned(),
            )
        })
        .collect();
    Ok(Some((len, method, url, headers)))
}

fn is_timeout(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
    )
}

/// Answers a connection whose request could not be (or was not) read,
/// with `{"error": message}`, and closes it.
pub fn answer_early(stream: TcpStream, status: u16, message: &str) {
    let body = serde_json::json!({ "error": message }).to_string();
    let head = format!(
        "HTTP/1.1 {status} {}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Security-Policy: default-src 'none'\r\nX-Content-Type-Options: nosniff\r\nCache-Control: no-store\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        reason(status),
        body.len()
    );
    finish(stream, &[head.as_bytes(), body.as_bytes()]);
}

/// Writes `parts` and closes the connection gently: the client's unread
/// sending is drained for a moment first, since closing on it would
/// reset the connection and could lose the answer on the way.
fn finish(mut stream: TcpStream, parts: &[&[u8]]) {
    for part in parts {
        if stream.write_all(part).is_err() {
            return;
        }
    }
    if stream.flush().is_err() || stream.shutdown(Shutdown::Write).is_err() {
        return;
    }
    let began = Instant::now();
    let mut sink = [0; 4096];
    let mut drained = 0;
    while let Some(left) = LINGER.checked_sub(began.elapsed()).filter(|d| !d.is_zero()) {
        let _ = stream.set_read_timeout(Some(left));
        match stream.read(&mut sink) {
            Ok(n) if n > 0 && drained < (1 << 20) => drained += n,
            _ => break,
        }
    }
}

/// The words that go with a status.
pub fn reason(status: u16) -> &'static str {
    match status {
        100 => "Continue",
        200 => "OK",
        201 => "Created",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        409 => "Conflict",
        411 => "Length Required",
        413 => "Content Too Large",
        421 => "Misdirected Request",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        _ => "",
    }
}

impl Request {
    /// The method.
    pub fn method(&self) -> &Method {
        &self.method
    }

    /// The target as sent: path and query.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The value of header `name` (any case), if the request has one.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The body, at most `max` bytes, all of it within `within`; a body
    /// announced longer than `max` is refused before any of it is read.
    pub fn body(&mut self, max: u64, within: Duration) -> Result<Vec<u8>, BodyError> {
        if self.header("Transfer-Encoding").is_some() {
            return Err(BodyError::NoLength);
        }
        let Some(length) = self.header("Content-Length") else {
            return Ok(std::mem::take(&mut self.read));
        };
        let length: u64 = length.trim().parse().map_err(|_| BodyError::BadLength)?;
        if length > max {
            return Err(BodyError::TooBig);
        }
        if self
            .header("Expect")
            .is_some_and(|e| e.eq_ignore_ascii_case("100-continue"))
        {
            let _ = self.stream.write_all(b"HTTP/1.1 100 Continue\r\n\r\n");
        }
        let began = Instant::now();
        let mut body = std::mem::take(&mut self.read);
        body.truncate(length as usize);
        let mut buf = [0; 8192];
        while (body.len() as u64) < length {
            let Some(left) = within.checked_sub(began.elapsed()).filter(|d| !d.is_zero()) else {
                return Err(BodyError::Late);
            };
            let _ = self.stream.set_read_timeout(Some(left));
            let want = buf.len().min((length - body.len() as u64) as usize);
            match self.stream.read(&mut buf[..want]) {
                Ok(0) => {
                    return Err(BodyError::Broken(io::ErrorKind::UnexpectedEof.into()));
                }
                Ok(n) => body.extend_from_slice(&buf[..n]),
                Err(e) if is_timeout(&e) || e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(BodyError::Broken(e)),
            }
        }
        Ok(body)
    }

    /// Answers with `status`, `headers` and `body` (left out for `HEAD`),
    /// and closes the connection.
    pub fn respond(self, status: u16, headers: &[(&str, String)], body: &[u8]) {
        let mut head = format!("HTTP/1.1 {status} {}\r\n", reason(status));
        for (name, value) in headers {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
        head.push_str(&format!(
            "Content-Length: {}\r\nConnection: close\r\n\r\n",
            body.len()
        ));
        let body = if self.method == Method::Head {
            &[][..]
        } else {
            body
        };
        finish(self.stream, &[head.as_bytes(), body]);
    }

    /// Whether the client has gone away (closed its side, or the
    /// connection failed), looked at without waiting: a long answer
    /// stops working for a page that is no longer there.
    pub fn gone(&self) -> bool {
        use rustix::event::{PollFd, PollFlags, Timespec, poll};
        let mut fds = [PollFd::new(&self.stream, PollFlags::RDHUP)];
        let now = Timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        poll(&mut fds, Some(&now)).is_ok_and(|n| {
            n > 0
                && fds[0]
                    .revents()
                    .intersects(PollFlags::RDHUP | PollFlags::HUP | PollFlags::ERR)
        })
    }

    /// The connection, to write an answer of one's own to (a stream):
    /// each whole write must be taken by the client within `SEND_TIME`.
    pub fn into_stream(self) -> Outgoing {
        Outgoing {
            stream: self.stream,
        }
    }
}

/// How long one whole write may wait for its client to read: past it the
/// client is taken to be gone.
pub const SEND_TIME: Duration = Duration::from_secs(10);

/// A connection written to with one deadline for each whole write. The
/// system's send timeout applies to each of its calls, and a write that a
/// slow reader lets on a little at a time would take it many times over.
pub struct Outgoing {
    stream: TcpStream,
}

impl Write for Outgoing {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.write_all(buf).map(|()| buf.len())
    }

    fn write_all(&mut self, mut buf: &[u8]) -> io::Result<()> {
        let began = Instant::now();
        while !buf.is_empty() {
            let Some(left) = SEND_TIME
                .checked_sub(began.elapsed())
                .filter(|d| !d.is_zero())
            else {
                return Err(io::ErrorKind::TimedOut.into());
            };
            self.stream.set_write_timeout(Some(left))?;
            match self.stream.write(buf) {
                Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
                Ok(n) => buf = &buf[n..],
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.stream.flush()
    }
}
