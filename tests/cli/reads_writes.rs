//! Every statement kind on Standard column families of each comparator, piped to standard
//! input: the exact lines 0.6's cli printed, names in each comparator's notation, and `list`
//! in token order.

use super::run::script;
use super::server::{Server, CLUSTER};
use ilion::partitioner::Partitioner;
use std::time::{SystemTime, UNIX_EPOCH};

#[test]
fn show_statements_and_help() {
    let server = Server::start();
    let out = script(
        &server,
        "show cluster name\nshow api version\nshow keyspaces\n",
    );
    assert_eq!(
        out,
        format!("{CLUSTER}\n2.2.0\nKeyspace1\nReplicated\nsystem\n")
    );
    let config = script(&server, "show config file\n");
    assert_eq!(config, server.config_text());
    let help = script(&server, "help\n?\n");
    let (first, second) = help.split_at(help.len() / 2);
    assert_eq!(first, second, "help and ? print the same");
    assert!(
        first.starts_with("Statements (one per line, or separated by ';'):\n"),
        "{first}"
    );
    for statement in [
        "connect",
        "describe keyspace",
        "show api version",
        "get ",
        "set ",
        "del ",
        "count ",
        "list ",
        "use ",
    ] {
        assert!(
            first.contains(&format!("\n{statement}")),
            "help lacks {statement}:\n{first}"
        );
    }
}

#[test]
fn set_get_count_del_on_bytes_names() {
    let server = Server::start();
    let out = script(
        &server,
        "set Keyspace1.Standard1['jsmith']['first'] = 'John' timestamp 10\n\
         set Keyspace1.Standard1['jsmith']['last'] = 'Smith' timestamp 11\n\
         set Keyspace1.Standard1['jsmith'][0x00ff] = 0xcafe timestamp 12\n\
         get Keyspace1.Standard1['jsmith']\n\
         get Keyspace1.Standard1['jsmith']['first']\n\
         count Keyspace1.Standard1['jsmith']\n\
         del Keyspace1.Standard1['jsmith']['first']\n\
         count Keyspace1.Standard1['jsmith']\n\
         del Keyspace1.Standard1['jsmith']\n\
         get Keyspace1.Standard1['jsmith']\n",
    );
    // BytesType names print as hex; a get of a row lists it in reverse, as 0.6's cli did.
    assert_eq!(
        out,
        "Value inserted.\nValue inserted.\nValue inserted.\n\
         => (column=6c617374, value=Smith, timestamp=11)\n\
         => (column=6669727374, value=John, timestamp=10)\n\
         => (column=00ff, value=0xcafe, timestamp=12)\n\
         Returned 3 results.\n\
         => (column=6669727374, value=John, timestamp=10)\n\
         3 columns\n\
         column removed.\n\
         2 columns\n\
         row removed.\n\
         Returned 0 results.\n"
    );
}

#[test]
fn names_follow_each_comparator() {
    let server = Server::start();
    let uuid_a = "1b4e28ba-2fa1-11d2-883f-0016d3cca427";
    let uuid_b = "e902893a-9d22-3c7e-a7b8-d6e313b71d9f";
    // LexicalUUIDType compares as Java's UUID.compareTo, on signed halves: e902… sorts
    // before 1b4e…, so the reversed slice shows 1b4e… first.
    let out = script(
        &server,
        &format!(
            "use Keyspace1\n\
             set Standard2['k']['naïve'] = 'utf8' timestamp 1\n\
             set StdAscii['k'][plain] = 'ascii' timestamp 2\n\
             set StdLong['k'][2] = 'two' timestamp 3\n\
             set StdLong['k']['-5'] = 'minus five' timestamp 4\n\
             set StdLong['k'][10] = long(10) timestamp 5\n\
             set StdLexical['k']['{uuid_b}'] = 'b' timestamp 6\n\
             set StdLexical['k'][{uuid_a}] = 'a' timestamp 7\n\
             get Standard2['k']['naïve']\n\
             get StdAscii['k']\n\
             get StdLong['k']\n\
             get StdLong['k'][-5]\n\
             get StdLexical['k']\n"
        ),
    );
    assert_eq!(
        out,
        format!(
            "Using keyspace Keyspace1.\n\
             Value inserted.\nValue inserted.\nValue inserted.\nValue inserted.\n\
             Value inserted.\nValue inserted.\nValue inserted.\n\
             => (column=naïve, value=utf8, timestamp=1)\n\
             => (column=plain, value=ascii, timestamp=2)\n\
             Returned 1 results.\n\
             => (column=10, value=0x000000000000000a, timestamp=5)\n\
             => (column=2, value=two, timestamp=3)\n\
             => (column=-5, value=minus five, timestamp=4)\n\
             Returned 3 results.\n\
             => (column=-5, value=minus five, timestamp=4)\n\
             => (column={uuid_a}, value=a, timestamp=7)\n\
             => (column={uuid_b}, value=b, timestamp=6)\n\
             Returned 2 results.\n"
        )
    );
}

