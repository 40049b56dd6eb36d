//! `docs/api.md#key-range-checks` over real sockets: the KeyRange checks under each of the
//! three partitioners — which pair is set, key order in each partitioner (MD5 order, byte
//! order, collation), positive counts, and the D4 texts (`docs/compatibility.md#d4`) for token
//! strings a partitioner cannot parse — for get_range_slice and get_range_slices in all four
//! wire styles.

use crate::cases::*;
use crate::harness::{Options, Server, KS};
use crate::values::*;
use ilion::client::TCassandraSyncClient;
use ilion::partitioner::Partitioner;
use ilion::protocol::KeyRange;

#[test]
fn key_ranges_under_random_partitioner() {
    let server = Server::start(Options::default());
    let go =
        |cl: &mut _, r: KeyRange| range_slices(cl, KS, parent("Standard1", None), all(), r, ONE);
    let mut start_key_only = keys("a", "", 10);
    start_key_only.end_key = None;
    let mut start_token_only = tokens("1", "", 10);
    start_token_only.end_token = None;
    let mut end_token_only = tokens("", "1", 10);
    end_token_only.start_token = None;
    let mut both = keys("a", "b", 10);
    both.start_token = Some("1".into());
    both.end_token = Some("2".into());
    let exactly =
        || ire("exactly one of {start key, end key} or {start token, end token} must be specified");
    let md5 = "start key's md5 sorts after end key's md5.  this is not allowed; you probably should not specify end key at all, under RandomPartitioner";
    let d4 = |t: &str| {
        ire(&format!(
            "Invalid token '{t}': RandomPartitioner tokens are decimal integers"
        ))
    };
    run(
        &server,
        &[
            case(
                "start key only",
                ire("start key and end key must either both be non-null, or both be null"),
                move |cl| go(cl, start_key_only.clone()),
            ),
            case(
                "start token only",
                ire("start token and end token must either both be non-null, or both be null"),
                move |cl| go(cl, start_token_only.clone()),
            ),
            case(
                "end token only",
                ire("start token and end token must either both be non-null, or both be null"),
                move |cl| go(cl, end_token_only.clone()),
            ),
            case("both pairs", exactly(), move |cl| go(cl, both.clone())),
            case("neither pair", exactly(), move |cl| {
                go(cl, KeyRange::new(None, None, None, None, 10))
            }),
            case("keys out of md5 order", ire(md5), move |cl| {
                go(cl, keys("key2", "b", 10))
            }),
            case("get_range_slice keys out of md5 order", ire(md5), |cl| {
                outcome(cl.get_range_slice(
                    KS.into(),
                    parent("Standard1", None),
                    all(),
                    "key2".into(),
                    "b".into(),
                    10,
                    ONE,
                ))
            }),
            case("keys in md5 order", Outcome::Ok, move |cl| {
                go(cl, keys("b", "key2", 10))
            }),
            case(
                "an empty end key is the end of the ring",
                Outcome::Ok,
                move |cl| go(cl, keys("key2", "", 10)),
            ),
            case("zero rows", ire("maxRows must be positive"), move |cl| {
                go(cl, keys("a", "a", 0))
            }),
            case(
                "negative rows",
                ire("maxRows must be positive"),
                move |cl| go(cl, tokens("1", "2", -1)),
            ),
            case(
                "get_range_slice zero rows",
                ire("maxRows must be positive"),
                |cl| {
                    outcome(cl.get_range_slice(
                        KS.into(),
                        parent("Standard1", None),
                        all(),
                        "".into(),
                        "".into(),
                        0,
                        ONE,
                    ))
                },
            ),
            case("D4 start token", d4("12a"), move |cl| {
                go(cl, tokens("12a", "0", 10))
            }),
            case("D4 end token", d4("1.5"), move |cl| {
                go(cl, tokens("0", "1.5", 10))
            }),
            case(
                "D4 after the row count check",
                ire("maxRows must be positive"),
                move |cl| go(cl, tokens("12a", "0", 0)),
            ),
            case("decimal tokens", Outcome::Ok, move |cl| {
                go(cl, tokens("0", "0", 10))
            }),
        ],
    );
}

