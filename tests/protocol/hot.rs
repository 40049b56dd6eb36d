//! The hand-written `get_slice` path gives exactly the bytes of the generated
//! `process_get_slice` it replaces, for every kind of answer: columns, super columns, empty
//! and odd elements, each declared exception, an undeclared one, application and other
//! errors, and a panicking handler — in every mode.

use crate::util::handler::Recorder;
use ilion::protocol::generated::{
    CassandraSyncClient, TCassandraProcessFunctions, TCassandraSyncClient,
};
use ilion::protocol::{
    process, BinaryIn, BinaryOut, ColumnParent, ConsistencyLevel, Limits, Mode, SlicePredicate,
    SliceRange,
};
use thrift::protocol::{TBinaryInputProtocol, TBinaryOutputProtocol, TInputProtocol};

/// The versioned bytes the generated client sends for `get_slice` of `key`.
fn get_slice(key: &str, strict: bool) -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut c = CassandraSyncClient::new(
            TBinaryInputProtocol::new(&[][..], true),
            TBinaryOutputProtocol::new(&mut out, strict),
        );
        let parent = ColumnParent::new("Standard1".to_string(), None);
        let pred = SlicePredicate::new(None, SliceRange::new(vec![], vec![], false, 5));
        let _ = c.get_slice(
            "Keyspace1".into(),
            key.into(),
            parent,
            pred,
            ConsistencyLevel::ONE,
        );
    }
    out
}

/// What the generated process function writes for the same message (unframed).
fn generated(message: &[u8]) -> Vec<u8> {
    let mut inp = BinaryIn::new(message, 64);
    let ident = inp.read_message_begin().unwrap();
    let mut out = BinaryOut::new();
    TCassandraProcessFunctions::process_get_slice(
        &Recorder::default(),
        ident.sequence_number,
        &mut inp,
        &mut out,
    )
    .unwrap();
    out.into_bytes().unwrap()
}

#[test]
fn every_get_slice_answer_is_written_as_the_generated_code_writes_it() {
    for key in ["cols", "", "ire", "ue", "te", "nf", "app", "proto"] {
        for strict in [true, false] {
            let message = get_slice(key, strict);
            let want = generated(&message);
            let mode = Mode {
                framed: false,
                strict,
            };
            let got = process(&message, mode, &Limits::default(), &Recorder::default()).unwrap();
            assert_eq!(got, want, "get_slice of {key:?}, strict {strict}");
            let framed = Mode {
                framed: true,
                strict,
            };
            let got = process(&message, framed, &Limits::default(), &Recorder::default()).unwrap();
            assert_eq!(got[4..], want[..], "framed get_slice of {key:?}");
            assert_eq!(got[..4], (want.len() as u32).to_be_bytes());
        }
    }
}

#[test]
fn a_panicking_get_slice_is_an_internal_error_reply() {
    let message = get_slice("panic", true);
    let mode = Mode {
        framed: false,
        strict: true,
    };
    let got = process(&message, mode, &Limits::default(), &Recorder::default()).unwrap();
    let mut inp = BinaryIn::new(&got, 64);
    let ident = inp.read_message_begin().unwrap();
    assert_eq!(
        ident.message_type,
        thrift::protocol::TMessageType::Exception
    );
    let err = thrift::Error::read_application_error_from_in_protocol(&mut inp).unwrap();
    assert_eq!(err.message, "Internal error processing get_slice");
}
