//! Row keys as 0.6 stores them (`docs/migrate.md#what-is-read`): the partitioner's disk form, and
//! the order rows take in a file. Under RandomPartitioner the disk key is `<token>:<key>` and the
//! stored token is authoritative (it was hashed with the JVM's charset); under the order-preserving
//! partitioners the disk key is the key itself.

use crate::partitioner::{Partitioner, Token};

/// A row's position in partitioner order: its token, then its key bytes (which only matter
/// for keys whose tokens are equal).
pub type RowOrder = (Token, Vec<u8>);

/// Splits a decoded disk key into the client's key and the row's order.
pub fn split_disk_key(
    partitioner: Partitioner,
    disk_key: String,
) -> Result<(String, RowOrder), String> {
    match partitioner {
        Partitioner::Random => {
            let Some((token, key)) = disk_key.split_once(':') else {
                return Err(format!(
                    "row key {disk_key:?} has no `<token>:` prefix; was this written under \
                     RandomPartitioner?"
                ));
            };
            let token = partitioner.parse_token(token).map_err(|_| {
                format!("row key {disk_key:?} does not start with a RandomPartitioner token")
            })?;
            let key = key.to_string();
            let order = (token, key.as_bytes().to_vec());
            Ok((key, order))
        }
        _ => {
            let order = (
                partitioner.token(disk_key.as_bytes()),
                disk_key.as_bytes().to_vec(),
            );
            Ok((disk_key, order))
        }
    }
}

/// True when ilion knows this partitioner's order for the key exactly: always, except for
/// CollatingOrderPreservingPartitioner keys outside ASCII (Java's full collation tables).
pub fn order_is_exact(partitioner: Partitioner, key: &str) -> bool {
    partitioner != Partitioner::CollatingOrderPreserving || key.is_ascii()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_keys_split_at_the_first_colon() {
        let (key, (token, _)) = split_disk_key(
            Partitioner::Random,
            "44462044001932687955876608482192862391:key:with:colons".into(),
        )
        .unwrap();
        assert_eq!(key, "key:with:colons");
        assert_eq!(
            token,
            Partitioner::Random
                .parse_token("44462044001932687955876608482192862391")
                .unwrap()
        );
        assert!(split_disk_key(Partitioner::Random, "nocolon".into()).is_err());
        assert!(split_disk_key(Partitioner::Random, "x1:key".into()).is_err());
    }

    #[test]
    fn ordered_keys_are_the_key() {
        let (key, (token, _)) =
            split_disk_key(Partitioner::OrderPreserving, "12:ab".into()).unwrap();
        assert_eq!(key, "12:ab");
        assert_eq!(token, Partitioner::OrderPreserving.token(b"12:ab"));
        assert!(order_is_exact(Partitioner::CollatingOrderPreserving, "ab"));
        assert!(!order_is_exact(Partitioner::CollatingOrderPreserving, "ü"));
    }
}
