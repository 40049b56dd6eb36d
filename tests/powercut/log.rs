//! The power-cut log: the records the shim (powercut/shim.c) appends for the server's file
//! changes and syncs, and the records the load writer appends around each request (sent,
//! acknowledged), all in one O_APPEND file, so their order is the order things happened.
//! Record: u32 total length, u8 kind, little-endian fields.

/// `open` flags the builder needs (Linux x86_64 values).
pub const O_CREAT: i32 = 0o100;
pub const O_TRUNC: i32 = 0o1000;

/// What a sync call was; only fsync and fdatasync (and whole-system syncs) promise anything.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SyncKind {
    Fsync,
    Fdatasync,
    /// sync_file_range: starts or waits for writeback, but flushes no disk cache and no
    /// metadata, so it guarantees nothing across a power cut.
    Range,
    Syncfs,
    Sync,
}

/// One record. Paths are relative to the watched directory; `None` is outside it.
#[derive(Debug, Clone)]
pub enum Rec {
    Open {
        fd: i32,
        flags: i32,
        path: Option<String>,
    },
    Close {
        fd: i32,
    },
    Dup {
        new: i32,
        old: i32,
    },
    Write {
        fd: i32,
        off: u64,
        data: Vec<u8>,
    },
    Trunc {
        fd: i32,
        len: u64,
    },
    TruncPath {
        len: u64,
        path: Option<String>,
    },
    Falloc {
        fd: i32,
        mode: i32,
        off: u64,
        len: u64,
    },
    SyncBegin {
        id: u64,
        kind: SyncKind,
        fd: i32,
        tid: i32,
        /// The calling thread's name.
        thread: String,
    },
    SyncEnd {
        id: u64,
        ret: i64,
    },
    Rename {
        from: Option<String>,
        to: Option<String>,
    },
    Unlink {
        path: Option<String>,
    },
    Mkdir {
        path: Option<String>,
    },
    Unsupported(String),
    /// The writer is about to send request `op`.
    Sent(u64),
    /// The writer has the successful reply to request `op`.
    Ack(u64),
}

pub const K_SENT: u8 = 20;
pub const K_ACK: u8 = 21;

/// Encodes a writer record (the shim writes the others).
pub fn writer_record(kind: u8, op: u64) -> [u8; 13] {
    let mut r = [0u8; 13];
    r[..4].copy_from_slice(&13u32.to_le_bytes());
    r[4] = kind;
    r[5..].copy_from_slice(&op.to_le_bytes());
    r
}

struct Reader<'a> {
    b: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], String> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.b.len());
        let end = end.ok_or_else(|| format!("record truncated at byte {}", self.at))?;
        let s = &self.b[self.at..end];
        self.at = end;
        Ok(s)
    }
    fn u16(&mut self) -> Result<u16, String> {
        Ok(u16::from_le_bytes(self.take(2)?.try_into().unwrap()))
    }
    fn i32(&mut self) -> Result<i32, String> {
        Ok(i32::from_le_bytes(self.take(4)?.try_into().unwrap()))
    }
    fn u64(&mut self) -> Result<u64, String> {
        Ok(u64::from_le_bytes(self.take(8)?.try_into().unwrap()))
    }
    fn path(&mut self) -> Result<Option<String>, String> {
        match self.u16()? {
            0xFFFF => Ok(None),
            n => Ok(Some(
                String::from_utf8(self.take(n as usize)?.to_vec()).map_err(|e| e.to_string())?,
            )),
        }
    }
    fn rest(&mut self) -> Vec<u8> {
        let s = self.b[self.at..].to_vec();
        self.at = self.b.len();
        s
    }
}

/// Parses a whole log. A torn last record (the writer or shim killed mid-append cannot
/// happen with O_APPEND writes, but be safe) is an error.
pub fn parse(bytes: &[u8]) -> Result<Vec<Rec>, String> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let head = bytes.get(at..at + 5).ok_or("truncated record header")?;
        let len = u32::from_le_bytes(head[..4].try_into().unwrap()) as usize;
        let body = bytes
            .get(at + 5..at + len.max(5))
            .ok_or_else(|| format!("record at byte {at} runs past the end"))?;
        let mut r = Reader { b: body, at: 0 };
        let rec = match head[4] {
            1 => Rec::Open {
                fd: r.i32()?,
                flags: r.i32()?,
                path: r.path()?,
            },
            2 => Rec::Close { fd: r.i32()? },
            3 => {
                let old = r.i32()?;
                Rec::Dup { old, new: r.i32()? }
            }
            4 => Rec::Write {
                fd: r.i32()?,
                off: r.u64()?,
                data: r.rest(),
            },
            5 => Rec::Trunc {
                fd: r.i32()?,
                len: r.u64()?,
            },
            6 => Rec::TruncPath {
                len: r.u64()?,
                path: r.path()?,
            },
            7 => Rec::Falloc {
                fd: r.i32()?,
                mode: r.i32()?,
                off: r.u64()?,
                len: r.u64()?,
            },
            8 => {
                let id = r.u64()?;
                let kind = match r.take(1)?[0] {
                    1 => SyncKind::Fsync,
                    2 => SyncKind::Fdatasync,
                    3 => SyncKind::Range,
                    4 => SyncKind::Syncfs,
                    _ => SyncKind::Sync,
                };
                let (fd, tid) = (r.i32()?, r.i32()?);
                let name = r.take(16)?;
                let len = name.iter().position(|&b| b == 0).unwrap_or(name.len());
                Rec::SyncBegin {
                    id,
                    kind,
                    fd,
                    tid,
                    thread: String::from_utf8_lossy(&name[..len]).into_owned(),
                }
            }
            9 => Rec::SyncEnd {
                id: r.u64()?,
                ret: r.u64()? as i64,
            },
            10 => {
                let _flags = r.i32()?;
                Rec::Rename {
                    from: r.path()?,
                    to: r.path()?,
                }
            }
            11 => Rec::Unlink { path: r.path()? },
            12 => Rec::Mkdir { path: r.path()? },
            13 => Rec::Unsupported(String::from_utf8_lossy(&r.rest()).into_owned()),
            K_SENT => Rec::Sent(r.u64()?),
            K_ACK => Rec::Ack(r.u64()?),
            k => return Err(format!("unknown record kind {k} at byte {at}")),
        };
        out.push(rec);
        at += len;
    }
    Ok(out)
}
