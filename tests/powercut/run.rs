//! Recording and campaigns: builds the shim, runs the real server under it with the load
//! writing, pulls the plug (SIGKILL; the log, not the page cache, is what counts), then builds
//! power-cut images from the log and checks each one (docs/powercut.md#run).

use crate::check::{judge, required_before, serve_and_read, Outcome};
use crate::image::{Choice, Mode, Rng, Timeline};
use crate::load::Load;
use crate::log::Rec;
use crate::support::conf::TestConf;
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::AtomicBool;
use std::sync::{mpsc, Arc, OnceLock};
use std::time::Duration;

/// Compiles powercut/shim.c with the machine's C compiler, once per test process.
pub fn shim() -> &'static Path {
    static SHIM: OnceLock<PathBuf> = OnceLock::new();
    SHIM.get_or_init(|| {
        let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("powercut/shim.c");
        let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("libpowercut.so");
        let status = Command::new(std::env::var("CC").unwrap_or_else(|_| "cc".into()))
            .args(["-O2", "-Wall", "-shared", "-fPIC", "-o"])
            .arg(&out)
            .arg(&source)
            .status()
            .expect("a C compiler (cc) to build powercut/shim.c");
        assert!(status.success(), "powercut/shim.c does not compile");
        out
    })
}

/// One recorded run: the log resolved into a timeline, the load's model, the configuration.
pub struct Recording {
    pub timeline: Timeline,
    pub load: Load,
    pub mode: String,
    pub conf: TestConf,
}

/// The configuration a recording and its images run with.
pub fn conf(engine: &str, mode: &str) -> TestConf {
    let conf = TestConf::new()
        .partitioner("OrderPreservingPartitioner")
        .set("StorageEngine", engine);
    match mode {
        "batch" => conf.commit_log("batch", "1.0"),
        _ => conf.commit_log("periodic", "100"),
    }
}

/// Runs the server under the shim in `work` with `writers` writers for `run_for`, then
/// SIGKILL. The store starts empty.
pub fn record(
    engine: &str,
    mode: &str,
    run_for: Duration,
    seed: u64,
    long_values: bool,
    work: &Path,
) -> Recording {
    let conf = conf(engine, mode);
    conf.write(work);
    let data = work.join("data");
    std::fs::create_dir_all(&data).unwrap();
    let log = work.join("powercut.log");
    std::fs::write(&log, b"").unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_ilion"))
        .args(["serve", "--config", "storage-conf.xml"])
        .current_dir(work)
        .env("LD_PRELOAD", shim())
        .env("POWERCUT_DIR", &data)
        .env("POWERCUT_LOG", &log)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start ilion under the shim");
    let stderr = child.stderr.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if let Some(addr) = line.split("listening on ").nth(1) {
                let _ = tx.send(addr.trim().to_string());
            }
            if line.contains("panicked") || line.contains("powercut shim") {
                eprintln!("recorded server: {line}");
            }
        }
    });
    let addr = rx
        .recv_timeout(Duration::from_secs(30))
        .expect("the server under the shim did not listen")
        .parse()
        .unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    let writers = {
        let (log, stop) = (log.clone(), Arc::clone(&stop));
        std::thread::spawn(move || crate::load::run(addr, &log, 4, seed, long_values, stop))
    };
    std::thread::sleep(run_for);
    assert_no_shared_maps(child.id(), &data);
    child.kill().unwrap();
    child.wait().unwrap();
    stop.store(true, std::sync::atomic::Ordering::SeqCst);
    let load = writers.join().unwrap();
    let recs = crate::log::parse(&std::fs::read(&log).unwrap()).unwrap();
    let timeline = Timeline::new(recs, &work.join("empty-start")).unwrap();
    Recording {
        timeline,
        load,
        mode: mode.to_string(),
        conf,
    }
}

/// The shim sees writes made with system calls; a shared writable mapping of a data file
/// would bypass it, so make sure there is none.
fn assert_no_shared_maps(pid: u32, data: &Path) {
    let maps = std::fs::read_to_string(format!("/proc/{pid}/maps")).unwrap();
    let data = data.to_string_lossy();
    for line in maps.lines().filter(|l| l.contains(data.as_ref())) {
        let perms = line.split_whitespace().nth(1).unwrap_or("");
        assert!(
            !(perms.contains('w') && perms.contains('s')),
            "a data file is mapped shared and writable, which the shim cannot record: {line}"
        );
    }
}

