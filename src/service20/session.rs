//! One connection of the later API (`docs/api-later.md#sessions`): its keyspace, its user,
//! and the trace-next flag — and the order in which a call's session checks run, which
//! decides which error a client sees first: keyspace set → keyspace exists → column family
//! named → column family exists → logged in → permission. Its writes' acknowledgements wait
//! here until the reply may leave (`crate::service::PendingAcks`).

use super::Service20;
use crate::config::{CfDef, KeyspaceDef, Schema};
use crate::error::{Error, Result};
use crate::partitioner::Partitioner;
use crate::protocol::{Connection, Mode, ReplyGate, Violation};
use crate::service::PendingAcks;
use std::cell::{Cell, RefCell};

/// The text of every call that needs a session keyspace when none is set.
pub(super) const NO_KEYSPACE: &str =
    "No keyspace has been specified. USE a keyspace, or explicitly specify keyspace.tablename";

/// One later-API connection's state.
pub struct Session20 {
    pub(super) service: Service20,
    keyspace: RefCell<Option<String>>,
    /// The user of the last successful login under SimpleAuthenticator.
    user: RefCell<Option<String>>,
    /// The keyspace the user was last allowed into, so that access.properties is read once
    /// per keyspace and login rather than on every call.
    allowed: RefCell<Option<String>>,
    trace_next: Cell<bool>,
    /// The acknowledgements of this connection's writes, which the next reply waits for.
    pub(super) pending: PendingAcks,
}

impl Session20 {
    pub(super) fn new(service: Service20) -> Session20 {
        Session20 {
            service,
            keyspace: RefCell::new(None),
            user: RefCell::new(None),
            allowed: RefCell::new(None),
            trace_next: Cell::new(false),
            pending: PendingAcks::default(),
        }
    }

    /// The session keyspace, if one was set.
    pub fn keyspace(&self) -> Option<String> {
        self.keyspace.borrow().clone()
    }

    /// Logged in: always under AllowAll, after a successful login under SimpleAuthenticator.
    pub fn is_logged_in(&self) -> bool {
        !self.service.auth.requires_login() || self.user.borrow().is_some()
    }

    /// `set_keyspace`: checked against the schema once someone is logged in; before a
    /// login any name is taken and each later call checks it.
    pub(super) fn set_keyspace(&self, keyspace: String) -> Result<()> {
        if self.is_logged_in() && self.service.db.schema().keyspace(&keyspace).is_none() {
            return Err(Error::invalid(format!(
                "Keyspace '{keyspace}' does not exist"
            )));
        }
        *self.keyspace.borrow_mut() = Some(keyspace);
        Ok(())
    }

    /// `login`: success replaces the session's user; a failure leaves the previous one.
    pub(super) fn login(
        &self,
        credentials: &std::collections::BTreeMap<String, String>,
    ) -> Result<()> {
        if let Some(user) = self.service.auth.authenticate(credentials)? {
            *self.user.borrow_mut() = Some(user);
            *self.allowed.borrow_mut() = None;
        }
        Ok(())
    }

    /// The first check of every call marked "needs a login".
    pub(super) fn require_login(&self) -> Result<()> {
        match self.is_logged_in() {
            true => Ok(()),
            false => Err(Error::invalid("You have not logged in")),
        }
    }

    /// The session keyspace, which must be set and exist (first two session checks).
    /// `schema` is the snapshot the call works with (`Db::schema`).
    pub(super) fn session_keyspace<'s>(&self, schema: &'s Schema) -> Result<&'s KeyspaceDef> {
        let name = self.keyspace().ok_or_else(|| Error::invalid(NO_KEYSPACE))?;
        schema
            .keyspace(&name)
            .ok_or_else(|| Error::invalid(format!("Keyspace {name} does not exist")))
    }

    /// Every session check of a call on column family `cf` of the session keyspace, in
    /// order: keyspace, column family, login, permission.
    pub(super) fn column_family<'s>(
        &self,
        schema: &'s Schema,
        cf: &str,
    ) -> Result<(&'s KeyspaceDef, &'s CfDef)> {
        let ks = self.session_keyspace(schema)?;
        let def = table(ks, cf)?;
        self.require_login()?;
        self.require_access(&ks.name)?;
        Ok((ks, def))
    }

    /// The permission check (spec G17): the user must be listed for `keyspace` in
    /// access.properties. Refusals are InvalidRequestException, as the data calls declare
    /// no AuthorizationException.
    pub(super) fn require_access(&self, keyspace: &str) -> Result<()> {
        let Some(user) = self.user.borrow().clone() else {
            // Only reachable under AllowAll: a logged-out SimpleAuthenticator session
            // stopped at require_login.
            return Ok(());
        };
        if self.allowed.borrow().as_deref() == Some(keyspace) {
            return Ok(());
        }
        self.service
            .auth
            .authorize(&user, keyspace)
            .map_err(|e| match e {
                Error::Authorization(why) => Error::InvalidRequest(why),
                other => other,
            })?;
        *self.allowed.borrow_mut() = Some(keyspace.to_string());
        Ok(())
    }

    /// The permission of keyspace-level schema calls (spec G17): the user must be listed
    /// under `<modify-keyspaces>` in access.properties; refused with the text naming
    /// `keyspace`.
    pub(super) fn require_modify_keyspaces(&self, keyspace: &str) -> Result<()> {
        let Some(user) = self.user.borrow().clone() else {
            return Ok(());
        };
        self.service
            .auth
            .authorize(&user, "<modify-keyspaces>")
            .map_err(|e| match e {
                Error::Authorization(_) => Error::InvalidRequest(format!(
                    "User {user} could not be authorized to use keyspace {keyspace}"
                )),
                other => other,
            })
    }

    /// The partitioner that orders rows and checks keys.
    pub(super) fn partitioner(&self) -> Partitioner {
        self.service.db.partitioner()
    }

    /// `trace_next_query` sets the flag; whatever call comes next clears it (no trace is
    /// kept, spec G10).
    pub(super) fn set_trace_next(&self, on: bool) {
        self.trace_next.set(on);
    }
}

/// The column family `cf` of `ks` (the third and fourth session checks).
pub(super) fn table<'k>(ks: &'k KeyspaceDef, cf: &str) -> Result<&'k CfDef> {
    if cf.is_empty() {
        return Err(Error::invalid("non-empty table is required"));
    }
    ks.column_families
        .get(cf)
        .ok_or_else(|| Error::invalid(format!("unconfigured table {cf}")))
}

impl Connection for Session20 {
    fn process(&mut self, message: &[u8], mode: Mode) -> Result<Vec<u8>, Violation> {
        let limits = self.service.limits;
        crate::protocol::v20::process(message, mode, &limits, &*self)
    }

    fn take_reply_gate(&mut self) -> Option<ReplyGate> {
        self.pending.reply_gate()
    }
}
