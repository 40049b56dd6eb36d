//! The image builder: replays a power-cut log (log.rs) onto a model of the watched directory
//! and produces the directory a power cut at a chosen point could leave behind
//! (docs/powercut.md#model):
//!
//! * file data: everything written to a file before the start of a completed `fsync` or
//!   `fdatasync` of that file (or a `syncfs`/`sync`) is on disk; `sync_file_range` promises
//!   nothing. Later writes may or may not be: each 512-byte sector independently holds one of
//!   the states it passed through since that sync (`Sectors`), or every file stops at one
//!   common point with the last write torn at a sector boundary (`Prefix`).
//! * directory entries (create, rename, unlink, mkdir) are durable once a completed `fsync`
//!   of their directory began after them. They reach the disk in order (a journal), so the
//!   surviving ones are a prefix: everything up to the last synced one, plus any number of
//!   the later ones. An `fsync` of a file does not make its name durable.

use crate::log::{Rec, SyncKind, O_CREAT, O_TRUNC};
use std::collections::{BTreeMap, HashMap};
use std::path::Path;

/// Sector size for tearing and for the per-sector choice.
pub const SECTOR: u64 = 512;

#[derive(Debug, Clone)]
enum DataKind {
    Write {
        off: u64,
        data: std::ops::Range<usize>,
        rec: usize,
    },
    SetLen(u64),
    Extend(u64),
}

#[derive(Debug, Clone)]
struct DataOp {
    pos: usize,
    ino: usize,
    kind: DataKind,
}

#[derive(Debug, Clone)]
enum NsKind {
    Create { path: String, ino: usize },
    Rename { from: String, to: String },
    Unlink { path: String },
}

#[derive(Debug, Clone)]
struct NsOp {
    pos: usize,
    /// The directories whose fsync makes this entry durable.
    parents: Vec<usize>,
    kind: NsKind,
}

/// One sync call: what it covers and when it began and ended.
#[derive(Debug, Clone)]
pub struct Sync {
    pub begin: usize,
    pub end: Option<usize>,
    pub ok: bool,
    pub kind: SyncKind,
    /// The inode synced (None: the whole file system).
    pub ino: Option<usize>,
    pub tid: i32,
    /// The calling thread's name (ilion's syncer is `ilion-sync`).
    pub thread: String,
    /// A sync of the engine's commit log (sled's `db`, fjall's `*.jnl`).
    pub commit_log: bool,
}

impl Sync {
    /// An fsync or fdatasync (of a file or a directory): one that promises durability.
    pub fn real(&self) -> bool {
        matches!(self.kind, SyncKind::Fsync | SyncKind::Fdatasync)
    }
}

/// Everything the log says happened, resolved to inodes.
pub struct Timeline {
    recs: Vec<Rec>,
    data: Vec<DataOp>,
    ns: Vec<NsOp>,
    pub syncs: Vec<Sync>,
    is_dir: Vec<bool>,
    /// Contents of the files present at the start, by inode.
    initial: HashMap<usize, Vec<u8>>,
    /// The namespace at the start.
    start_ns: BTreeMap<String, usize>,
}

fn parent(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(p, _)| p)
}

