//! The in-memory binary codec: round trips, agreement with the thrift crate's own binary
//! protocol, both header styles, lossy strings, and refusal of hostile lengths.

use crate::util::*;
use ilion::protocol::{BinaryIn, BinaryOut, Column, ColumnPath, SlicePredicate, SliceRange};
use thrift::protocol::{
    TBinaryInputProtocol, TBinaryOutputProtocol, TFieldIdentifier, TInputProtocol, TListIdentifier,
    TMapIdentifier, TMessageIdentifier, TMessageType, TOutputProtocol, TSerializable,
    TStructIdentifier, TType,
};

/// Writes a message exercising every type the IDL uses.
fn write_sample(o: &mut dyn TOutputProtocol) {
    let go = |r: thrift::Result<()>| r.expect("write");
    go(o.write_message_begin(&TMessageIdentifier::new("probe", TMessageType::Reply, 77)));
    go(o.write_struct_begin(&TStructIdentifier::new("s")));
    go(o.write_field_begin(&TFieldIdentifier::new("b", TType::Bool, 1)));
    go(o.write_bool(true));
    go(o.write_field_begin(&TFieldIdentifier::new("i", TType::I32, 2)));
    go(o.write_i32(-5));
    go(o.write_field_begin(&TFieldIdentifier::new("l", TType::I64, 3)));
    go(o.write_i64(1 << 40));
    go(o.write_field_begin(&TFieldIdentifier::new("s", TType::String, 4)));
    go(o.write_string("héllo"));
    go(o.write_field_begin(&TFieldIdentifier::new("x", TType::List, 5)));
    go(o.write_list_begin(&TListIdentifier::new(TType::String, 2)));
    go(o.write_bytes(&[0, 255]));
    go(o.write_bytes(b""));
    go(o.write_field_begin(&TFieldIdentifier::new("m", TType::Map, 6)));
    go(o.write_map_begin(&TMapIdentifier::new(TType::String, TType::I16, 1)));
    go(o.write_string("k"));
    go(o.write_i16(-2));
    go(o.write_field_stop());
    go(o.write_struct_end());
    go(o.write_message_end());
}

#[test]
fn writes_what_the_thrift_crate_writes_in_strict_mode() {
    let mut ours = BinaryOut::new();
    write_sample(&mut ours);
    let mut theirs = Vec::new();
    write_sample(&mut TBinaryOutputProtocol::new(&mut theirs, true));
    assert_eq!(ours.written(), &theirs[..]);
}

#[test]
fn reads_back_what_it_wrote() {
    let mut out = BinaryOut::new();
    write_sample(&mut out);
    let bytes = out.into_bytes().unwrap();
    let mut i = BinaryIn::new(&bytes, 64);
    let m = i.read_message_begin().unwrap();
    assert_eq!(
        (m.name.as_str(), m.message_type, m.sequence_number),
        ("probe", TMessageType::Reply, 77)
    );
    i.read_struct_begin().unwrap();
    let f = i.read_field_begin().unwrap();
    assert_eq!((f.field_type, f.id), (TType::Bool, Some(1)));
    assert!(i.read_bool().unwrap());
    i.read_field_begin().unwrap();
    assert_eq!(i.read_i32().unwrap(), -5);
    i.read_field_begin().unwrap();
    assert_eq!(i.read_i64().unwrap(), 1 << 40);
    i.read_field_begin().unwrap();
    assert_eq!(i.read_string().unwrap(), "héllo");
    i.read_field_begin().unwrap();
    let l = i.read_list_begin().unwrap();
    assert_eq!((l.element_type, l.size), (TType::String, 2));
    assert_eq!(i.read_bytes().unwrap(), vec![0, 255]);
    assert_eq!(i.read_bytes().unwrap(), Vec::<u8>::new());
    i.read_list_end().unwrap();
    i.read_field_begin().unwrap();
    let m = i.read_map_begin().unwrap();
    assert_eq!(
        (m.key_type, m.value_type, m.size),
        (Some(TType::String), Some(TType::I16), 1)
    );
    assert_eq!(i.read_string().unwrap(), "k");
    assert_eq!(i.read_i16().unwrap(), -2);
    i.read_map_end().unwrap();
    assert_eq!(i.read_field_begin().unwrap().field_type, TType::Stop);
    i.read_struct_end().unwrap();
    assert_eq!(i.remaining(), 0);
}

#[test]
fn generated_structs_round_trip() {
    let pred = SlicePredicate {
        column_names: Some(vec![b"a".to_vec(), vec![0xff, 0]]),
        slice_range: Some(SliceRange::new(vec![], b"z".to_vec(), true, 7)),
    };
    let mut out = BinaryOut::new();
    pred.write_to_out_protocol(&mut out).unwrap();
    let bytes = out.into_bytes().unwrap();
    let back = SlicePredicate::read_from_in_protocol(&mut BinaryIn::new(&bytes, 64)).unwrap();
    assert_eq!(back, pred);

    let col = Column::new(b"n".to_vec(), vec![1, 2, 3], -9);
    let mut out = BinaryOut::new();
    col.write_to_out_protocol(&mut out).unwrap();
    let bytes = out.into_bytes().unwrap();
    // The thrift crate's reader agrees with our writer.
    let mut theirs = TBinaryInputProtocol::new(&bytes[..], true);
    assert_eq!(Column::read_from_in_protocol(&mut theirs).unwrap(), col);
}

