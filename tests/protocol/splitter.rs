//! The resumable splitter: complete messages in every mode, piecewise arrival, pipelining, and
//! hostile inputs that must be refused early (or wait, when merely truncated) without any
//! allocation that follows a length claim.

use crate::util::*;
use ilion::protocol::{Limits, MessageSpan, Mode, Split, Splitter, Violation, MAX_METHOD_NAME};

const STRICT: Mode = Mode {
    framed: false,
    strict: true,
};
const LOOSE: Mode = Mode {
    framed: false,
    strict: false,
};
const FRAMED: Mode = Mode {
    framed: true,
    strict: true,
};
const FRAMED_LOOSE: Mode = Mode {
    framed: true,
    strict: false,
};

fn split(mode: Mode, bytes: &[u8]) -> Split {
    Splitter::new(mode, Limits::default()).poll(bytes)
}

fn rejected(s: Split) -> Violation {
    match s {
        Split::Reject(v) => v,
        other => panic!("expected a rejection, got {other:?}"),
    }
}

/// Feeds `bytes` in pieces of `chunk`; the answer at the end and how many polls said NeedMore.
fn feed(mode: Mode, bytes: &[u8], chunk: usize) -> (Split, usize) {
    let mut s = Splitter::new(mode, Limits::default());
    let mut waits = 0;
    for end in (chunk..bytes.len()).step_by(chunk).chain([bytes.len()]) {
        match s.poll(&bytes[..end]) {
            Split::NeedMore => waits += 1,
            done => return (done, waits),
        }
    }
    (Split::NeedMore, waits)
}

fn whole(len: usize, start: usize) -> Split {
    Split::Message(MessageSpan {
        len,
        message: start..len,
    })
}

#[test]
fn complete_messages_in_every_mode() {
    let strict = get_call(1).done();
    assert_eq!(split(STRICT, &strict), whole(strict.len(), 0));
    let loose = Enc::loose("get", 1, 1).s(1, "ks").stop().done();
    assert_eq!(split(LOOSE, &loose), whole(loose.len(), 0));
    let framed = get_call(1).framed();
    assert_eq!(split(FRAMED, &framed), whole(framed.len(), 4));
    let framed = Enc::loose("get", 1, 1).s(1, "ks").stop().framed();
    assert_eq!(split(FRAMED_LOOSE, &framed), whole(framed.len(), 4));
}

#[test]
fn every_prefix_waits_and_byte_by_byte_completes() {
    let msg = Enc::strict("batch_mutate", 9)
        .s(1, "ks")
        .field(MAP, 2)
        .map(STRING, MAP, 1)
        .str("row")
        .map(STRING, LIST, 1)
        .str("cf")
        .list(STRUCT, 2)
        .field(STRUCT, 1)
        .field(STRUCT, 1)
        .s(1, "n")
        .s(2, "v")
        .field(I64, 3)
        .i64(5)
        .stop()
        .stop()
        .stop()
        .field(STRUCT, 2)
        .field(I64, 1)
        .i64(6)
        .field(LIST, 9) // an unknown field holding a list of bools
        .list(BOOL, 3)
        .raw(&[1, 0, 1])
        .stop()
        .stop()
        .field(I32, 3)
        .i32(1)
        .stop()
        .done();
    for cut in 0..msg.len() {
        assert_eq!(split(STRICT, &msg[..cut]), Split::NeedMore, "cut at {cut}");
    }
    assert_eq!(feed(STRICT, &msg, 1), (whole(msg.len(), 0), msg.len() - 1));
    let framed = Enc(msg).framed();
    assert_eq!(feed(FRAMED, &framed, 1).0, whole(framed.len(), 4));
}

#[test]
fn pipelined_messages_split_one_after_another() {
    let mut stream = get_call(1).done();
    let first = stream.len();
    stream.extend(Enc::strict("describe_version", 2).stop().done());
    stream.extend(&get_call(3).done()[..10]);
    let mut s = Splitter::new(STRICT, Limits::default());
    assert_eq!(s.poll(&stream), whole(first, 0));
    stream.drain(..first);
    let Split::Message(span) = s.poll(&stream) else {
        panic!("second message not found");
    };
    assert_eq!(&stream[span.message.clone()][8..24], b"describe_version");
    stream.drain(..span.len);
    assert_eq!(s.poll(&stream), Split::NeedMore);

    let mut framed = get_call(1).framed();
    let first = framed.len();
    framed.extend(get_call(2).framed());
    let mut s = Splitter::new(FRAMED, Limits::default());
    assert_eq!(s.poll(&framed), whole(first, 4));
    assert_eq!(s.poll(&framed[first..]), whole(first, 4));
}