impl Timeline {
    /// Resolves `recs` against the directory as it was when recording began (`start`).
    pub fn new(recs: Vec<Rec>, start: &Path) -> Result<Timeline, String> {
        let mut t = Timeline {
            recs: Vec::new(),
            data: Vec::new(),
            ns: Vec::new(),
            syncs: Vec::new(),
            is_dir: vec![true],
            initial: HashMap::new(),
            start_ns: BTreeMap::new(),
        };
        let mut names: BTreeMap<String, usize> = BTreeMap::from([(String::new(), 0)]);
        scan(start, "", &mut names, &mut t)?;
        t.start_ns = names.clone();
        let mut fds: HashMap<i32, (usize, String)> = HashMap::new();
        let mut open_syncs: HashMap<u64, usize> = HashMap::new();
        for (pos, rec) in recs.iter().enumerate() {
            match rec {
                Rec::Open { fd, flags, path } => {
                    let path = path
                        .clone()
                        .ok_or("an open outside the directory was logged")?;
                    let ino = match names.get(&path) {
                        Some(&ino) => {
                            if flags & O_TRUNC != 0 && !t.is_dir[ino] {
                                t.data.push(DataOp {
                                    pos,
                                    ino,
                                    kind: DataKind::SetLen(0),
                                });
                            }
                            ino
                        }
                        None if flags & O_CREAT != 0 => t.create(pos, &path, false, &mut names)?,
                        None => return Err(format!("{path} opened but never created")),
                    };
                    fds.insert(*fd, (ino, path));
                }
                Rec::Close { fd } => {
                    fds.remove(fd);
                }
                Rec::Dup { old, new } => {
                    let entry = fds
                        .get(old)
                        .cloned()
                        .ok_or("dup of an unknown descriptor")?;
                    fds.insert(*new, entry);
                }
                Rec::Write { fd, off, data } => {
                    let ino = fd_ino(&fds, *fd)?;
                    let kind = DataKind::Write {
                        off: *off,
                        data: 0..data.len(),
                        rec: pos,
                    };
                    t.data.push(DataOp { pos, ino, kind });
                }
                Rec::Trunc { fd, len } => {
                    let ino = fd_ino(&fds, *fd)?;
                    t.data.push(DataOp {
                        pos,
                        ino,
                        kind: DataKind::SetLen(*len),
                    });
                }
                Rec::TruncPath { len, path } => {
                    let path = path.as_deref().ok_or("truncate of an unknown path")?;
                    let ino = *names.get(path).ok_or("truncate of a missing file")?;
                    t.data.push(DataOp {
                        pos,
                        ino,
                        kind: DataKind::SetLen(*len),
                    });
                }
                Rec::Falloc { fd, mode, off, len } => {
                    let ino = fd_ino(&fds, *fd)?;
                    match mode {
                        0 => t.data.push(DataOp {
                            pos,
                            ino,
                            kind: DataKind::Extend(off + len),
                        }),
                        1 => {} // FALLOC_FL_KEEP_SIZE: no visible change
                        m => return Err(format!("fallocate mode {m} is not modelled")),
                    }
                }
                Rec::SyncBegin {
                    id,
                    kind,
                    fd,
                    tid,
                    thread,
                } => {
                    let (ino, commit_log) = match kind {
                        SyncKind::Sync | SyncKind::Syncfs => (None, false),
                        _ => {
                            let (ino, path) = fds.get(fd).ok_or("sync of an unknown descriptor")?;
                            (Some(*ino), path == "db" || path.ends_with(".jnl"))
                        }
                    };
                    open_syncs.insert(*id, t.syncs.len());
                    t.syncs.push(Sync {
                        begin: pos,
                        end: None,
                        ok: false,
                        kind: *kind,
                        ino,
                        tid: *tid,
                        thread: thread.clone(),
                        commit_log,
                    });
                }
                Rec::SyncEnd { id, ret } => {
                    let i = open_syncs.remove(id).ok_or("sync end without a begin")?;
                    t.syncs[i].end = Some(pos);
                    t.syncs[i].ok = *ret == 0;
                }
                Rec::Rename { from, to } => match (from, to) {
                    (Some(from), Some(to)) => {
                        let ino = names.remove(from).ok_or("rename of a missing name")?;
                        let moved: Vec<(String, usize)> = names
                            .range(format!("{from}/")..)
                            .take_while(|(k, _)| k.starts_with(&format!("{from}/")))
                            .map(|(k, v)| (k.clone(), *v))
                            .collect();
                        if !moved.is_empty() {
                            return Err("renaming a non-empty directory is not modelled".into());
                        }
                        names.insert(to.clone(), ino);
                        let parents = vec![names[parent(from)], names[parent(to)]];
                        let kind = NsKind::Rename {
                            from: from.clone(),
                            to: to.clone(),
                        };
                        t.ns.push(NsOp { pos, parents, kind });
                    }
                    (Some(from), None) => t.unlink(pos, from, &mut names)?,
                    _ => return Err("a rename into the directory from outside".into()),
                },
                Rec::Unlink { path } => {
                    let path = path.as_deref().ok_or("unlink of an unknown path")?;
                    t.unlink(pos, path, &mut names)?;
                }
                Rec::Mkdir { path } => {
                    let path = path.clone().ok_or("mkdir of an unknown path")?;
                    t.create(pos, &path, true, &mut names)?;
                }
                Rec::Unsupported(what) => return Err(format!("the shim saw: {what}")),
                Rec::Sent(_) | Rec::Ack(_) => {}
            }
        }
        t.recs = recs;
        Ok(t)
    }

    fn create(
        &mut self,
        pos: usize,
        path: &str,
        dir: bool,
        names: &mut BTreeMap<String, usize>,
    ) -> Result<usize, String> {
        let ino = self.is_dir.len();
        self.is_dir.push(dir);
        let parent = *names
            .get(parent(path))
            .ok_or("created in a missing directory")?;
        names.insert(path.to_string(), ino);
        let kind = NsKind::Create {
            path: path.to_string(),
            ino,
        };
        self.ns.push(NsOp {
            pos,
            parents: vec![parent],
            kind,
        });
        Ok(ino)
    }

