//! sled 0.34 follows each write of a log buffer with `sync_file_range`, and from then on
//! treats the buffer as stable: it reuses log segments whose contents it has rewritten
//! elsewhere once those rewrites are "stable". `sync_file_range` neither flushes the disk's
//! cache nor orders writes against a power cut, so a cut can keep a reused segment's new
//! bytes and lose the rewrites, losing writes ilion had already synced (the power-cut
//! harness showed it in periodic mode, docs/powercut.md finding 4). sled falls back to
//! `fsync` when `sync_file_range` answers ENOSYS; [`install`] makes it answer so for this
//! process with a seccomp filter (nothing else in ilion calls it), so every log-buffer write
//! sled makes is durable before sled builds on it.

use seccompiler::{BpfProgram, SeccompAction, SeccompFilter, TargetArch};
use std::sync::OnceLock;

/// Installs the filter on every thread of the process, once; later calls return the first
/// call's result.
pub(super) fn install() -> Result<(), String> {
    static INSTALLED: OnceLock<Result<(), String>> = OnceLock::new();
    INSTALLED.get_or_init(filter_sync_file_range).clone()
}

fn filter_sync_file_range() -> Result<(), String> {
    let arch = TargetArch::try_from(std::env::consts::ARCH).map_err(|e| e.to_string())?;
    let filter = SeccompFilter::new(
        [(libc::SYS_sync_file_range, vec![])].into_iter().collect(),
        SeccompAction::Allow,
        SeccompAction::Errno(libc::ENOSYS as u32),
        arch,
    )
    .map_err(|e| e.to_string())?;
    let program: BpfProgram = filter
        .try_into()
        .map_err(|e: seccompiler::BackendError| e.to_string())?;
    seccompiler::apply_filter_all_threads(&program).map_err(|e| e.to_string())
}
