//! Bounds-checked reading of 0.6's big-endian primitives (`docs/migrate.md#what-is-read`) from a
//! row body held in memory, and Java's modified UTF-8 for row keys. Every length is checked against
//! the bytes that are really there before anything is sliced or allocated; a short or inconsistent
//! field is an error naming what was being read, never a panic.

/// A position in a byte slice; errors carry the offset where the bad field starts.
pub struct Input<'a> {
    bytes: &'a [u8],
    at: usize,
}

/// What went wrong and where (offset inside the slice being read).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldError {
    pub offset: usize,
    pub message: String,
}

pub type FieldResult<T> = Result<T, FieldError>;

impl<'a> Input<'a> {
    pub fn new(bytes: &'a [u8]) -> Input<'a> {
        Input { bytes, at: 0 }
    }

    /// Offset of the next unread byte.
    pub fn offset(&self) -> usize {
        self.at
    }

    /// Bytes not yet read.
    pub fn remaining(&self) -> usize {
        self.bytes.len() - self.at
    }

    /// An error at the current offset.
    pub fn error(&self, message: impl Into<String>) -> FieldError {
        FieldError {
            offset: self.at,
            message: message.into(),
        }
    }

    /// The next `n` bytes, or an error saying `what` is cut short.
    pub fn take(&mut self, n: usize, what: &str) -> FieldResult<&'a [u8]> {
        if n > self.remaining() {
            return Err(self.error(format!(
                "{what}: needs {n} bytes but only {} remain",
                self.remaining()
            )));
        }
        let out = &self.bytes[self.at..self.at + n];
        self.at += n;
        Ok(out)
    }

    fn array<const N: usize>(&mut self, what: &str) -> FieldResult<[u8; N]> {
        let mut out = [0; N];
        out.copy_from_slice(self.take(N, what)?);
        Ok(out)
    }

    pub fn u8(&mut self, what: &str) -> FieldResult<u8> {
        Ok(self.array::<1>(what)?[0])
    }

    pub fn u16(&mut self, what: &str) -> FieldResult<u16> {
        Ok(u16::from_be_bytes(self.array(what)?))
    }

    pub fn i32(&mut self, what: &str) -> FieldResult<i32> {
        Ok(i32::from_be_bytes(self.array(what)?))
    }

    pub fn i64(&mut self, what: &str) -> FieldResult<i64> {
        Ok(i64::from_be_bytes(self.array(what)?))
    }

    /// An `i32` length that must be ≥ 0 and fit in what remains.
    pub fn length(&mut self, what: &str) -> FieldResult<usize> {
        let start = self.at;
        let n = self.i32(what)?;
        let n = usize::try_from(n).map_err(|_| FieldError {
            offset: start,
            message: format!("{what}: negative length {n}"),
        })?;
        if n > self.remaining() {
            return Err(FieldError {
                offset: start,
                message: format!(
                    "{what}: length {n} runs past the end ({} bytes remain)",
                    self.remaining()
                ),
            });
        }
        Ok(n)
    }

    /// A `name`: u16 length, then the bytes.
    pub fn name(&mut self, what: &str) -> FieldResult<&'a [u8]> {
        let n = self.u16(what)?;
        self.take(usize::from(n), what)
    }

    /// A `value`: i32 length (≥ 0), then the bytes.
    pub fn value(&mut self, what: &str) -> FieldResult<&'a [u8]> {
        let n = self.length(what)?;
        self.take(n, what)
    }
}

/// Decodes Java's modified UTF-8 (`DataOutput.writeUTF`): 1–3 byte groups into UTF-16 code
/// units (NUL as `C0 80`), surrogate pairs joined. Lone surrogates and malformed groups are
/// errors: such a key cannot be a Rust string (nor a Thrift key).
pub fn modified_utf8(bytes: &[u8]) -> Result<String, String> {
    let mut units: Vec<u16> = Vec::with_capacity(bytes.len());
    let mut i = 0;
    let cont = |b: Option<&u8>| -> Result<u16, String> {
        match b {
            Some(b) if b & 0xC0 == 0x80 => Ok(u16::from(b & 0x3F)),
            _ => Err("malformed modified UTF-8 in a row key".to_string()),
        }
    };
    while i < bytes.len() {
        let b = bytes[i];
        if b & 0x80 == 0 {
            units.push(u16::from(b));
            i += 1;
        } else if b & 0xE0 == 0xC0 {
            units.push((u16::from(b & 0x1F) << 6) | cont(bytes.get(i + 1))?);
            i += 2;
        } else if b & 0xF0 == 0xE0 {
            units.push(
                (u16::from(b & 0x0F) << 12)
                    | (cont(bytes.get(i + 1))? << 6)
                    | cont(bytes.get(i + 2))?,
            );
            i += 3;
        } else {
            return Err(format!("byte {b:#04x} cannot start a modified UTF-8 group"));
        }
    }
    String::from_utf16(&units).map_err(|_| "row key holds an unpaired UTF-16 surrogate".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_are_checked_before_slicing() {
        let mut input = Input::new(&[0, 0, 0, 9, 1, 2]);
        let e = input.value("value").unwrap_err();
        assert_eq!(e.offset, 0);
        assert!(e.message.contains("runs past the end"), "{}", e.message);
        let mut input = Input::new(&[0xff, 0xff, 0xff, 0xff]);
        assert!(input.length("n").unwrap_err().message.contains("negative"));
        let mut input = Input::new(&[0, 5, b'a']);
        assert!(input.name("name").is_err());
        assert!(Input::new(&[1]).i64("ts").is_err());
    }

    #[test]
    fn modified_utf8_decodes_java_forms() {
        assert_eq!(modified_utf8(b"abc").unwrap(), "abc");
        assert_eq!(modified_utf8(&[0xC0, 0x80]).unwrap(), "\0");
        // U+1F600 as two 3-byte surrogates (CESU-8 style).
        let emoji = [0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80];
        assert_eq!(modified_utf8(&emoji).unwrap(), "😀");
        assert_eq!(modified_utf8("ключ".as_bytes()).unwrap(), "ключ");
        assert!(modified_utf8(&[0xED, 0xA0, 0xBD]).is_err());
        assert!(modified_utf8(&[0xF0, 0x9F, 0x98, 0x80]).is_err());
        assert!(modified_utf8(&[0xC3]).is_err());
    }
}
