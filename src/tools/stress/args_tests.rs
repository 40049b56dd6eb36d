//! stress.py's flags as `ilion stress` parses them, inside a binary-like command.

use super::*;
use clap::{Parser, Subcommand};

#[derive(Parser)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    Stress(StressArgs),
}

fn parse(args: &[&str]) -> Result<StressArgs, clap::Error> {
    let argv = ["ilion", "stress"].iter().chain(args).copied();
    Cli::try_parse_from(argv).map(|cli| match cli.command {
        Command::Stress(a) => a,
    })
}

#[test]
fn defaults_are_stress_py_s() {
    let a = parse(&[]).unwrap();
    assert_eq!(a.num_keys, 1_000_000);
    assert_eq!(a.threads, 50);
    assert_eq!(a.columns, 5);
    assert_eq!(a.column_size, 34);
    assert_eq!(a.operation, Operation::Insert);
    assert!(!a.random && !a.framed && !a.serve_noop);
    assert_eq!(a.host, "localhost");
    assert_eq!(a.port, 9160);
    assert_eq!(a.keyspace, "Keyspace1");
    assert_eq!(a.column_family(), "Standard1");
    assert_eq!(a.consistency, ConsistencyLevel(1));
    assert_eq!(a.interval, 10);
    assert_eq!(a.range_count, 1000);
    assert_eq!(a.duration, None);
    assert_eq!(a.rate, None);
    assert_eq!(a.key_dist(), KeyDist::gaussian(1_000_000, 0.1));
    a.validate().unwrap();
}

#[test]
fn short_flags_as_stress_py_spells_them() {
    let a = parse(&[
        "-n",
        "2000",
        "-t",
        "4",
        "-c",
        "3",
        "-S",
        "10",
        "-o",
        "rangeslice",
        "-r",
        "-h",
        "db1,db2",
        "-p",
        "9999",
        "-k",
        "Ks",
        "-e",
        "QUORUM",
        "-i",
        "2",
        "-g",
        "50",
    ])
    .unwrap();
    assert_eq!(
        (a.num_keys, a.threads, a.columns, a.column_size),
        (2000, 4, 3, 10)
    );
    assert_eq!(a.operation, Operation::Rangeslice);
    assert_eq!(a.key_dist(), KeyDist::Uniform { n: 2000 });
    assert_eq!((a.host.as_str(), a.port), ("db1,db2", 9999));
    assert_eq!(a.keyspace, "Ks");
    assert_eq!(a.consistency, ConsistencyLevel(2));
    assert_eq!((a.interval, a.range_count), (2, 50));
}

#[test]
fn dash_h_is_the_host_and_long_help_still_helps() {
    assert_eq!(parse(&["-h", "10.0.0.7"]).unwrap().host, "10.0.0.7");
    let e = parse(&["--help"]).expect_err("--help stops parsing");
    assert_eq!(e.kind(), clap::error::ErrorKind::DisplayHelp);
    assert!(e.to_string().contains("--serve-noop"));
}

#[test]
fn long_options() {
    let a = parse(&[
        "-o",
        "insert-super",
        "--framed",
        "--duration",
        "2.5s",
        "--rate",
        "1000",
        "--json",
        "/tmp/x.json",
        "--seed",
        "9",
        "-u",
        "3",
    ])
    .unwrap();
    assert_eq!(a.operation, Operation::InsertSuper);
    assert_eq!(a.column_family(), "Super1");
    assert!(a.framed);
    assert_eq!(a.duration, Some(Duration::from_millis(2500)));
    assert_eq!(a.rate, Some(1000.0));
    assert_eq!(a.json.as_deref(), Some(std::path::Path::new("/tmp/x.json")));
    assert_eq!((a.seed, a.supercolumns), (Some(9), 3));
    let a = parse(&["-o", "mixed", "--cf", "Standard2", "--read-fraction", "0.9"]).unwrap();
    assert_eq!((a.column_family(), a.read_fraction), ("Standard2", 0.9));
    assert!(parse(&["--serve-noop"]).unwrap().serve_noop);
}

