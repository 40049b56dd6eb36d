//! Property tests for 20.1.0 dispatch: no random bytes or mutated real 20.1.0 call (nested
//! schema structs, enums, cas's lists, row filters) makes `v20::process` panic, and whatever
//! the splitter accepts it answers, as `fuzz` checks for 0.6.

use crate::fuzz::{connection_with, LIMITS};
use crate::util::handler20::Recorder20;
use crate::util::*;
use ilion::protocol::v20::process;
use ilion::protocol::Mode;
use proptest::prelude::*;

fn connection(bytes: &[u8], pieces: &[usize]) -> usize {
    let h = Recorder20::default();
    connection_with(bytes, pieces, |message, mode| {
        process(message, mode, &LIMITS, &h)
    })
}

/// Real 20.1.0 calls to mutate (each under the small limits).
fn samples() -> Vec<Vec<u8>> {
    let ks_def = Enc::strict("system_add_keyspace", 1)
        .field(STRUCT, 1)
        .s(1, "ks")
        .s(2, "SimpleStrategy")
        .field(MAP, 3)
        .map(STRING, STRING, 1)
        .str("replication_factor")
        .str("1")
        .field(LIST, 5)
        .list(STRUCT, 1)
        .s(1, "ks")
        .s(2, "cf")
        .field(LIST, 13)
        .list(STRUCT, 1)
        .s(1, "c")
        .s(2, "UTF8Type")
        .field(I32, 3)
        .i32(0)
        .stop()
        .stop()
        .field(BOOL, 6)
        .raw(&[1])
        .stop()
        .stop();
    let row_filter = Enc::strict("get_range_slices", 2)
        .field(STRUCT, 1)
        .s(3, "cf")
        .stop()
        .field(STRUCT, 2)
        .field(LIST, 1)
        .list(STRING, 1)
        .str("a")
        .stop()
        .field(STRUCT, 3)
        .field(LIST, 6)
        .list(STRUCT, 1)
        .s(1, "c")
        .field(I32, 2)
        .i32(0)
        .s(3, "v")
        .stop()
        .field(I32, 5)
        .i32(10)
        .stop()
        .field(I32, 4)
        .i32(11)
        .stop();
    let cas = Enc::strict("cas", 3)
        .s(1, "row")
        .s(2, "cf")
        .field(LIST, 4)
        .list(STRUCT, 1)
        .s(1, "n")
        .s(2, "v")
        .field(I64, 3)
        .i64(1)
        .stop()
        .stop();
    let multi = Enc::strict("get_multi_slice", 4)
        .field(STRUCT, 1)
        .s(1, "row")
        .field(LIST, 3)
        .list(STRUCT, 2)
        .s(1, "a")
        .stop()
        .s(2, "z")
        .stop()
        .field(I32, 6)
        .i32(1)
        .stop()
        .stop();
    vec![
        ks_def.framed(),
        row_filter.done(),
        cas.framed(),
        multi.done(),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn random_bytes_never_panic(
        bytes in proptest::collection::vec(any::<u8>(), 0..600),
        pieces in proptest::collection::vec(1usize..40, 1..8),
    ) {
        connection(&bytes, &pieces);
        for mode in [Mode { framed: false, strict: true }, Mode { framed: true, strict: false }] {
            let _ = process(&bytes, mode, &LIMITS, &Recorder20::default());
        }
    }

    #[test]
    fn mutated_calls_never_panic(
        which in 0usize..4,
        edits in proptest::collection::vec((any::<usize>(), any::<u8>()), 1..6),
        pieces in proptest::collection::vec(1usize..40, 1..8),
    ) {
        let mut bytes = samples()[which].clone();
        for (at, b) in edits {
            let i = at % bytes.len();
            bytes[i] = b;
        }
        let twice = [bytes.clone(), bytes].concat();
        connection(&twice, &pieces);
    }
}

#[test]
fn samples_pass_through_whole() {
    let h = Recorder20::default();
    for s in samples() {
        assert_eq!(connection(&[s.clone(), s].concat(), &[7]), 2);
    }
    // and each reaches its handler (none is refused as a PROTOCOL_ERROR)
    for s in samples() {
        let framed = s[..4] != [0x80, 1, 0, 1];
        let mode = Mode {
            framed,
            strict: true,
        };
        let body = if framed { &s[4..] } else { &s[..] };
        let before = h.calls.borrow().len();
        process(body, mode, &LIMITS, &h).unwrap();
        assert_eq!(h.calls.borrow().len(), before + 1, "{s:?}");
    }
}
