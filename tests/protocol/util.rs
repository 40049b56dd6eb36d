//! A hand encoder for binary-protocol messages, so tests can build exactly the bytes they
//! mean, including the wrong ones (missing fields, mismatched types, hostile lengths).
#![allow(dead_code, unused_imports)]

pub mod handler;
pub mod handler20;

use ilion::protocol::wire::{CALL, VERSION_1};
pub use ilion::protocol::wire::{
    T_BOOL as BOOL, T_I32 as I32, T_I64 as I64, T_LIST as LIST, T_MAP as MAP, T_SET as SET,
    T_STRING as STRING, T_STRUCT as STRUCT,
};

/// Bytes under construction; every method appends.
#[derive(Debug, Clone, Default)]
pub struct Enc(pub Vec<u8>);

impl Enc {
    /// A versioned CALL header.
    pub fn strict(name: &str, seq: i32) -> Enc {
        Enc::default()
            .raw(&(VERSION_1 | u32::from(CALL)).to_be_bytes())
            .str(name)
            .i32(seq)
    }

    /// An unversioned header with message type `kind`.
    pub fn loose(name: &str, kind: u8, seq: i32) -> Enc {
        Enc::default().str(name).raw(&[kind]).i32(seq)
    }

    pub fn raw(mut self, b: &[u8]) -> Enc {
        self.0.extend_from_slice(b);
        self
    }

    pub fn field(self, t: u8, id: i16) -> Enc {
        self.raw(&[t]).raw(&id.to_be_bytes())
    }

    pub fn stop(self) -> Enc {
        self.raw(&[0])
    }

    pub fn i32(self, n: i32) -> Enc {
        self.raw(&n.to_be_bytes())
    }

    pub fn i64(self, n: i64) -> Enc {
        self.raw(&n.to_be_bytes())
    }

    pub fn bytes(self, b: &[u8]) -> Enc {
        self.i32(b.len() as i32).raw(b)
    }

    pub fn str(self, s: &str) -> Enc {
        self.bytes(s.as_bytes())
    }

    pub fn list(self, elem: u8, n: i32) -> Enc {
        self.raw(&[elem]).i32(n)
    }

    pub fn map(self, k: u8, v: u8, n: i32) -> Enc {
        self.raw(&[k, v]).i32(n)
    }

    /// A string field.
    pub fn s(self, id: i16, s: &str) -> Enc {
        self.field(STRING, id).str(s)
    }

    /// The bytes in a frame.
    pub fn framed(&self) -> Vec<u8> {
        let mut out = (self.0.len() as i32).to_be_bytes().to_vec();
        out.extend_from_slice(&self.0);
        out
    }

    pub fn done(self) -> Vec<u8> {
        self.0
    }
}

/// `get(keyspace, key, ColumnPath{cf, column}, cl)` with a versioned header.
pub fn get_call(seq: i32) -> Enc {
    Enc::strict("get", seq)
        .s(1, "Keyspace1")
        .s(2, "row")
        .field(STRUCT, 3)
        .s(3, "Standard1")
        .field(STRING, 5)
        .str("col")
        .stop()
        .field(I32, 4)
        .i32(1)
        .stop()
}
