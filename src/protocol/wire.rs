//! The numbers of the Thrift binary protocol, defined once: type ids, message types and the
//! versioned header word. The splitter, codec, writer, framing detection, argument schema, the
//! client and the tools all take them from here.
//!
//! Type ids and encoded sizes:
//!
//! | id | type   | encoding                         | smallest |
//! |----|--------|----------------------------------|----------|
//! | 0  | stop   | ends a struct's fields           | -        |
//! | 2  | bool   | 1 byte, true when it is 1        | 1        |
//! | 3  | byte   | 1 byte                           | 1        |
//! | 4  | double | 8 bytes                          | 8        |
//! | 6  | i16    | 2 bytes big-endian               | 2        |
//! | 8  | i32    | 4 bytes big-endian               | 4        |
//! | 10 | i64    | 8 bytes big-endian               | 8        |
//! | 11 | string | i32 length, bytes                | 4        |
//! | 12 | struct | (type, i16 id, value)*, 0        | 1        |
//! | 13 | map    | key type, value type, i32 count  | 6        |
//! | 14 | set    | element type, i32 count          | 5        |
//! | 15 | list   | element type, i32 count          | 5        |
//!
//! A versioned message header is the word `VERSION_1 | message type`, then the name and the
//! sequence id; an unversioned one is the name, then the message type byte, then the id.

use thrift::protocol::TType;

/// Ends a struct's fields (not a value type).
pub const T_STOP: u8 = 0;
/// `bool`.
pub const T_BOOL: u8 = 2;
/// `byte`.
pub const T_BYTE: u8 = 3;
/// `double`.
pub const T_DOUBLE: u8 = 4;
/// `i16`.
pub const T_I16: u8 = 6;
/// `i32` (and enums).
pub const T_I32: u8 = 8;
/// `i64`.
pub const T_I64: u8 = 10;
/// `string` and `binary`.
pub const T_STRING: u8 = 11;
/// `struct` (and exceptions).
pub const T_STRUCT: u8 = 12;
/// `map`.
pub const T_MAP: u8 = 13;
/// `set`.
pub const T_SET: u8 = 14;
/// `list`.
pub const T_LIST: u8 = 15;

/// Message type: a call.
pub const CALL: u8 = 1;
/// Message type: a reply carrying the result struct.
pub const REPLY: u8 = 2;
/// Message type: a reply carrying a TApplicationException.
pub const EXCEPTION: u8 = 3;
/// Message type: a call that wants no reply.
pub const ONEWAY: u8 = 4;

/// Versioned header word: version 1 in the top half, the message type in the low byte.
pub const VERSION_1: u32 = 0x8001_0000;
/// The half-word that must equal `VERSION_1`'s when the top bit is set.
pub const VERSION_MASK: u32 = 0xffff_0000;

/// The type for a wire type id, `None` for ids the binary protocol does not define
/// ([`T_STOP`] is not a value type).
pub(crate) fn ttype(id: u8) -> Option<TType> {
    Some(match id {
        T_BOOL => TType::Bool,
        T_BYTE => TType::I08,
        T_DOUBLE => TType::Double,
        T_I16 => TType::I16,
        T_I32 => TType::I32,
        T_I64 => TType::I64,
        T_STRING => TType::String,
        T_STRUCT => TType::Struct,
        T_MAP => TType::Map,
        T_SET => TType::Set,
        T_LIST => TType::List,
        _ => return None,
    })
}

/// The wire id of a value type (the inverse of [`ttype`]; [`T_STOP`] for anything else).
pub(crate) fn type_id(t: TType) -> u8 {
    match t {
        TType::Bool => T_BOOL,
        TType::I08 => T_BYTE,
        TType::Double => T_DOUBLE,
        TType::I16 => T_I16,
        TType::I32 => T_I32,
        TType::I64 => T_I64,
        TType::String => T_STRING,
        TType::Struct => T_STRUCT,
        TType::Map => T_MAP,
        TType::Set => T_SET,
        TType::List => T_LIST,
        _ => T_STOP,
    }
}

/// The exact size of a fixed-size value, `None` for strings, structs and containers.
pub(crate) fn fixed_size(id: u8) -> Option<usize> {
    match id {
        T_BOOL | T_BYTE => Some(1),
        T_I16 => Some(2),
        T_I32 => Some(4),
        T_DOUBLE | T_I64 => Some(8),
        _ => None,
    }
}

/// The fewest bytes a value of this type can take (for container-count checks).
pub(crate) fn min_size(id: u8) -> usize {
    match id {
        T_STRING => 4,
        T_STRUCT => 1,
        T_MAP => 6,
        T_SET | T_LIST => 5,
        _ => fixed_size(id).unwrap_or(1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn type_ids_round_trip() {
        for id in 0..=255u8 {
            match ttype(id) {
                Some(t) => assert_eq!(type_id(t), id),
                None => assert!(![2, 3, 4, 6, 8, 10, 11, 12, 13, 14, 15].contains(&id)),
            }
        }
        assert_eq!(type_id(TType::Stop), T_STOP);
        assert_eq!(VERSION_1.to_be_bytes(), [0x80, 0x01, 0, 0]);
    }
}