    fn unlink(
        &mut self,
        pos: usize,
        path: &str,
        names: &mut BTreeMap<String, usize>,
    ) -> Result<(), String> {
        names.remove(path).ok_or("unlink of a missing name")?;
        let parents = vec![*names
            .get(parent(path))
            .ok_or("unlink in a missing directory")?];
        let kind = NsKind::Unlink {
            path: path.to_string(),
        };
        self.ns.push(NsOp { pos, parents, kind });
        Ok(())
    }

    /// The records, for the checker.
    pub fn recs(&self) -> &[Rec] {
        &self.recs
    }

    /// The point up to which each inode's data is durable at cut `cut`, and the same for
    /// each directory's entries: the begin of the last completed fsync/fdatasync.
    fn durable_points(&self, cut: usize) -> Vec<usize> {
        let mut points = vec![0; self.is_dir.len()];
        for s in &self.syncs {
            let done = s.ok && s.end.is_some_and(|e| e < cut);
            if !done || matches!(s.kind, SyncKind::Range) {
                continue;
            }
            match s.ino {
                Some(ino) => points[ino] = points[ino].max(s.begin),
                None => points.iter_mut().for_each(|p| *p = (*p).max(s.begin)),
            }
        }
        points
    }

    /// Builds the image a power cut just before record `cut` could leave, as chosen by `how`.
    pub fn build(&self, cut: usize, how: &Choice, rng: &mut Rng) -> Image {
        let mut points = self.durable_points(cut);
        if let Some(back) = how.plant_rollback {
            // Planted fault for the harness's own tests: pretend the commit log's last
            // `back` completed fsyncs/fdatasyncs that carried new data never happened.
            // sync_file_range calls promise nothing (durable_points ignores them) and syncs
            // with nothing new (an idle engine's flushes) are skipped: forgetting either
            // would plant nothing. So are syncs after the last acknowledgement: what they
            // carried (sled's housekeeping once the load has stopped) no request waited for.
            let last_ack = self.recs[..cut.min(self.recs.len())]
                .iter()
                .rposition(|r| matches!(r, Rec::Ack(_)))
                .unwrap_or(0);
            let mut done: Vec<&Sync> = self
                .syncs
                .iter()
                .filter(|s| {
                    s.commit_log
                        && s.real()
                        && s.ok
                        && s.ino.is_some()
                        && s.end.is_some_and(|e| e < cut && e < last_ack)
                })
                .collect();
            done.sort_by_key(|s| s.begin);
            let mut carrying: Vec<(usize, usize)> = Vec::new(); // (inode, previous sync's begin)
            for (i, s) in done.iter().enumerate() {
                let ino = s.ino.expect("filtered");
                let prev = done[..i]
                    .iter()
                    .rev()
                    .find(|p| p.ino == Some(ino))
                    .map_or(0, |p| p.begin);
                let from = self.data.partition_point(|o| o.pos < prev);
                let new_data = self.data[from..]
                    .iter()
                    .take_while(|o| o.pos < s.begin)
                    .any(|o| o.ino == ino);
                if new_data {
                    carrying.push((ino, prev));
                }
            }
            for &(ino, prev) in carrying.iter().rev().take(back) {
                points[ino] = points[ino].min(prev);
            }
        }
        // Directory entries: a prefix, at least up to the last durable one.
        let live: Vec<&NsOp> = self.ns.iter().filter(|o| o.pos < cut).collect();
        let forced = live
            .iter()
            .rposition(|o| o.parents.iter().any(|&d| o.pos < points[d]))
            .map_or(0, |i| i + 1);
        let kept = match how.mode {
            Mode::Prefix(_) | Mode::Sectors => rng.range(forced, live.len() + 1),
        };
        let mut names = self.start_ns.clone();
        for op in &live[..kept] {
            match &op.kind {
                NsKind::Create { path, ino } => {
                    names.insert(path.clone(), *ino);
                }
                NsKind::Rename { from, to } => {
                    if let Some(ino) = names.remove(from) {
                        names.insert(to.clone(), ino);
                    }
                }
                NsKind::Unlink { path } => {
                    names.remove(path);
                }
            }
        }
        // File data, for the inodes that still have a name.
        let wanted: std::collections::HashSet<usize> = names.values().copied().collect();
        let mut files: HashMap<usize, FileImg> = HashMap::new();
        for &ino in &wanted {
            let data = self.initial.get(&ino).cloned().unwrap_or_default();
            files.insert(
                ino,
                FileImg {
                    size: data.len() as u64,
                    data,
                },
            );
        }
        let prefix_at = match how.mode {
            Mode::Prefix(t) => Some(t.min(cut)),
            Mode::Sectors => None,
        };
        // In Prefix mode, the last data op before the common point is torn.
        let torn = prefix_at.and_then(|t| self.data.iter().rposition(|o| o.pos < t));
        let mut sector_time: HashMap<(usize, u64), usize> = HashMap::new();
        let mut size_time: HashMap<usize, usize> = HashMap::new();
        if prefix_at.is_none() {
            self.choose_sector_times(cut, &points, &wanted, rng, &mut sector_time, &mut size_time);
        }
        for (i, op) in self.data.iter().enumerate() {
            if op.pos >= cut || !wanted.contains(&op.ino) || self.is_dir[op.ino] {
                continue;
            }
            let durable = op.pos < points[op.ino];
            let file = files.get_mut(&op.ino).expect("wanted inode");
            match &op.kind {
                DataKind::Write { off, data, rec } => {
                    let Rec::Write { data: bytes, .. } = &self.recs[*rec] else {
                        unreachable!()
                    };
                    let bytes = &bytes[data.clone()];
                    if durable {
                        file.write(*off, bytes);
                    } else if let Some(t) = prefix_at {
                        let t = t.max(points[op.ino]);
                        if Some(i) == torn && bytes.len() as u64 > SECTOR {
                            let sectors =
                                (off + bytes.len() as u64).div_ceil(SECTOR) - off / SECTOR;
                            let keep_to = ((off / SECTOR + rng.range(1, sectors as usize) as u64)
                                * SECTOR)
                                .clamp(*off, off + bytes.len() as u64);
                            file.write(*off, &bytes[..(keep_to - off) as usize]);
                        } else if op.pos < t {
                            file.write(*off, bytes);
                        }
                    } else {
                        // Each sector takes the op if its chosen time is after the op.
                        let end = off + bytes.len() as u64;
                        let mut s = off / SECTOR;
                        while s * SECTOR < end {
                            let lo = (s * SECTOR).max(*off);
                            let hi = ((s + 1) * SECTOR).min(end);
                            if sector_time.get(&(op.ino, s)).is_some_and(|&t| op.pos < t) {
                                file.write(lo, &bytes[(lo - off) as usize..(hi - off) as usize]);
                            }
                            s += 1;
                        }
                    }
                }
                DataKind::SetLen(len) | DataKind::Extend(len) => {
                    let applies = durable
                        || match prefix_at {
                            Some(t) => op.pos < t.max(points[op.ino]),
                            None => size_time.get(&op.ino).is_some_and(|&t| op.pos < t),
                        };
                    if applies {
                        match op.kind {
                            DataKind::SetLen(_) => file.set_len(*len),
                            _ => file.size = file.size.max(*len),
                        }
                    }
                }
            }
        }
        if prefix_at.is_none() {
            // The size a file shows is the size at its chosen time.
            for (&ino, &t) in &size_time {
                if let Some(f) = files.get_mut(&ino) {
                    f.set_len(self.size_at(ino, t));
                }
            }
        }
        Image {
            entries: names
                .into_iter()
                .filter(|(p, _)| !p.is_empty())
                .map(|(p, ino)| {
                    let e = if self.is_dir[ino] {
                        None
                    } else {
                        files.remove(&ino)
                    };
                    (p, e)
                })
                .collect(),
        }
    }