/// The tally of a campaign.
#[derive(Debug, Default)]
pub struct Tally {
    pub images: usize,
    pub passed: usize,
    pub refused: BTreeMap<String, usize>,
    pub lost: usize,
    pub fabricated: usize,
    pub torn: usize,
    pub panics: usize,
    /// Stopped at start without an error message.
    pub unclear: usize,
    pub read_errors: usize,
    /// Acknowledged requests checked present, summed over the served images.
    pub required: usize,
    pub acks: usize,
    pub syncs: usize,
    pub failures: Vec<String>,
}

impl Tally {
    /// Images whose outcome breaks the promise.
    pub fn bad(&self) -> usize {
        self.lost + self.fabricated + self.torn + self.panics + self.unclear + self.read_errors
    }

    pub fn add(&mut self, outcome: Outcome, what: &str) {
        self.images += 1;
        match outcome {
            Outcome::Passed { required } => {
                self.passed += 1;
                self.required += required;
            }
            Outcome::Refused(msg) => {
                // Group refusals by message, without the varying numbers and paths.
                let key: String = msg
                    .split(" in /")
                    .next()
                    .unwrap_or("")
                    .chars()
                    .filter(|c| !c.is_ascii_digit())
                    .collect();
                *self.refused.entry(key).or_default() += 1;
            }
            Outcome::Failed(r) => {
                self.lost += usize::from(!r.lost.is_empty());
                self.fabricated += usize::from(!r.fabricated.is_empty());
                self.torn += usize::from(!r.torn.is_empty());
                let first: Vec<&String> = r
                    .lost
                    .iter()
                    .chain(&r.fabricated)
                    .chain(&r.torn)
                    .take(3)
                    .collect();
                self.failures.push(format!("{what}: {first:?}"));
            }
            Outcome::Panic(log) => {
                self.panics += 1;
                self.failures.push(format!("{what}: panic: {log}"));
            }
            Outcome::Unclear(log) => {
                self.unclear += 1;
                self.failures
                    .push(format!("{what}: stopped without a message: {log}"));
            }
            Outcome::ReadError(e) => {
                self.read_errors += 1;
                self.failures.push(format!("{what}: read error: {e}"));
            }
        }
    }

    pub fn summary(&self, engine: &str, mode: &str) -> String {
        let refused: usize = self.refused.values().sum();
        let mut s = format!(
            "powercut {engine} {mode}: {} images, {} served and correct, {refused} refused, \
             {} lost, {} fabricated, {} torn, {} panics, {} stopped without a message, {} read \
             errors; {} acknowledged requests checked present in all ({} acks, {} commit-log \
             syncs recorded)",
            self.images,
            self.passed,
            self.lost,
            self.fabricated,
            self.torn,
            self.panics,
            self.unclear,
            self.read_errors,
            self.required,
            self.acks,
            self.syncs
        );
        for (msg, n) in &self.refused {
            s.push_str(&format!("\n  refused {n}x: {msg}"));
        }
        for f in &self.failures {
            s.push_str(&format!("\n  FAILED {f}"));
        }
        s
    }
}

/// Picks a cut: anywhere after the load began, at the end of a commit-log sync (just before
/// or after it completes), or just after an acknowledgement.
pub fn pick_cut(t: &Timeline, rng: &mut Rng) -> usize {
    let recs = t.recs();
    let first = recs
        .iter()
        .position(|r| matches!(r, Rec::Sent(_)))
        .unwrap_or(0);
    match rng.range(0, 3) {
        0 => rng.range(first, recs.len() + 1),
        1 => {
            let ends: Vec<usize> = t
                .syncs
                .iter()
                .filter(|s| s.commit_log && s.real())
                .filter_map(|s| s.end)
                .collect();
            if ends.is_empty() {
                return recs.len();
            }
            ends[rng.range(0, ends.len())] + rng.range(0, 2)
        }
        _ => {
            let acks: Vec<usize> = (first..recs.len())
                .filter(|&i| matches!(recs[i], Rec::Ack(_)))
                .collect();
            acks.get(rng.range(0, acks.len()))
                .map_or(recs.len(), |&a| a + 1)
        }
    }
}