#[test]
fn timeuuid_names_and_default_timestamps() {
    let server = Server::start();
    let before = now_micros();
    let out = script(
        &server,
        "set Keyspace1.StdTime['k'][timeuuid()] = 'first'\n\
         set Keyspace1.StdTime['k'][timeuuid()] = 'second'\n\
         get Keyspace1.StdTime['k']\n",
    );
    let after = now_micros();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[..2], ["Value inserted.", "Value inserted."], "{out}");
    assert_eq!(lines[4], "Returned 2 results.", "{out}");
    // Reversed TimeUUID order: the later write first.
    for (line, value) in [(lines[2], "second"), (lines[3], "first")] {
        let rest = line.strip_prefix("=> (column=").expect(line);
        let (uuid, rest) = rest.split_once(", value=").expect(line);
        let parsed = uuid::Uuid::parse_str(uuid).unwrap_or_else(|e| panic!("{uuid}: {e}"));
        assert_eq!(parsed.get_version_num(), 1, "{uuid} is a TimeUUID");
        let (v, ts) = rest.split_once(", timestamp=").expect(line);
        assert_eq!(v, value);
        let ts: i64 = ts.trim_end_matches(')').parse().expect(line);
        assert!(
            (before..=after).contains(&ts),
            "{ts} is now in microseconds"
        );
    }
}

#[test]
fn list_shows_rows_in_token_order() {
    let server = Server::start();
    let keys = ["apple", "banana", "cherry", "date", "elderberry"];
    let mut script_text = String::from("use Keyspace1\n");
    for (i, key) in keys.iter().enumerate() {
        script_text.push_str(&format!(
            "set StdLong['{key}'][{i}] = '{key}' timestamp {i}\n"
        ));
        script_text.push_str(&format!("set StdLong['{key}'][100] = 'x' timestamp 9\n"));
    }
    script_text.push_str("del StdLong['date'] timestamp 20\n");
    script_text
        .push_str("list StdLong\nlist Keyspace1.StdLong limit 2\nlist Replicated.Standard1\n");
    let out = script(&server, &script_text);
    let mut ordered: Vec<(usize, &str)> = keys.iter().copied().enumerate().collect();
    ordered.sort_by_key(|(_, k)| Partitioner::Random.token(k.as_bytes()));
    // MD5 tokens scramble these keys, so key order would not pass for token order.
    let token_keys: Vec<&str> = ordered.iter().map(|(_, k)| *k).collect();
    assert_ne!(token_keys, keys);
    let block = |(i, key): (usize, &str)| {
        if key == "date" {
            // A deleted row still shows as a key with no columns until it is purged.
            "-------------------\nRowKey: date\n".to_string()
        } else {
            format!(
                "-------------------\nRowKey: {key}\n\
                 => (column={i}, value={key}, timestamp={i})\n\
                 => (column=100, value=x, timestamp=9)\n"
            )
        }
    };
    let all: String = ordered.iter().copied().map(block).collect();
    let two: String = ordered[..2].iter().copied().map(block).collect();
    let sets = "Value inserted.\n".repeat(10);
    assert_eq!(
        out,
        format!(
            "Using keyspace Keyspace1.\n{sets}row removed.\n\
             {all}\n5 Rows Returned.\n{two}\n2 Rows Returned.\n\n0 Rows Returned.\n"
        )
    );
}

#[test]
fn describe_keyspace_names_each_comparator() {
    let server = Server::start();
    let out = script(&server, "describe keyspace Keyspace1\n");
    let marshal = "org.apache.cassandra.db.marshal";
    for want in [
        format!("UTF-8 names\nColumn Family Type: Standard\nColumn Sorted By: {marshal}.UTF8Type\n------\n"),
        format!("Column Family Type: Standard\nColumn Sorted By: {marshal}.LongType\n------\n"),
        format!(
            "Column Family Type: Super\nColumn Sorted By: {marshal}.UTF8Type\n\
             Subcolumns Sorted By: {marshal}.LongType\n------\n"
        ),
        format!(
            "Column Family Type: Super\nColumn Sorted By: {marshal}.TimeUUIDType\n\
             Subcolumns Sorted By: {marshal}.LexicalUUIDType\n------\n"
        ),
    ] {
        assert!(out.contains(&want), "lacks {want:?}:\n{out}");
    }
    assert_eq!(
        out.matches("------\n").count(),
        11,
        "one block per CF:\n{out}"
    );
    // `describe keyspace` alone describes the keyspace in use.
    let used = script(&server, "use Keyspace1\ndescribe keyspace\n");
    assert_eq!(used, format!("Using keyspace Keyspace1.\n{out}"));
}

fn now_micros() -> i64 {
    let d = SystemTime::now().duration_since(UNIX_EPOCH).unwrap();
    i64::try_from(d.as_micros()).unwrap()
}
