//! The reconcile table of `docs/api.md#reconcile` and `docs/api-later.md#ttl`, with a
//! property test that the winner never depends on arrival order, 0.6's key and name rules,
//! and counters (sums, tombstones, their read forms).

use super::*;

fn live(v: &[u8], ts: i64) -> Cell {
    Cell::Live {
        value: v.to_vec(),
        timestamp: ts,
    }
}
fn dead(ts: i64) -> Cell {
    Cell::Tombstone {
        timestamp: ts,
        local_deletion_time: 0,
    }
}
fn expiring(v: &[u8], ts: i64, ttl: i32, expires_at: i64) -> Cell {
    Cell::Expiring {
        value: v.to_vec(),
        timestamp: ts,
        ttl,
        expires_at,
    }
}
/// Reconciles at server time NOW.
const NOW: i64 = 1_000;
fn wins(new: &Cell, old: &Cell) -> bool {
    Cell::supersedes(new, old, NOW)
}

#[test]
fn name_and_key_rules_say_what_0_6_says() {
    let message = |r: Result<()>| match r {
        Err(Error::InvalidRequest(m)) => m,
        other => panic!("{other:?}"),
    };
    assert_eq!(
        message(check_name_length(NameLevel::Column, b"")),
        "column name must not be empty"
    );
    assert_eq!(
        message(check_name_length(NameLevel::SuperColumn, &[b'a'; 65536])),
        "supercolumn name length must not be greater than 65535"
    );
    assert!(check_name_length(NameLevel::Column, &[b'a'; 65535]).is_ok());
    assert_eq!(message(check_key_present(b"")), "Key may not be empty");
    assert!(check_key_present(b"k").is_ok());
    assert!(check_key_present(&[0xFF]).is_ok());
}

#[test]
fn mutations_group_changes_by_column_family_in_order() {
    let delete = |timestamp| Change::DeleteRow { timestamp };
    let mut m = RowMutation::new("ks", "k");
    assert!(m.is_empty());
    m.push("B", delete(1));
    m.push("A", delete(2));
    m.push("B", delete(3));
    assert_eq!(
        m.changes,
        vec![
            ("B".to_string(), vec![delete(1), delete(3)]),
            ("A".to_string(), vec![delete(2)]),
        ]
    );
    assert!(!m.is_empty());
}

#[test]
fn reconcile_table() {
    assert!(wins(&live(b"a", 2), &live(b"z", 1)));
    assert!(!wins(&live(b"z", 1), &live(b"a", 2)));
    assert!(wins(&dead(5), &live(b"a", 5)));
    assert!(!wins(&live(b"a", 5), &dead(5)));
    assert!(!wins(&dead(5), &dead(5)));
    assert!(wins(&live(b"b", 5), &live(b"a", 5)));
    assert!(!wins(&live(b"a", 5), &live(b"b", 5)));
    assert!(wins(&live(b"ab", 5), &live(b"a", 5)));
    assert!(wins(&live(b"a", 6), &dead(5)));
}

#[test]
fn reconcile_table_with_expiring_versions() {
    let (live_exp, gone) = (expiring(b"a", 5, 10, NOW + 1), expiring(b"a", 5, 10, NOW));
    // Timestamps still come first, expired or not.
    assert!(wins(&live(b"a", 6), &expiring(b"z", 5, 10, NOW)));
    assert!(!wins(&live(b"z", 4), &gone));
    assert!(wins(&expiring(b"a", 6, 1, NOW + 1), &dead(5)));
    // Equal timestamps: a version expired at the time of the write wins like a tombstone.
    assert!(wins(&gone, &live(b"z", 5)));
    assert!(!wins(&live(b"z", 5), &gone));
    assert!(wins(&gone, &expiring(b"z", 5, 10, NOW + 1)));
    // Both live, or both dead: the greater value.
    assert!(wins(&expiring(b"b", 5, 1, NOW + 1), &live(b"a", 5)));
    assert!(!wins(&live(b"a", 5), &expiring(b"b", 5, 1, NOW + 1)));
    assert!(wins(&expiring(b"b", 5, 1, NOW), &gone));
    assert!(
        wins(&expiring(b"b", 5, 1, NOW), &dead(5)),
        "tombstone value is empty"
    );
    // Equal values: the later expiry, none counting as latest.
    assert!(wins(&live(b"a", 5), &live_exp));
    assert!(!wins(&live_exp, &live(b"a", 5)));
    assert!(wins(&expiring(b"a", 5, 10, NOW + 2), &live_exp));
    assert!(!wins(&live_exp, &expiring(b"a", 5, 10, NOW + 2)));
    assert!(wins(&dead(5), &expiring(b"", 5, 1, NOW)));
    assert!(!wins(&expiring(b"", 5, 1, NOW), &dead(5)));
    // Same expiry from different write times: the greater TTL, so order cannot matter.
    assert!(wins(&expiring(b"a", 5, 20, NOW + 1), &live_exp));
    assert!(!wins(&live_exp, &expiring(b"a", 5, 20, NOW + 1)));
    // Identical versions: the existing one stays.
    assert!(!wins(&live_exp, &live_exp.clone()));
    assert!(!wins(&gone, &gone.clone()));
}

