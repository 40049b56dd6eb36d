//! Counters as reads return them (`docs/api-later.md#counters`): a counter and a super
//! column of counters, and the conversions between a counter and its plain-column form — the
//! form `cf` collects counters in (so slicing, paging and counting work alike for both
//! kinds of column family) and the one the 0.6 views (the 0.6 API, the export) show.

use super::{Column, ColumnOrSuper, COUNTER_TIMESTAMP};
use crate::error::{Error, Result};

/// A counter as clients see it (`docs/api-later.md#counters`): a name and its total; a
/// counter has no timestamp and no TTL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CounterColumn {
    /// The counter's name.
    pub name: Vec<u8>,
    /// Its current total.
    pub value: i64,
}

impl CounterColumn {
    /// The counter as a plain column, for a view that has no counters (the 0.6 API, the
    /// 0.6 export): its total as 8 big-endian bytes at [`COUNTER_TIMESTAMP`].
    pub fn into_column(self) -> Column {
        Column {
            name: self.name,
            value: self.value.to_be_bytes().to_vec(),
            timestamp: COUNTER_TIMESTAMP,
            ttl: None,
        }
    }
}

/// A super column of a counter CF with its live subcounters, ascending by the subcolumn
/// comparator.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CounterSuperColumn {
    /// The super column's name.
    pub name: Vec<u8>,
    /// Its live counters.
    pub columns: Vec<CounterColumn>,
}

impl ColumnOrSuper {
    /// The counter form of a result read from a counter CF: a column whose value is a
    /// counter's column form (see [`super::Cell::into_column`]) becomes [`ColumnOrSuper::Counter`],
    /// a super column [`ColumnOrSuper::CounterSuper`]. A value that is not 8 bytes (which
    /// no counter write stores) is corruption.
    pub fn into_counters(self) -> Result<ColumnOrSuper> {
        fn counter(c: Column) -> Result<CounterColumn> {
            let bytes: [u8; 8] =
                c.value.as_slice().try_into().map_err(|_| {
                    Error::Corrupt(format!("counter value of {} bytes", c.value.len()))
                })?;
            Ok(CounterColumn {
                name: c.name,
                value: i64::from_be_bytes(bytes),
            })
        }
        Ok(match self {
            ColumnOrSuper::Column(c) => ColumnOrSuper::Counter(counter(c)?),
            ColumnOrSuper::Super(sc) => ColumnOrSuper::CounterSuper(CounterSuperColumn {
                name: sc.name,
                columns: sc.columns.into_iter().map(counter).collect::<Result<_>>()?,
            }),
            done => done,
        })
    }
}