#[test]
fn frame_lengths_out_of_bounds_close() {
    let two_gib = [0x7f, 0xff, 0xff, 0xff, 0x80, 0x01];
    assert_eq!(
        rejected(split(FRAMED, &two_gib)),
        Violation::FrameLength(i32::MAX as i64)
    );
    let negative = [0xff, 0xff, 0xff, 0xfe, 0x80];
    assert_eq!(
        rejected(split(FRAMED, &negative)),
        Violation::FrameLength(-2)
    );
    let over = (Limits::default().max_frame_bytes as i32 + 1).to_be_bytes();
    assert!(matches!(split(FRAMED, &over), Split::Reject(_)));
    // a message that needs more than its frame holds
    let mut short = get_call(1).framed();
    short[3] -= 1;
    assert!(matches!(
        split(FRAMED, &short),
        Split::Reject(Violation::TooLong { .. })
    ));
    // a message that ends before its frame does
    let mut long = get_call(1).done();
    long.push(0);
    assert_eq!(
        rejected(split(FRAMED, &Enc(long).framed())),
        Violation::TrailingBytes(1)
    );
    // an empty frame cannot hold a message
    assert!(matches!(split(FRAMED, &[0, 0, 0, 0]), Split::Reject(_)));
}

#[test]
fn hostile_lengths_are_refused_as_soon_as_seen() {
    // 1.5 GiB string: refused with only its length on hand
    let big = Enc::strict("insert", 1)
        .field(STRING, 1)
        .i32(0x6000_0000)
        .done();
    assert!(matches!(
        split(STRICT, &big),
        Split::Reject(Violation::TooLong { .. })
    ));
    let big = Enc::strict("insert", 1).field(STRING, 1).i32(0x6000_0000);
    assert!(matches!(split(FRAMED, &big.framed()), Split::Reject(_)));
    // a name too long for any message, and one that fits the message but is no method's:
    // refused from the length alone, in both header styles
    let name = Enc::default().raw(&[0x80, 1, 0, 1]).i32(0x7fff_0000).done();
    assert_eq!(
        rejected(split(STRICT, &name)),
        Violation::NameTooLong(0x7fff_0000)
    );
    let name = Enc::default().i32(15 << 20).done();
    assert_eq!(
        rejected(split(LOOSE, &name)),
        Violation::NameTooLong(15 << 20)
    );
    let long = "n".repeat(MAX_METHOD_NAME + 1);
    assert_eq!(
        rejected(split(STRICT, &Enc::strict(&long, 1).done())),
        Violation::NameTooLong(MAX_METHOD_NAME + 1)
    );
    // the longest allowed name is still a message (dispatch answers UNKNOWN_METHOD)
    let longest = "n".repeat(MAX_METHOD_NAME);
    let msg = Enc::strict(&longest, 1).stop().done();
    assert_eq!(split(STRICT, &msg), whole(msg.len(), 0));
    // 2^31-1 list elements
    let list = Enc::strict("x", 1)
        .field(LIST, 1)
        .list(STRUCT, i32::MAX)
        .done();
    assert!(matches!(
        split(STRICT, &list),
        Split::Reject(Violation::TooLong { .. })
    ));
    let map = Enc::strict("x", 1)
        .field(MAP, 1)
        .map(STRING, STRING, 3_000_000)
        .done();
    assert!(matches!(
        split(STRICT, &map),
        Split::Reject(Violation::TooLong { .. })
    ));
    // negative lengths and counts
    let neg = Enc::strict("x", 1).field(STRING, 1).i32(-1).done();
    assert_eq!(rejected(split(STRICT, &neg)), Violation::NegativeLength(-1));
    let neg = Enc::strict("x", 1).field(SET, 1).list(I32, -5).done();
    assert_eq!(rejected(split(STRICT, &neg)), Violation::NegativeCount(-5));
    let neg = Enc::strict("x", 1)
        .field(MAP, 1)
        .map(I32, I32, i32::MIN)
        .done();
    assert_eq!(
        rejected(split(STRICT, &neg)),
        Violation::NegativeCount(i32::MIN)
    );
    let neg = Enc::default().i32(-7).done();
    assert!(matches!(split(LOOSE, &neg), Split::Reject(_)));
}