#[test]
fn expiring_columns_read_with_their_original_ttl_until_they_expire() {
    let cell = Cell::written(b"v".to_vec(), 3, Some(10), NOW);
    assert_eq!(cell, expiring(b"v", 3, 10, NOW + 10));
    let column = |ttl| Column {
        name: b"c".to_vec(),
        value: b"v".to_vec(),
        timestamp: 3,
        ttl,
    };
    assert!(cell.is_live(NOW + 9));
    assert_eq!(
        cell.clone().into_column(b"c".to_vec(), NOW + 9),
        Some(column(Some(10)))
    );
    assert!(!cell.is_live(NOW + 10));
    assert!(!cell.is_tombstone());
    assert_eq!(cell.into_column(b"c".to_vec(), NOW + 10), None);
    let plain = Cell::written(b"v".to_vec(), 3, None, NOW);
    assert_eq!(
        plain.into_column(b"c".to_vec(), i64::MAX),
        Some(column(None))
    );
    assert_eq!(dead(3).into_column(b"c".to_vec(), 0), None);
    // No 2038 cap: a 20-year TTL written in 2030 expires in 2050, past i32 seconds.
    let late = Cell::written(Vec::new(), 0, Some(630_720_000), 1_900_000_000);
    assert!(late.is_live(i64::from(i32::MAX) + 1));
    assert!(!late.is_live(2_530_720_000));
}

mod order {
    use super::*;
    use proptest::prelude::*;

    fn cell() -> impl Strategy<Value = Cell> {
        // Few distinct timestamps, values and expiries, so ties are common.
        let value = prop::collection::vec(0u8..3, 0..2);
        prop_oneof![
            (value.clone(), 0i64..3).prop_map(|(v, ts)| live(&v, ts)),
            (value, 0i64..3, 1i32..4, NOW - 2..NOW + 3)
                .prop_map(|(v, ts, ttl, at)| expiring(&v, ts, ttl, at)),
            (0i64..3, 0u32..2).prop_map(|(ts, ldt)| Cell::Tombstone {
                timestamp: ts,
                local_deletion_time: ldt,
            }),
        ]
    }

    /// What reads and later reconciles can observe of a version (a tombstone's local
    /// deletion time only affects when it is purged).
    fn observable(c: &Cell) -> Cell {
        match c {
            Cell::Tombstone { timestamp, .. } => dead(*timestamp),
            other => other.clone(),
        }
    }

    proptest! {
        #[test]
        fn reconcile_does_not_depend_on_arrival_order(a in cell(), b in cell(), c in cell()) {
            let merge = |old: &Cell, new: &Cell| {
                if Cell::supersedes(new, old, NOW) { new.clone() } else { old.clone() }
            };
            // Exactly one side wins unless the two are observably identical.
            let (ab, ba) = (wins(&a, &b), wins(&b, &a));
            prop_assert!(!(ab && ba));
            if !ab && !ba {
                prop_assert_eq!(observable(&a), observable(&b));
            }
            let orders = [
                merge(&merge(&a, &b), &c),
                merge(&merge(&a, &c), &b),
                merge(&merge(&b, &a), &c),
                merge(&merge(&b, &c), &a),
                merge(&merge(&c, &a), &b),
                merge(&merge(&c, &b), &a),
            ];
            for winner in &orders {
                prop_assert_eq!(observable(winner), observable(&orders[0]));
            }
        }
    }
}

#[test]
fn counters_sum_wrap_and_lose_to_every_tombstone() {
    let counter = |total| Cell::Counter { total };
    assert_eq!(
        counter(i64::MAX).add_counter(&counter(1)),
        Some(counter(i64::MIN))
    );
    assert_eq!(counter(5).add_counter(&counter(-12)), Some(counter(-7)));
    let lowest = Cell::Tombstone {
        timestamp: i64::MIN,
        local_deletion_time: 0,
    };
    assert_eq!(counter(1).add_counter(&lowest), None);
    assert!(
        !Cell::supersedes(&counter(1), &lowest, 0),
        "deletion is final"
    );
    assert!(Cell::supersedes(&lowest, &counter(1), 0));
    assert!(counter(0).is_live(i64::MAX), "counters never expire");
}

#[test]
fn counter_results_convert_and_damage_is_corruption() {
    let column = |value: Vec<u8>| Column {
        name: b"c".to_vec(),
        value,
        timestamp: COUNTER_TIMESTAMP,
        ttl: None,
    };
    let read = Cell::Counter { total: -9 }
        .into_column(b"c".to_vec(), 0)
        .unwrap();
    assert_eq!(read, column((-9i64).to_be_bytes().to_vec()));
    let counter = CounterColumn {
        name: b"c".to_vec(),
        value: -9,
    };
    assert_eq!(
        ColumnOrSuper::Column(read.clone()).into_counters().unwrap(),
        ColumnOrSuper::Counter(counter.clone())
    );
    assert_eq!(counter.into_column(), read);
    let sc = ColumnOrSuper::Super(SuperColumn {
        name: b"s".to_vec(),
        columns: vec![read],
    });
    assert!(matches!(
        sc.into_counters().unwrap(),
        ColumnOrSuper::CounterSuper(s) if s.columns.len() == 1
    ));
    let bad = ColumnOrSuper::Column(column(vec![1, 2, 3])).into_counters();
    assert!(matches!(bad, Err(Error::Corrupt(_))));
}