#[test]
fn both_header_styles_are_read() {
    let strict = Enc::strict("get", 5).stop().done();
    let m = BinaryIn::new(&strict, 64).read_message_begin().unwrap();
    assert_eq!(
        (m.name.as_str(), m.message_type, m.sequence_number),
        ("get", TMessageType::Call, 5)
    );
    let loose = Enc::loose("get", 1, 6).stop().done();
    let m = BinaryIn::new(&loose, 64).read_message_begin().unwrap();
    assert_eq!(
        (m.name.as_str(), m.message_type, m.sequence_number),
        ("get", TMessageType::Call, 6)
    );
    // the type byte is not checked: anything unknown reads as a call
    let odd = Enc::loose("get", 9, 7).stop().done();
    let m = BinaryIn::new(&odd, 64).read_message_begin().unwrap();
    assert_eq!(m.message_type, TMessageType::Call);
    // the thrift crate's non-strict writer produces what we read
    let mut theirs = Vec::new();
    let mut w = TBinaryOutputProtocol::new(&mut theirs, false);
    w.write_message_begin(&TMessageIdentifier::new("x", TMessageType::Call, 3))
        .unwrap();
    let m = BinaryIn::new(&theirs, 64).read_message_begin().unwrap();
    assert_eq!((m.name.as_str(), m.sequence_number), ("x", 3));
    // version 2 is refused
    let v2 = Enc::default()
        .raw(&[0x80, 0x02, 0, 1])
        .str("get")
        .i32(1)
        .done();
    assert!(BinaryIn::new(&v2, 64).read_message_begin().is_err());
}

#[test]
fn replies_always_carry_the_versioned_header() {
    let mut out = BinaryOut::framed();
    out.write_message_begin(&TMessageIdentifier::new("get", TMessageType::Exception, 1))
        .unwrap();
    let bytes = out.into_bytes().unwrap();
    assert_eq!(&bytes[..4], &(bytes.len() as i32 - 4).to_be_bytes());
    assert_eq!(&bytes[4..8], &[0x80, 0x01, 0x00, 0x03]);
}

#[test]
fn strings_decode_lossily_and_binary_stays_raw() {
    let bytes = Enc::default().bytes(&[b'a', 0xff, b'b', 0xc3]).done();
    assert_eq!(
        BinaryIn::new(&bytes, 64).read_string().unwrap(),
        "a\u{fffd}b\u{fffd}"
    );
    assert_eq!(
        BinaryIn::new(&bytes, 64).read_bytes().unwrap(),
        vec![b'a', 0xff, b'b', 0xc3]
    );
    let path = Enc::default()
        .s(3, "cf\u{e9}")
        .field(STRING, 5)
        .bytes(&[0xff])
        .stop()
        .done();
    let p = ColumnPath::read_from_in_protocol(&mut BinaryIn::new(&path, 64)).unwrap();
    assert_eq!(
        (p.column_family.as_str(), p.column),
        ("cf\u{e9}", Some(vec![0xff]))
    );
}

#[test]
fn bool_is_true_only_for_one() {
    for (b, want) in [(0u8, false), (1, true), (2, false), (0xff, false)] {
        assert_eq!(BinaryIn::new(&[b], 64).read_bool().unwrap(), want);
    }
}

#[test]
fn hostile_lengths_fail_without_allocating() {
    let huge = Enc::default().i32(0x6000_0000).raw(b"abc").done();
    assert!(BinaryIn::new(&huge, 64).read_bytes().is_err());
    assert!(BinaryIn::new(&huge, 64).read_string().is_err());
    let negative = Enc::default().i32(-1).done();
    assert!(BinaryIn::new(&negative, 64).read_bytes().is_err());
    let list = Enc::default().list(I64, i32::MAX).done();
    assert!(BinaryIn::new(&list, 64).read_list_begin().is_err());
    let list = Enc::default().list(STRUCT, -3).done();
    assert!(BinaryIn::new(&list, 64).read_list_begin().is_err());
    // 3 i32 need 12 bytes; 11 are there
    let list = Enc::default().list(I32, 3).raw(&[0; 11]).done();
    assert!(BinaryIn::new(&list, 64).read_list_begin().is_err());
    let list = Enc::default().list(I32, 3).raw(&[0; 12]).done();
    assert_eq!(BinaryIn::new(&list, 64).read_list_begin().unwrap().size, 3);
    let map = Enc::default()
        .map(STRING, STRING, 1_000_000)
        .raw(&[0; 100])
        .done();
    assert!(BinaryIn::new(&map, 64).read_map_begin().is_err());
    let unknown = Enc::default().list(7, 0).done();
    assert!(BinaryIn::new(&unknown, 64).read_list_begin().is_err());
    assert!(BinaryIn::new(&[1, 0, 1], 64).read_field_begin().is_err());
    assert!(BinaryIn::new(&[0, 0], 64).read_i32().is_err());
}

#[test]
fn nesting_is_limited() {
    let mut i = BinaryIn::new(&[], 3);
    for _ in 0..3 {
        i.read_struct_begin().unwrap();
    }
    assert!(i.read_struct_begin().is_err());
    i.read_struct_end().unwrap();
    assert!(i.read_struct_begin().is_ok());
    // skipping a deeply nested unknown value stops at the limit instead of recursing on
    let mut deep = Enc::default();
    for _ in 0..10_000 {
        deep = deep.list(LIST, 1);
    }
    let deep = deep.done();
    assert!(BinaryIn::new(&deep, 64).skip(TType::List).is_err());
}