#[test]
fn key_ranges_under_order_preserving_partitioners() {
    for p in [
        Partitioner::OrderPreserving,
        Partitioner::CollatingOrderPreserving,
    ] {
        let server = Server::start(Options::partitioner(p));
        let go = |cl: &mut _, r: KeyRange| {
            range_slices(cl, KS, parent("Standard1", None), all(), r, ONE)
        };
        let order =
            || ire("start key must sort before (or equal to) finish key in your partitioner!");
        let mut cases = vec![
            case("keys out of order", order(), move |cl| {
                go(cl, keys("b", "a", 10))
            }),
            case("keys in order", Outcome::Ok, move |cl| {
                go(cl, keys("a", "b", 10))
            }),
            case("equal keys", Outcome::Ok, move |cl| {
                go(cl, keys("b", "b", 10))
            }),
            case("empty end key", Outcome::Ok, move |cl| {
                go(cl, keys("b", "", 10))
            }),
            case("zero rows", ire("maxRows must be positive"), move |cl| {
                go(cl, keys("a", "b", 0))
            }),
        ];
        if p == Partitioner::CollatingOrderPreserving {
            let d4 = |t: &str| {
                ire(&format!("Invalid token '{t}': CollatingOrderPreservingPartitioner tokens are hex strings of even length"))
            };
            cases.extend([
                // Collation puts "-a" right after "a", and "10" before "2".
                case("collated: -a after a", order(), move |cl| {
                    go(cl, keys("-a", "a", 10))
                }),
                case("collated: 10 before 2", Outcome::Ok, move |cl| {
                    go(cl, keys("10", "2", 10))
                }),
                case("D4 odd length", d4("abc"), move |cl| {
                    go(cl, tokens("abc", "", 10))
                }),
                case("D4 not hex", d4("zz"), move |cl| {
                    go(cl, tokens("", "zz", 10))
                }),
                case("hex tokens", Outcome::Ok, move |cl| {
                    go(cl, tokens("55", "55", 10))
                }),
                case("upper-case hex tokens", Outcome::Ok, move |cl| {
                    go(cl, tokens("00AB", "", 10))
                }),
            ]);
        } else {
            cases.extend([
                case("byte order: 10 after 1", order(), move |cl| {
                    go(cl, keys("10", "1", 10))
                }),
                case("any string is a token", Outcome::Ok, move |cl| {
                    go(cl, tokens("zz", "12a", 10))
                }),
            ]);
        }
        run(&server, &cases);
    }
}

/// 0.6 parsed RandomPartitioner tokens with `new BigInteger(s)`: any decimal integer is a
/// token, those above the ring's 2^127 simply sort after every key's token.
#[test]
fn random_tokens_beyond_u128_are_still_decimal_integers() {
    let server = Server::start(Options::default());
    let huge = "9".repeat(45);
    let mut c = server.client(ilion::client::WireStyle::ALL[0]);
    assert_eq!(
        insert(&mut c, KS, "a", cpath("Standard1", b"c")),
        Outcome::Ok
    );
    let std = || parent("Standard1", None);
    let all_rows = c.get_range_slices(KS.into(), std(), all(), tokens("0", &huge, 10), ONE);
    assert_eq!(all_rows.map(|rows| rows.len()).ok(), Some(1));
    let none = c.get_range_slices(KS.into(), std(), all(), tokens(&huge, "0", 10), ONE);
    assert_eq!(none.map(|rows| rows.len()).ok(), Some(0));
    let splits = c.describe_splits("0".into(), huge.clone(), 10);
    assert_eq!(splits.ok(), Some(vec!["0".to_string(), huge]));
}
