//! The E4 limits (nesting, frame, message, decoded size) on 20.1.0 messages: the splitter
//! and the normalizer are shared with the 0.6 API, so the same bounds hold on the later
//! listener (spec §1.1, G2).

use crate::dispatch20::{request, run, STRICT};
use crate::util::handler20::Recorder20;
use crate::util::*;
use ilion::protocol::v20::generated::TCassandraSyncClient;
use ilion::protocol::v20::process;
use ilion::protocol::{Limits, Mode, Split, Splitter, Violation};

/// `get_multi_slice` whose request carries an unknown field nested `levels` structs deep.
fn nested(levels: usize) -> Vec<u8> {
    let mut m = Enc::strict("get_multi_slice", 1).field(STRUCT, 1);
    for _ in 0..levels {
        m = m.field(STRUCT, 99);
    }
    for _ in 0..levels + 2 {
        m = m.stop();
    }
    m.done()
}

#[test]
fn the_wire_limits_apply_to_later_messages() {
    let limits = Limits::default();
    let h = Recorder20::default();
    let split = |mode: Mode, bytes: &[u8]| Splitter::new(mode, limits).poll(bytes);
    // depth: args (1) + MultiSliceRequest (2) + 62 more = 64 is allowed, 65 is not
    let ok = nested(62);
    assert!(matches!(split(STRICT, &ok), Split::Message(_)));
    assert_eq!(run(&h, &ok)[3], 2, "REPLY");
    let deep = nested(63);
    assert_eq!(split(STRICT, &deep), Split::Reject(Violation::TooDeep(64)));
    assert!(process(&deep, STRICT, &limits, &h).is_err());
    // frame: a framed call announcing more than 15 MiB
    let framed = Mode {
        framed: true,
        strict: true,
    };
    let call = request(true, |c| drop(c.describe_version()));
    let mut big = ((15 << 20) + 1i32).to_be_bytes().to_vec();
    big.extend_from_slice(&call);
    assert!(matches!(
        split(framed, &big),
        Split::Reject(Violation::FrameLength(_))
    ));
    // message: an unframed insert whose value claims more than the message limit
    let small = Limits {
        max_message_bytes: 1000,
        ..limits
    };
    let long = Enc::strict("insert", 1)
        .field(STRING, 1)
        .str("row")
        .field(STRUCT, 3)
        .field(STRING, 2)
        .i32(2000)
        .done();
    assert!(matches!(
        Splitter::new(STRICT, small).poll(&long),
        Split::Reject(Violation::TooLong { .. })
    ));
    // decoded size: a batch of 16 million empty Mutations is refused before decoding
    let n = 16 * 1024 * 1024 - 100;
    let msg = Enc::strict("atomic_batch_mutate", 1)
        .field(MAP, 1)
        .map(STRING, MAP, 1)
        .str("r")
        .map(STRING, LIST, 1)
        .str("cf")
        .list(STRUCT, n)
        .raw(&vec![0; n as usize])
        .stop()
        .done();
    let got = process(&msg, STRICT, &limits, &h);
    assert!(matches!(got, Err(Violation::DecodedTooLarge(_))), "{got:?}");
    assert!(h.last().starts_with("get_multi_slice"), "{}", h.last());
}
