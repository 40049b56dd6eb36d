//! Parser tables: each statement form, each literal form, and the errors users meet.

use super::*;

fn one(line: &str) -> Statement {
    let mut v = parse_line(line).unwrap_or_else(|e| panic!("{line}: {e}"));
    assert_eq!(v.len(), 1, "{line}");
    v.remove(0)
}

fn text(s: &str) -> Literal {
    Literal::Text(s.to_string())
}

fn path(ks: Option<&str>, cf: &str, key: &str, names: Vec<Literal>) -> Path {
    Path {
        keyspace: ks.map(str::to_string),
        column_family: cf.to_string(),
        key: key.to_string(),
        names,
    }
}

#[test]
fn the_0_6_statements() {
    let table: Vec<(&str, Statement)> = vec![
        ("help", Statement::Help),
        ("?", Statement::Help),
        ("HELP set", Statement::Help),
        ("quit", Statement::Quit),
        ("exit;", Statement::Quit),
        (
            "connect localhost/9160",
            Statement::Connect {
                host: "localhost".into(),
                port: 9160,
            },
        ),
        (
            "connect 127.0.0.1/9170",
            Statement::Connect {
                host: "127.0.0.1".into(),
                port: 9170,
            },
        ),
        (
            "connect db-1.example.org/1",
            Statement::Connect {
                host: "db-1.example.org".into(),
                port: 1,
            },
        ),
        ("show cluster name", Statement::Show(Show::ClusterName)),
        ("Show Config File", Statement::Show(Show::ConfigFile)),
        ("show api version", Statement::Show(Show::ApiVersion)),
        ("show keyspaces", Statement::Show(Show::Keyspaces)),
        (
            "describe keyspace Keyspace1",
            Statement::Describe {
                keyspace: Some("Keyspace1".into()),
            },
        ),
        ("describe keyspace", Statement::Describe { keyspace: None }),
        (
            "get Keyspace1.Standard1['jsmith']",
            Statement::Get {
                path: path(Some("Keyspace1"), "Standard1", "jsmith", vec![]),
            },
        ),
        (
            "get Keyspace1.Super1['k']['sc']['c']",
            Statement::Get {
                path: path(
                    Some("Keyspace1"),
                    "Super1",
                    "k",
                    vec![text("sc"), text("c")],
                ),
            },
        ),
        (
            "set Keyspace1.Standard1['jsmith']['first'] = 'John'",
            Statement::Set {
                path: path(
                    Some("Keyspace1"),
                    "Standard1",
                    "jsmith",
                    vec![text("first")],
                ),
                value: text("John"),
                timestamp: None,
            },
        ),
        (
            "count Keyspace1.Super1['k']['sc']",
            Statement::Count {
                path: path(Some("Keyspace1"), "Super1", "k", vec![text("sc")]),
            },
        ),
        (
            "del Keyspace1.Standard1['k']",
            Statement::Del {
                path: path(Some("Keyspace1"), "Standard1", "k", vec![]),
                timestamp: None,
            },
        ),
    ];
    for (line, want) in table {
        assert_eq!(one(line), want, "{line}");
    }
}

#[test]
fn ilion_additions() {
    assert_eq!(
        one("use Keyspace1"),
        Statement::Use {
            keyspace: "Keyspace1".into(),
            login: None
        }
    );
    assert_eq!(
        one("use Keyspace1 jsmith 'havebadpass'"),
        Statement::Use {
            keyspace: "Keyspace1".into(),
            login: Some(("jsmith".into(), "havebadpass".into()))
        }
    );
    assert_eq!(
        one("list Standard1"),
        Statement::List {
            keyspace: None,
            column_family: "Standard1".into(),
            limit: None
        }
    );
    assert_eq!(
        one("LIST Keyspace1.Standard1 LIMIT 3;"),
        Statement::List {
            keyspace: Some("Keyspace1".into()),
            column_family: "Standard1".into(),
            limit: Some(3)
        }
    );
    assert_eq!(
        one("set StdLong['k'][42] = long(-7) timestamp 5"),
        Statement::Set {
            path: path(None, "StdLong", "k", vec![text("42")]),
            value: Literal::Long(-7),
            timestamp: Some(5),
        }
    );
    assert_eq!(
        one("del Standard1['k'][0x00ff] timestamp 9"),
        Statement::Del {
            path: path(None, "Standard1", "k", vec![Literal::Hex(vec![0, 255])]),
            timestamp: Some(9),
        }
    );
    assert_eq!(
        one("set StdTime[k][timeuuid()] = 'v'"),
        Statement::Set {
            path: path(None, "StdTime", "k", vec![Literal::TimeUuid]),
            value: text("v"),
            timestamp: None,
        }
    );
    assert_eq!(
        one("get StdLexical['k'][1b4e28ba-2fa1-11d2-883f-0016d3cca427]"),
        Statement::Get {
            path: path(
                None,
                "StdLexical",
                "k",
                vec![text("1b4e28ba-2fa1-11d2-883f-0016d3cca427")]
            ),
        }
    );
}

#[test]
fn several_statements_on_a_line_and_blank_lines() {
    assert_eq!(
        parse_line("show api version; show keyspaces;").unwrap(),
        vec![
            Statement::Show(Show::ApiVersion),
            Statement::Show(Show::Keyspaces)
        ]
    );
    assert_eq!(parse_line("   ").unwrap(), vec![]);
    assert_eq!(parse_line("-- a comment").unwrap(), vec![]);
    assert_eq!(parse_line(";;").unwrap(), vec![]);
}

#[test]
fn errors_name_what_was_expected() {
    let table = [
        (
            "frobnicate",
            "expected a statement (type 'help' or '?' for the list) at position 1, found 'frobnicate'",
        ),
        ("get Keyspace1.Standard1", "expected '[' at the end of the statement"),
        (
            "set KS.CF['k']['c'] 'v'",
            "expected '=' at position 21, found the string 'v'",
        ),
        (
            "get KS.CF['k']['a']['b']['c']",
            "at most a super column and a column may follow the row key",
        ),
        ("show tables", "expected 'cluster name', 'config file', 'api version' or 'keyspaces' at position 6, found 'tables'"),
        ("connect localhost", "expected '/' at the end of the statement"),
        ("connect h/port", "expected a port number at position 11, found 'port'"),
        ("connect h/70000", "expected a port number at position 11, found '70000'"),
        ("list CF limit 0", "expected a positive row count at position 15, found '0'"),
        ("get KS.CF[0x01]", "a row key is text: write it in quotes"),
        ("set KS.CF['k'][0x123] = 'v'", "'0x123' is not hex: it needs an even number of hex digits"),
        ("set KS.CF['k']['c'] = uuid()", "unknown function 'uuid()': timeuuid() and long(N) are known"),
        ("set KS.CF['k']['c'] = 'v' timestamp soon", "expected a timestamp (a 64-bit integer) at position 37, found 'soon'"),
        ("quit now", "expected the end of the statement at position 6, found 'now'"),
        ("use", "expected a keyspace name at the end of the statement"),
        ("use KS jsmith pass", "expected a quoted password at position 15, found 'pass'"),
    ];
    for (line, want) in table {
        let got = parse_line(line).expect_err(line);
        assert!(got.starts_with(want), "{line}: got {got:?}, want {want:?}");
    }
}
