//! Entry points for the fuzz targets in `fuzz/` and their regression tests
//! (`tests/fuzz_regressions.rs`), compiled only with the `fuzzing` feature and never on the
//! request path (`docs/fuzzing.md`). Each function takes the fuzzer's bytes, drives the real
//! code with them, and panics only when that code broke one of its promises: a panic of its
//! own, a reply that is not a Thrift message, an allocation past the configured limits, two
//! answers to the same bytes that disagree. An error returned for bad bytes is the expected
//! outcome, not a failure.
//!
//! * [`wire::split`] — connection detection and the splitter (target `wire`);
//! * [`wire::call`] — the codec and every method's argument decode (target `codec`);
//! * [`dispatch::connection`] — a whole connection against the in-memory engine (`dispatch`);
//! * [`files::config`] — storage-conf.xml and the two properties files (`config`);
//! * [`store::corrupted`] — a store whose bytes were damaged on disk (`store`).

pub mod dispatch;
pub mod files;
pub mod store;
pub mod wire;

use crate::config::Config;
use crate::protocol::{BinaryIn, Limits};
use std::sync::Arc;
use thrift::protocol::{TInputProtocol, TMessageType, TType};

/// tests/conf/storage-conf.xml, the configuration every test suite shares.
const TEST_CONF: &str = include_str!("../../tests/conf/storage-conf.xml");

/// Small wire limits (1 MiB messages, the smallest the configuration allows), so that the
/// limits are reachable from small inputs and the allocation bound is tight.
pub const FUZZ_LIMITS_XML: &str = "<ThriftMaxFrameSizeInMB>1</ThriftMaxFrameSizeInMB>\
    <ThriftMaxMessageSizeInMB>1</ThriftMaxMessageSizeInMB>\
    <ThriftMaxNestingDepth>16</ThriftMaxNestingDepth>";

/// The shared test configuration with the small wire limits, `extra` elements added, and
/// `config_dir` as its directory (where SimpleAuthenticator looks for its files).
pub(crate) fn test_config(extra: &str, config_dir: &std::path::Path) -> Arc<Config> {
    let text = TEST_CONF.replacen(
        "</Storage>",
        &format!("{FUZZ_LIMITS_XML}{extra}</Storage>"),
        1,
    );
    match Config::from_xml(&text, config_dir, config_dir) {
        Ok(config) => Arc::new(config),
        Err(e) => panic!("the fuzzing configuration does not load: {e}"),
    }
}

/// Checks that `reply` is one well-formed Thrift message as ilion must send it: framed exactly
/// when `framed`, the versioned header, a REPLY or EXCEPTION, one struct, nothing after it.
pub fn check_reply(reply: &[u8], framed: bool, limits: &Limits) -> Result<(), String> {
    let body = if framed {
        let (prefix, body) = reply
            .split_first_chunk::<4>()
            .ok_or("a framed reply shorter than its prefix")?;
        let len = u32::from_be_bytes(*prefix) as usize;
        if len != body.len() {
            return Err(format!("frame says {len} bytes, {} follow", body.len()));
        }
        body
    } else {
        reply
    };
    if body.first() != Some(&0x80) {
        return Err("the reply does not carry the versioned header".into());
    }
    let mut inp = BinaryIn::new(body, limits.max_depth);
    let ident = inp.read_message_begin().map_err(|e| e.to_string())?;
    if !matches!(
        ident.message_type,
        TMessageType::Reply | TMessageType::Exception
    ) {
        return Err(format!("reply of type {:?}", ident.message_type));
    }
    inp.skip(TType::Struct).map_err(|e| e.to_string())?;
    inp.read_message_end().map_err(|e| e.to_string())?;
    match inp.remaining() {
        0 => Ok(()),
        n => Err(format!("{n} bytes after the reply's struct")),
    }
}