#[test]
fn bad_values_are_refused_naming_the_flag() {
    assert!(parse(&["-o", "scan"]).is_err());
    assert!(parse(&["-e", "SOME"]).is_err());
    assert!(parse(&["--duration", "soon"]).is_err());
    assert_eq!(
        parse(&["-e", "7"]).unwrap().consistency,
        ConsistencyLevel(7)
    );
    for (flags, flag) in [
        (&["-n", "0"][..], "-n"),
        (&["-t", "0"], "-t"),
        (&["-c", "0"], "-c"),
        (&["-i", "0"], "-i"),
        (&["-g", "0"], "-g"),
        (&["-s", "0"], "-s"),
        (&["--rate", "0"], "--rate"),
        (&["--read-fraction", "1.5"], "--read-fraction"),
        (&["--duration", "0"], "--duration"),
    ] {
        let why = parse(flags).unwrap().validate().unwrap_err();
        assert!(why.starts_with(flag), "{flags:?}: {why}");
    }
}

#[test]
fn hosts_resolve_with_the_port_or_their_own() {
    let a = parse(&["-h", "127.0.0.1, 127.0.0.2:7000", "-p", "9170"]).unwrap();
    let addrs = a.addresses().unwrap();
    assert_eq!(addrs[0].to_string(), "127.0.0.1:9170");
    assert_eq!(addrs[1].to_string(), "127.0.0.2:7000");
    let a = parse(&["-h", "localhost", "-p", "1"]).unwrap();
    assert_eq!(a.addresses().unwrap()[0].port(), 1);
    assert!(parse(&["-h", ","]).unwrap().addresses().is_err());
}

#[test]
fn a_store_can_be_grown_in_steps_with_keys_spelled_alike() {
    // The second step of a growth run: insert keys 200000..999999, padded as the last step's.
    let a = parse(&["-n", "1000000", "--first-key", "200000", "--key-width", "7"]).unwrap();
    a.validate().unwrap();
    assert_eq!(a.operations(), 800_000);
    let mut key = String::new();
    a.key_format().write(200_000, &mut key);
    assert_eq!(key, "0200000");
    // Reads of the whole store: a fixed number of random keys, not one per key.
    let a = parse(&["-n", "1000000", "-o", "read", "-r", "--ops", "5000"]).unwrap();
    assert_eq!(a.operations(), 5000);
    // Without the flags, inserts write every key once and reads read n keys.
    let a = parse(&["-n", "300", "-o", "read"]).unwrap();
    assert_eq!(a.operations(), 300);
    a.key_format().write(7, &mut key);
    assert_eq!(key, "007");
    // --ops asks for more inserts than keys: the keys are written again.
    let a = parse(&["-n", "10", "--first-key", "4", "--ops", "12"]).unwrap();
    assert_eq!(a.operations(), 12);
}

#[test]
fn growth_flags_out_of_range_are_refused() {
    for (flags, flag) in [
        (&["--ops", "0"][..], "--ops"),
        (&["-n", "10", "--first-key", "10"], "--first-key"),
        (&["-n", "1000", "--key-width", "2"], "--key-width"),
        (&["-n", "1000", "--key-width", "21"], "--key-width"),
    ] {
        let why = parse(flags).unwrap().validate().unwrap_err();
        assert!(why.starts_with(flag), "{flags:?}: {why}");
    }
    // n = 1000 has keys 000..999: three digits are enough.
    parse(&["-n", "1000", "--key-width", "3"])
        .unwrap()
        .validate()
        .unwrap();
}

#[test]
fn read_super_reads_the_super_cf() {
    let a = parse(&["-o", "read-super", "-u", "2"]).unwrap();
    assert_eq!(a.operation, Operation::ReadSuper);
    assert_eq!((a.column_family(), a.supercolumns), ("Super1", 2));
    assert!(!a.inserts());
    assert_eq!(a.operations(), a.num_keys);
    let a = parse(&["-o", "read-super", "--cf", "Super2"]).unwrap();
    assert_eq!(a.column_family(), "Super2");
}
