//! The committed `src/protocol/generated.rs` must be exactly what the Thrift compiler makes of
//! `idl/cassandra.thrift`: the test regenerates it into a temporary directory with the same
//! script and compares bytes. A missing compiler fails the test rather than skipping it.

use std::path::Path;
use std::process::Command;

#[test]
fn committed_generated_code_matches_the_idl() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let found = Command::new("thrift").arg("--version").output();
    assert!(
        found.is_ok_and(|o| o.status.success()),
        "the Thrift compiler is missing: install the Debian package thrift-compiler (0.17.0), \
         e.g. `apt-get install thrift-compiler`"
    );
    let dir = tempfile::tempdir().expect("temporary directory");
    let fresh = dir.path().join("cassandra.rs");
    let run = Command::new("sh")
        .arg(root.join("scripts/gen-thrift.sh"))
        .arg(&fresh)
        .output()
        .expect("run scripts/gen-thrift.sh");
    assert!(
        run.status.success(),
        "scripts/gen-thrift.sh failed: {}",
        String::from_utf8_lossy(&run.stderr)
    );
    let fresh = std::fs::read(&fresh).expect("read the regenerated code");
    let committed =
        std::fs::read(root.join("src/protocol/generated.rs")).expect("read generated.rs");
    assert!(
        fresh == committed,
        "src/protocol/generated.rs is not the compiler's output for idl/cassandra.thrift; \
         run scripts/gen-thrift.sh and commit the result"
    );
}