    /// Picks, for every sector written after its file's durable point, the moment whose
    /// content it keeps, and for every such file the moment whose size it keeps.
    fn choose_sector_times(
        &self,
        cut: usize,
        points: &[usize],
        wanted: &std::collections::HashSet<usize>,
        rng: &mut Rng,
        sector_time: &mut HashMap<(usize, u64), usize>,
        size_time: &mut HashMap<usize, usize>,
    ) {
        let mut history: HashMap<(usize, u64), Vec<usize>> = HashMap::new();
        let mut sizes: HashMap<usize, Vec<usize>> = HashMap::new();
        for op in &self.data {
            if op.pos >= cut || op.pos < points[op.ino] || !wanted.contains(&op.ino) {
                continue;
            }
            sizes
                .entry(op.ino)
                .or_insert_with(|| vec![points[op.ino]])
                .push(op.pos + 1);
            if let DataKind::Write { off, data, .. } = &op.kind {
                let end = off + data.len() as u64;
                for s in off / SECTOR..end.div_ceil(SECTOR) {
                    history
                        .entry((op.ino, s))
                        .or_insert_with(|| vec![points[op.ino]])
                        .push(op.pos + 1);
                }
            }
        }
        for (k, times) in history {
            sector_time.insert(k, times[rng.range(0, times.len())]);
        }
        for (ino, times) in sizes {
            size_time.insert(ino, times[rng.range(0, times.len())]);
        }
    }