#[test]
fn deep_nesting_in_a_skipped_field_stops_at_the_limit() {
    let mut deep = Enc::strict("get", 1).field(LIST, 99);
    for _ in 0..1_000_000 {
        deep = deep.list(LIST, 1);
    }
    let deep = deep.done();
    assert_eq!(rejected(split(STRICT, &deep)), Violation::TooDeep(64));
    let mut structs = Enc::strict("get", 1);
    for _ in 0..100 {
        structs = structs.field(STRUCT, 1);
    }
    assert_eq!(
        rejected(split(STRICT, &structs.done())),
        Violation::TooDeep(64)
    );
    // 63 levels inside the arguments struct make 64: allowed
    let mut ok = Enc::strict("get", 1);
    for _ in 0..63 {
        ok = ok.field(STRUCT, 1);
    }
    for _ in 0..64 {
        ok = ok.stop();
    }
    let ok = ok.done();
    assert_eq!(split(STRICT, &ok), whole(ok.len(), 0));
}

#[test]
fn garbage_and_style_changes_close() {
    for t in [1u8, 5, 7, 9, 16, 17, 0xff] {
        let bad = Enc::strict("get", 1).field(t, 1).raw(&[0; 8]).done();
        assert_eq!(rejected(split(STRICT, &bad)), Violation::UnknownType(t));
        let bad = Enc::strict("get", 1).field(LIST, 1).list(t, 0).done();
        assert_eq!(rejected(split(STRICT, &bad)), Violation::UnknownType(t));
    }
    let loose = Enc::loose("get", 1, 1).stop().done();
    assert_eq!(rejected(split(STRICT, &loose)), Violation::StyleChanged);
    let strict = Enc::strict("get", 1).stop().done();
    assert_eq!(rejected(split(LOOSE, &strict)), Violation::StyleChanged);
    let v2 = Enc::default()
        .raw(&[0x80, 0x02, 0, 1])
        .str("get")
        .i32(1)
        .stop()
        .done();
    assert!(matches!(
        split(STRICT, &v2),
        Split::Reject(Violation::BadVersion(_))
    ));
    // once rejected, always rejected
    let mut s = Splitter::new(STRICT, Limits::default());
    assert!(matches!(s.poll(&loose), Split::Reject(_)));
    assert!(matches!(s.poll(&get_call(1).done()), Split::Reject(_)));
}

#[test]
fn truncated_messages_wait() {
    let msg = get_call(1).done();
    assert_eq!(split(STRICT, &msg[..msg.len() - 1]), Split::NeedMore);
    let big = Enc::strict("insert", 1)
        .field(STRING, 4)
        .i32(1_000_000)
        .raw(&[7; 1000])
        .done();
    assert_eq!(split(STRICT, &big), Split::NeedMore);
    assert_eq!(split(FRAMED, &[0, 0, 1]), Split::NeedMore);
}

#[test]
fn a_message_at_the_limit_arrives_in_pieces() {
    let limit = Limits::default().max_message_bytes;
    let head = Enc::strict("insert", 1).s(1, "ks").field(STRING, 4);
    let room = limit - head.0.len() - 4 - 1;
    let msg = head.bytes(&vec![b'v'; room]).stop().done();
    assert_eq!(msg.len(), limit);
    let (done, waits) = feed(STRICT, &msg, 64 * 1024);
    assert_eq!(done, whole(limit, 0));
    assert_eq!(waits, limit / (64 * 1024) - 1);
    // one byte more is refused before the value has arrived
    let head = Enc::strict("insert", 1).s(1, "ks").field(STRING, 4);
    let over = head.i32(room as i32 + 1).done();
    assert!(matches!(
        split(STRICT, &over),
        Split::Reject(Violation::TooLong { .. })
    ));
}

#[test]
fn many_small_elements_scan_in_linear_time() {
    // ~16 MiB of 1-byte strings (5 bytes each), fed in 4 KiB pieces: rescanning from the
    // start on every piece would take hours; resuming takes well under a second.
    let n = 3_000_000;
    let mut e = Enc::strict("multiget", 1).field(LIST, 2).list(STRING, n);
    e.0.reserve(5 * n as usize);
    for _ in 0..n {
        e = e.bytes(b"k");
    }
    let msg = e.stop().done();
    let (done, _) = feed(STRICT, &msg, 4096);
    assert_eq!(done, whole(msg.len(), 0));
}
