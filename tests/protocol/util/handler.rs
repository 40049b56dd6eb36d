//! A test implementation of the generated handler trait: it records each call's arguments
//! (as Debug text) and answers `get` according to the key, to exercise every reply kind.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};

use ilion::protocol::generated::{
    AuthenticationRequest, CassandraSyncHandler, Column, ColumnOrSuperColumn, ColumnParent,
    ColumnPath, ConsistencyLevel, InvalidRequestException, KeyRange, KeySlice, Mutation,
    NotFoundException, SlicePredicate, SuperColumn, TimedOutException, TokenRange,
    UnavailableException,
};
use thrift::{ApplicationError, ApplicationErrorKind};

#[derive(Default)]
pub struct Recorder {
    pub calls: RefCell<Vec<String>>,
}

impl Recorder {
    fn note(&self, call: String) {
        self.calls.borrow_mut().push(call);
    }

    /// The last call's Debug text.
    pub fn last(&self) -> String {
        self.calls.borrow().last().cloned().unwrap_or_default()
    }
}

type R<T> = thrift::Result<T>;

impl CassandraSyncHandler for Recorder {
    fn handle_login(&self, ks: String, auth: AuthenticationRequest) -> R<()> {
        self.note(format!("login{:?}", (ks, auth)));
        Ok(())
    }
    fn handle_get(
        &self,
        ks: String,
        key: String,
        path: ColumnPath,
        cl: ConsistencyLevel,
    ) -> R<ColumnOrSuperColumn> {
        self.note(format!("get{:?}", (&ks, &key, &path, cl)));
        match key.as_str() {
            "nf" => Err(thrift::Error::User(Box::new(NotFoundException::new()))),
            "ire" => Err(thrift::Error::User(Box::new(InvalidRequestException::new(
                "bad".to_owned(),
            )))),
            "app" => Err(thrift::Error::Application(ApplicationError::new(
                ApplicationErrorKind::InternalError,
                "Internal error processing get",
            ))),
            "panic" => panic!("handler bug (expected by the test)"),
            _ => Ok(ColumnOrSuperColumn::new(
                Column::new(path.column.unwrap_or_default(), ks.into_bytes(), 1),
                None,
            )),
        }
    }
    fn handle_get_slice(
        &self,
        ks: String,
        key: String,
        parent: ColumnParent,
        pred: SlicePredicate,
        cl: ConsistencyLevel,
    ) -> R<Vec<ColumnOrSuperColumn>> {
        self.note(format!("get_slice{:?}", (&ks, &key, parent, pred, cl)));
        let col =
            |n: &str, v: &str, t| Column::new(n.as_bytes().to_vec(), v.as_bytes().to_vec(), t);
        let user = |e: Box<dyn std::error::Error + Send + Sync>| Err(thrift::Error::User(e));
        match key.as_str() {
            "ire" => user(Box::new(InvalidRequestException::new("bad".to_owned()))),
            "ue" => user(Box::new(UnavailableException::new())),
            "te" => user(Box::new(TimedOutException::new())),
            "nf" => user(Box::new(NotFoundException::new())), // not declared by get_slice
            "app" => Err(thrift::Error::Application(ApplicationError::new(
                ApplicationErrorKind::InternalError,
                "Internal error processing get_slice",
            ))),
            "proto" => Err(thrift::Error::Protocol(thrift::ProtocolError::new(
                thrift::ProtocolErrorKind::SizeLimit,
                "too big",
            ))),
            "panic" => panic!("handler bug (expected by the test)"),
            "cols" => Ok(vec![
                ColumnOrSuperColumn::new(col("a", "1", 1), None),
                ColumnOrSuperColumn::new(col("", "", -7), None),
                ColumnOrSuperColumn::new(
                    None,
                    SuperColumn::new(b"s".to_vec(), vec![col("x", "y", 2), col("z", "", 3)]),
                ),
                ColumnOrSuperColumn::new(None, SuperColumn::new(vec![], vec![])),
                ColumnOrSuperColumn::new(col("both", &ks, 4), SuperColumn::new(vec![9], vec![])),
                ColumnOrSuperColumn::new(None, None),
            ]),
            _ => Ok(vec![]),
        }
    }
    fn handle_multiget(
        &self,
        ks: String,
        keys: Vec<String>,
        path: ColumnPath,
        cl: ConsistencyLevel,
    ) -> R<BTreeMap<String, ColumnOrSuperColumn>> {
        self.note(format!("multiget{:?}", (ks, keys, path, cl)));
        Ok(BTreeMap::new())
    }
    fn handle_multiget_slice(
        &self,
        ks: String,
        keys: Vec<String>,
        parent: ColumnParent,
        pred: SlicePredicate,
        cl: ConsistencyLevel,
    ) -> R<BTreeMap<String, Vec<ColumnOrSuperColumn>>> {
        self.note(format!("multiget_slice{:?}", (ks, keys, parent, pred, cl)));
        Ok(BTreeMap::new())
    }
    fn handle_get_count(
        &self,
        ks: String,
        key: String,
        parent: ColumnParent,
        cl: ConsistencyLevel,
    ) -> R<i32> {
        self.note(format!("get_count{:?}", (ks, key, parent, cl)));
        Ok(3)
    }
    fn handle_get_range_slice(
        &self,
        ks: String,
        parent: ColumnParent,
        pred: SlicePredicate,
        start: String,
        finish: String,
        rows: i32,
        cl: ConsistencyLevel,
    ) -> R<Vec<KeySlice>> {
        self.note(format!(
            "get_range_slice{:?}",
            (ks, parent, pred, start, finish, rows, cl)
        ));
        Ok(vec![])
    }
    fn handle_get_range_slices(
        &self,
        ks: String,
        parent: ColumnParent,
        pred: SlicePredicate,
        range: KeyRange,
        cl: ConsistencyLevel,
    ) -> R<Vec<KeySlice>> {
        self.note(format!(
            "get_range_slices{:?}",
            (ks, parent, pred, range, cl)
        ));
        Ok(vec![])
    }
    fn handle_insert(
        &self,
        ks: String,
        key: String,
        path: ColumnPath,
        value: Vec<u8>,
        ts: i64,
        cl: ConsistencyLevel,
    ) -> R<()> {
        self.note(format!("insert{:?}", (ks, key, path, value, ts, cl)));
        Ok(())
    }
    fn handle_batch_insert(
        &self,
        ks: String,
        key: String,
        cfmap: BTreeMap<String, Vec<ColumnOrSuperColumn>>,
        cl: ConsistencyLevel,
    ) -> R<()> {
        self.note(format!("batch_insert{:?}", (ks, key, cfmap, cl)));
        Ok(())
    }
    fn handle_remove(
        &self,
        ks: String,
        key: String,
        path: ColumnPath,
        ts: i64,
        cl: ConsistencyLevel,
    ) -> R<()> {
        self.note(format!("remove{:?}", (ks, key, path, ts, cl)));
        Ok(())
    }
    fn handle_batch_mutate(
        &self,
        ks: String,
        map: BTreeMap<String, BTreeMap<String, Vec<Mutation>>>,
        cl: ConsistencyLevel,
    ) -> R<()> {
        self.note(format!("batch_mutate{:?}", (ks, map, cl)));
        Ok(())
    }
    fn handle_get_string_property(&self, p: String) -> R<String> {
        self.note(format!("get_string_property{:?}", (p,)));
        Ok(String::new())
    }
    fn handle_get_string_list_property(&self, p: String) -> R<Vec<String>> {
        self.note(format!("get_string_list_property{:?}", (p,)));
        Ok(vec![])
    }
    fn handle_describe_keyspaces(&self) -> R<BTreeSet<String>> {
        self.note("describe_keyspaces".into());
        Ok(["Keyspace1".to_owned(), "system".to_owned()].into())
    }
    fn handle_describe_cluster_name(&self) -> R<String> {
        self.note("describe_cluster_name".into());
        Ok("Test Cluster".into())
    }
    fn handle_describe_version(&self) -> R<String> {
        self.note("describe_version".into());
        Ok(ilion::protocol::VERSION.to_owned())
    }
    fn handle_describe_ring(&self, ks: String) -> R<Vec<TokenRange>> {
        self.note(format!("describe_ring{:?}", (ks,)));
        Ok(vec![])
    }
    fn handle_describe_partitioner(&self) -> R<String> {
        self.note("describe_partitioner".into());
        Ok("org.apache.cassandra.dht.RandomPartitioner".into())
    }
    fn handle_describe_keyspace(
        &self,
        ks: String,
    ) -> R<BTreeMap<String, BTreeMap<String, String>>> {
        self.note(format!("describe_keyspace{:?}", (ks,)));
        Err(thrift::Error::User(Box::new(NotFoundException::new())))
    }
    fn handle_describe_splits(&self, start: String, end: String, n: i32) -> R<Vec<String>> {
        self.note(format!("describe_splits{:?}", (start, end, n)));
        Ok(vec![])
    }
}
