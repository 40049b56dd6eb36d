//! Connection-mode detection (`docs/compatibility.md#e1`, `#e2`): the first bytes of the first
//! message decide, once and for the life of the connection, whether messages are framed and
//! whether their headers are versioned. The rule, exactly as `docs/api.md#connection-detection`
//! gives it:
//!
//! | first bytes                  | mode                                                    |
//! |------------------------------|---------------------------------------------------------|
//! | `80 01 ..`                   | unframed, versioned (any other byte after 0x80: close)  |
//! | `81`–`FF`                    | close: a negative length or a bad version               |
//! | `L L L L 80`                 | framed, versioned inside; L is the frame length         |
//! | `L L L L 00`                 | framed, unversioned inside (a name length < 16 MiB)     |
//! | `L L L L xx` (anything else) | unframed, unversioned; L is the method-name length      |
//!
//! An L over the limits closes the connection, which also turns away HTTP (`GET ` reads as a
//! 1.1 GB name length) and TLS (`16 03 01 ..` reads as a 369 MB frame) at once, without
//! waiting for bytes that will never come.

use super::wire::VERSION_1;
use super::{Limits, Mode, Violation};

/// The versioned header word's first byte (the top bit: negative as a length).
const VERSIONED: u8 = VERSION_1.to_be_bytes()[0];
/// Its second byte: the protocol version.
const VERSION: u8 = VERSION_1.to_be_bytes()[1];

/// What the first bytes of a connection say.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Detection {
    /// Not enough bytes yet to decide (at most 5 are needed).
    NeedMore,
    /// The connection's mode.
    Mode(Mode),
    /// Not a Thrift binary-protocol client, or over the limits: close without a reply.
    Reject(Violation),
}

/// Decides the connection mode from its first bytes (`first` may hold more than needed).
pub fn detect(first: &[u8], limits: &Limits) -> Detection {
    let Some(&b0) = first.first() else {
        return Detection::NeedMore;
    };
    if b0 == VERSIONED {
        return match first.get(1) {
            None => Detection::NeedMore,
            Some(&VERSION) => Detection::Mode(Mode {
                framed: false,
                strict: true,
            }),
            Some(&v) => Detection::Reject(Violation::BadVersion(u32::from_be_bytes([
                VERSIONED, v, 0, 0,
            ]))),
        };
    }
    if b0 > VERSIONED {
        return Detection::Reject(Violation::NotThrift(format!(
            "first byte {b0:#04x} is a negative length or a bad version"
        )));
    }
    let (Some(word), Some(&b4)) = (first.get(..4), first.get(4)) else {
        return Detection::NeedMore;
    };
    let len = u32::from_be_bytes([word[0], word[1], word[2], word[3]]);
    let (mode, limit) = match b4 {
        VERSIONED | 0x00 => (
            Mode {
                framed: true,
                strict: b4 == VERSIONED,
            },
            limits.max_frame_bytes.min(limits.max_message_bytes),
        ),
        // L is a method-name length; with it come 4 length bytes, the type byte, the seqid
        // and at least the arguments' stop byte: 10 more bytes in the same message.
        _ => (
            Mode {
                framed: false,
                strict: false,
            },
            limits.max_message_bytes.saturating_sub(10),
        ),
    };
    if len as u64 > limit as u64 {
        return Detection::Reject(Violation::NotThrift(format!(
            "{} (length {len} over the limit {limit})",
            looks_like(first)
        )));
    }
    Detection::Mode(mode)
}

/// A guess at what a rejected client speaks, for the server log.
fn looks_like(first: &[u8]) -> &'static str {
    const HTTP: [&[u8]; 7] = [
        b"GET ", b"POST", b"PUT ", b"HEAD", b"DELE", b"OPTI", b"PRI ",
    ];
    if HTTP.iter().any(|m| first.starts_with(m)) {
        "looks like HTTP"
    } else if first.len() >= 2 && first[0] == 0x16 && first[1] == 0x03 {
        "looks like a TLS handshake"
    } else {
        "unknown protocol"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(bytes: &[u8]) -> Detection {
        detect(bytes, &Limits::default())
    }

    fn mode(framed: bool, strict: bool) -> Detection {
        Detection::Mode(Mode { framed, strict })
    }

    fn rejected(det: Detection) -> bool {
        matches!(det, Detection::Reject(_))
    }

    #[test]
    fn detection_table() {
        assert_eq!(d(b""), Detection::NeedMore);
        assert_eq!(d(&[0x80]), Detection::NeedMore);
        assert_eq!(d(&[0x80, 0x01]), mode(false, true));
        assert_eq!(d(&[0x80, 0x01, 0x00, 0x01, 0, 0, 0, 3]), mode(false, true));
        assert!(rejected(d(&[0x80, 0x02])));
        assert!(rejected(d(&[0x80, 0x00])));
        for b in 0x81..=0xFFu8 {
            assert!(rejected(d(&[b])), "{b:#x}");
        }
        // framed, versioned and unversioned inside
        assert_eq!(d(&[0, 0, 0, 30, 0x80, 0x01]), mode(true, true));
        assert_eq!(d(&[0, 0, 0, 30, 0x00, 0x00]), mode(true, false));
        // unframed unversioned: name length 3, "get"
        assert_eq!(d(b"\0\0\0\x03get\x01"), mode(false, false));
        assert_eq!(d(&[0, 0, 0, 3]), Detection::NeedMore);
    }

    #[test]
    fn lengths_over_the_limits_close() {
        let frame_max = Limits::default().max_frame_bytes as u32;
        let ok = frame_max.to_be_bytes();
        assert_eq!(d(&[ok[0], ok[1], ok[2], ok[3], 0x80]), mode(true, true));
        let over = (frame_max + 1).to_be_bytes();
        assert!(rejected(d(&[over[0], over[1], over[2], over[3], 0x80])));
        assert!(rejected(d(&[over[0], over[1], over[2], over[3], 0x00])));
        assert!(rejected(d(&[0x7F, 0xFF, 0xFF, 0xFF, 0x80])), "2 GiB frame");
        // a 16 MiB name cannot fit in a 16 MiB message
        assert!(rejected(d(&[0x01, 0x00, 0x00, 0x00, b'a'])));
    }

    #[test]
    fn http_and_tls_are_refused_at_once() {
        let Detection::Reject(Violation::NotThrift(why)) = d(b"GET / HTTP/1.1\r\n") else {
            panic!("HTTP accepted");
        };
        assert!(why.contains("HTTP"), "{why}");
        assert!(rejected(d(b"POST /x HTTP/1.1\r\n")));
        let hello = [
            0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc, 0x03, 0x03,
        ];
        let Detection::Reject(Violation::NotThrift(why)) = d(&hello) else {
            panic!("TLS accepted");
        };
        assert!(why.contains("TLS"), "{why}");
    }
}
