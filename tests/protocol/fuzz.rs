//! Property tests: no byte string, random or a mutated real call, makes detection, the
//! splitter or dispatch panic; and whatever the splitter accepts, dispatch answers (the two
//! walk the same structure under the same limits), unless decoding would cost too much memory.
//! `fuzz20` runs the same connection loop over 20.1.0 calls.

use crate::util::handler::Recorder;
use crate::util::*;
use ilion::protocol::{detect, process, Detection, Limits, Mode, Split, Splitter, Violation};
use proptest::prelude::*;

/// Small limits so random lengths hit them often.
pub const LIMITS: Limits = Limits {
    max_frame_bytes: 300,
    max_message_bytes: 400,
    max_depth: 8,
};

/// Runs a whole connection over `bytes`, arriving in pieces of the given sizes, with 0.6
/// dispatch; the number of messages answered.
fn connection(bytes: &[u8], pieces: &[usize]) -> usize {
    let h = Recorder::default();
    connection_with(bytes, pieces, |message, mode| {
        process(message, mode, &LIMITS, &h)
    })
}

/// [`connection`] with `answer` as dispatch.
pub fn connection_with(
    bytes: &[u8],
    pieces: &[usize],
    answer: impl Fn(&[u8], Mode) -> Result<Vec<u8>, Violation>,
) -> usize {
    let mut answered = 0;
    let mut buf = Vec::new();
    let mut mode = None::<Mode>;
    let mut splitter = None::<Splitter>;
    let mut rest = bytes;
    for &n in pieces.iter().cycle().take(bytes.len() + 1) {
        if rest.is_empty() {
            break;
        }
        let n = n.clamp(1, rest.len());
        buf.extend_from_slice(&rest[..n]);
        rest = &rest[n..];
        if mode.is_none() {
            match detect(&buf, &LIMITS) {
                Detection::NeedMore => continue,
                Detection::Reject(_) => return answered,
                Detection::Mode(m) => {
                    mode = Some(m);
                    splitter = Some(Splitter::new(m, LIMITS));
                }
            }
        }
        let (Some(m), Some(s)) = (mode, splitter.as_mut()) else {
            return answered;
        };
        loop {
            match s.poll(&buf) {
                Split::NeedMore => break,
                Split::Reject(_) => return answered,
                Split::Message(span) => {
                    assert!(span.len <= buf.len() && span.message.end <= span.len);
                    assert!(span.message.len() <= LIMITS.max_message_bytes);
                    match answer(&buf[span.message.clone()], m) {
                        Ok(_) => {}
                        // the one refusal the splitter cannot foresee
                        Err(Violation::DecodedTooLarge(_)) => return answered,
                        Err(v) => panic!("split but not answered: {v}"),
                    }
                    answered += 1;
                    buf.drain(..span.len);
                }
            }
        }
    }
    answered
}

/// Real calls to mutate.
fn samples() -> Vec<Vec<u8>> {
    vec![
        get_call(1).done(),
        get_call(2).framed(),
        Enc::loose("describe_ring", 1, 5).s(1, "ks").stop().done(),
        Enc::strict("batch_mutate", 3)
            .s(1, "ks")
            .field(MAP, 2)
            .map(STRING, MAP, 1)
            .str("r")
            .map(STRING, LIST, 1)
            .str("cf")
            .list(STRUCT, 1)
            .field(STRUCT, 2)
            .field(I64, 1)
            .i64(1)
            .stop()
            .stop()
            .stop()
            .framed(),
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
            let _ = process(&bytes, mode, &LIMITS, &Recorder::default());
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
        // twice in a row, to exercise pipelining
        let twice = [bytes.clone(), bytes].concat();
        connection(&twice, &pieces);
    }
}

#[test]
fn samples_pass_through_whole() {
    for s in samples() {
        assert_eq!(connection(&[s.clone(), s].concat(), &[7]), 2);
    }
}