    /// The file's size just before record `t`, replaying every data op (sizes only).
    fn size_at(&self, ino: usize, t: usize) -> u64 {
        let mut size = self.initial.get(&ino).map_or(0, |d| d.len() as u64);
        for op in self.data.iter().filter(|o| o.ino == ino && o.pos < t) {
            match &op.kind {
                DataKind::Write { off, data, .. } => size = size.max(off + data.len() as u64),
                DataKind::SetLen(l) => size = *l,
                DataKind::Extend(l) => size = size.max(*l),
            }
        }
        size
    }
}

fn fd_ino(fds: &HashMap<i32, (usize, String)>, fd: i32) -> Result<usize, String> {
    fds.get(&fd)
        .map(|e| e.0)
        .ok_or_else(|| format!("write to unknown descriptor {fd}"))
}

fn scan(
    dir: &Path,
    rel: &str,
    names: &mut BTreeMap<String, usize>,
    t: &mut Timeline,
) -> Result<(), String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(());
    };
    for e in entries {
        let e = e.map_err(|e| e.to_string())?;
        let name = e.file_name().to_string_lossy().into_owned();
        let path = if rel.is_empty() {
            name
        } else {
            format!("{rel}/{name}")
        };
        let ino = t.is_dir.len();
        let is_dir = e.file_type().map_err(|e| e.to_string())?.is_dir();
        t.is_dir.push(is_dir);
        names.insert(path.clone(), ino);
        if is_dir {
            scan(&e.path(), &path, names, t)?;
        } else {
            t.initial
                .insert(ino, std::fs::read(e.path()).map_err(|e| e.to_string())?);
        }
    }
    Ok(())
}

/// How the unsynced part is chosen.
#[derive(Debug, Clone, Copy)]
pub enum Mode {
    /// Every file stops at the same record (and the last write before it is torn).
    Prefix(usize),
    /// Every sector independently keeps one of its states since its file's last sync.
    Sectors,
}

/// An image to build: the mode, and an optional planted fault (tests only).
#[derive(Debug, Clone, Copy)]
pub struct Choice {
    pub mode: Mode,
    pub plant_rollback: Option<usize>,
}

/// One file's content in an image: `data` then zeros up to `size`.
#[derive(Debug, Clone, Default)]
pub struct FileImg {
    pub data: Vec<u8>,
    pub size: u64,
}

impl FileImg {
    fn write(&mut self, off: u64, bytes: &[u8]) {
        let end = off as usize + bytes.len();
        if self.data.len() < end {
            self.data.resize(end, 0);
        }
        self.data[off as usize..end].copy_from_slice(bytes);
        self.size = self.size.max(end as u64);
    }
    fn set_len(&mut self, len: u64) {
        if (self.data.len() as u64) > len {
            self.data.truncate(len as usize);
        }
        self.size = len;
    }
}

/// A built image: every path, `None` for a directory.
pub struct Image {
    pub entries: BTreeMap<String, Option<FileImg>>,
}

impl Image {
    /// Writes the image into `dir` (which must exist and be empty); sparse beyond the data.
    pub fn write_to(&self, dir: &Path) -> std::io::Result<()> {
        for (path, entry) in &self.entries {
            let target = dir.join(path);
            match entry {
                None => std::fs::create_dir_all(&target)?,
                Some(f) => {
                    if let Some(p) = target.parent() {
                        std::fs::create_dir_all(p)?;
                    }
                    std::fs::write(&target, &f.data)?;
                    std::fs::OpenOptions::new()
                        .write(true)
                        .open(&target)?
                        .set_len(f.size)?;
                }
            }
        }
        Ok(())
    }

    /// The content of the file at `path`, if the image has it.
    pub fn file(&self, path: &str) -> Option<&FileImg> {
        self.entries.get(path).and_then(|e| e.as_ref())
    }
}

/// A small deterministic generator (xorshift64*), so every image can be rebuilt from its seed.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// Uniform in lo..hi (lo when the range is empty).
    pub fn range(&mut self, lo: usize, hi: usize) -> usize {
        if hi <= lo {
            lo
        } else {
            lo + (self.next() % (hi - lo) as u64) as usize
        }
    }
}