/// Builds the image for `cut` and `choice` into a fresh directory under `work`, serves it
/// and judges it.
pub fn check_image(
    rec: &Recording,
    cut: usize,
    choice: &Choice,
    rng: &mut Rng,
    work: &Path,
) -> Outcome {
    let root = work.join("image");
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(root.join("data")).unwrap();
    rec.conf.write(&root);
    let image = rec.timeline.build(cut, choice, rng);
    image.write_to(&root.join("data")).unwrap();
    let outcome = match serve_and_read(&root) {
        Err(outcome) => outcome,
        Ok((observed, strays)) => {
            let before = required_before(&rec.timeline, cut, &rec.mode);
            let report = judge(
                &rec.load,
                rec.timeline.recs(),
                cut,
                before,
                &observed,
                &strays,
            );
            if report.clean() {
                Outcome::Passed {
                    required: report.required,
                }
            } else {
                Outcome::Failed(report)
            }
        }
    };
    let bad = !matches!(outcome, Outcome::Passed { .. } | Outcome::Refused(_));
    match std::env::var_os("POWERCUT_KEEP") {
        // Keep a failing image as a reproducer: `ilion serve --config storage-conf.xml` in it.
        Some(keep) if bad => {
            let n = std::fs::read_dir(&keep).map_or(0, |d| d.count());
            let target = Path::new(&keep).join(format!("image-{n}"));
            std::fs::create_dir_all(&keep).unwrap();
            std::fs::rename(&root, &target).unwrap();
            std::fs::write(target.join("outcome.txt"), format!("{outcome:?}\n")).unwrap();
        }
        _ => {
            let _ = std::fs::remove_dir_all(&root);
        }
    }
    outcome
}

/// What a campaign runs.
pub struct Plan<'a> {
    pub engine: &'a str,
    pub mode: &'a str,
    pub images: usize,
    /// Images built from one recording.
    pub per: usize,
    /// How long each recording's load runs.
    pub run_for: Duration,
    pub seed: u64,
    /// Values large enough for sled's blob files, one request in 25.
    pub long_values: bool,
    /// Half the images in `Mode::Sectors` (sectors reach the disk in any order); without it
    /// every image is `Mode::Prefix` (writes reach the disk in order, the last one torn).
    pub reorder: bool,
}

/// Records and checks `plan.images` images.
pub fn campaign(plan: &Plan) -> Tally {
    let Plan {
        engine,
        mode,
        images,
        per,
        run_for,
        seed,
        long_values,
        reorder,
    } = *plan;
    let mut tally = Tally::default();
    let mut rng = Rng::new(seed);
    let mut done = 0;
    let mut n = 0;
    while done < images {
        let work = tempfile::tempdir().unwrap();
        let rec = record(engine, mode, run_for, seed + n, long_values, work.path());
        tally.acks += rec
            .timeline
            .recs()
            .iter()
            .filter(|r| matches!(r, Rec::Ack(_)))
            .count();
        tally.syncs += rec
            .timeline
            .syncs
            .iter()
            .filter(|s| s.commit_log && s.real())
            .count();
        for _ in 0..per.min(images - done) {
            let cut = pick_cut(&rec.timeline, &mut rng);
            let mode_choice = if !reorder || rng.range(0, 2) == 0 {
                let lo = cut.saturating_sub(rng.range(0, 400));
                Mode::Prefix(rng.range(lo, cut + 1))
            } else {
                Mode::Sectors
            };
            let choice = Choice {
                mode: mode_choice,
                plant_rollback: None,
            };
            let what = format!(
                "recording {n} (seed {}), cut {cut}, {mode_choice:?}",
                seed + n
            );
            let outcome = check_image(&rec, cut, &choice, &mut rng, work.path());
            tally.add(outcome, &what);
            done += 1;
        }
        n += 1;
    }
    tally
}
