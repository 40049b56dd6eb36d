//! The cli language: 0.6's statements (`connect`, `help`, `quit`, `show …`, `describe
//! keyspace`, `set`, `get`, `count`, `del`) and ilion's additions (`use`, `list`, explicit
//! timestamps, `0x` hex, `timeuuid()` and `long(N)` literals), parsed from one line into
//! [`Statement`]s. Keywords are case-insensitive; statements are separated by `;`, and a
//! trailing `;` is accepted. docs/cli.md is the reference.

use super::lexer::{tokenize, Tok, Token};

/// A parsed statement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Statement {
    Connect {
        host: String,
        port: u16,
    },
    Help,
    Quit,
    Show(Show),
    /// `describe keyspace [KS]`; without a name, the keyspace in use.
    Describe {
        keyspace: Option<String>,
    },
    /// `use KS [USER 'PASSWORD']`.
    Use {
        keyspace: String,
        login: Option<(String, String)>,
    },
    Set {
        path: Path,
        value: Literal,
        timestamp: Option<i64>,
    },
    Get {
        path: Path,
    },
    Count {
        path: Path,
    },
    Del {
        path: Path,
        timestamp: Option<i64>,
    },
    /// `list [KS.]CF [limit N]`.
    List {
        keyspace: Option<String>,
        column_family: String,
        limit: Option<i32>,
    },
}

/// The `show` statements.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Show {
    ClusterName,
    ConfigFile,
    ApiVersion,
    Keyspaces,
}

/// `[KS.]CF['key']` followed by up to two names: a column, a super column, or a super column
/// and one of its columns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Path {
    pub keyspace: Option<String>,
    pub column_family: String,
    pub key: String,
    pub names: Vec<Literal>,
}

/// A name or value as written; the column family's comparator turns names into bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Literal {
    /// A quoted string or a bare word (`'jsmith'`, `123`, a UUID).
    Text(String),
    /// `0x…`: these exact bytes.
    Hex(Vec<u8>),
    /// `timeuuid()`: a new version-1 UUID.
    TimeUuid,
    /// `long(N)`: N as 8 big-endian bytes.
    Long(i64),
}

/// Parses a line into its statements (none for a blank or comment line).
pub fn parse_line(line: &str) -> Result<Vec<Statement>, String> {
    let tokens = tokenize(line)?;
    let mut out = Vec::new();
    for part in tokens.split(|t| t.kind == Tok::Sym(';')) {
        if !part.is_empty() {
            out.push(
                Parser {
                    tokens: part,
                    at: 0,
                }
                .statement()?,
            );
        }
    }
    Ok(out)
}

struct Parser<'t> {
    tokens: &'t [Token],
    at: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.tokens.get(self.at).map(|t| &t.kind)
    }

    fn next(&mut self) -> Option<&Tok> {
        let t = self.tokens.get(self.at).map(|t| &t.kind);
        self.at += 1;
        t
    }

    fn error(&self, wanted: &str) -> String {
        match self.tokens.get(self.at) {
            Some(t) => format!(
                "expected {wanted} at position {}, found {}",
                t.at + 1,
                t.kind.describe()
            ),
            None => format!("expected {wanted} at the end of the statement"),
        }
    }

    /// True (and consumed) when the next token is the keyword `kw`.
    fn keyword(&mut self, kw: &str) -> bool {
        let hit = matches!(self.peek(), Some(Tok::Word(w)) if w.eq_ignore_ascii_case(kw));
        if hit {
            self.at += 1;
        }
        hit
    }

    fn expect_keyword(&mut self, kw: &str) -> Result<(), String> {
        if self.keyword(kw) {
            Ok(())
        } else {
            Err(self.error(&format!("'{kw}'")))
        }
    }

    fn symbol(&mut self, c: char) -> bool {
        let hit = self.peek() == Some(&Tok::Sym(c));
        if hit {
            self.at += 1;
        }
        hit
    }

    fn expect_symbol(&mut self, c: char) -> Result<(), String> {
        if self.symbol(c) {
            Ok(())
        } else {
            Err(self.error(&format!("'{c}'")))
        }
    }

    fn word(&mut self, what: &str) -> Result<String, String> {
        match self.peek() {
            Some(Tok::Word(w)) => {
                let w = w.clone();
                self.at += 1;
                Ok(w)
            }
            _ => Err(self.error(what)),
        }
    }

    fn integer<T: std::str::FromStr>(&mut self, what: &str) -> Result<T, String> {
        let before = self.at;
        let w = self.word(what)?;
        w.parse().map_err(|_| {
            self.at = before;
            self.error(what)
        })
    }

    fn end(&self) -> Result<(), String> {
        match self.peek() {
            None => Ok(()),
            Some(_) => Err(self.error("the end of the statement")),
        }
    }

    fn statement(mut self) -> Result<Statement, String> {
        let stmt = if self.symbol('?') || self.keyword("help") {
            // `help set` and the like print the same full list.
            self.at = self.tokens.len();
            Statement::Help
        } else if self.keyword("quit") || self.keyword("exit") {
            Statement::Quit
        } else if self.keyword("connect") {
            self.connect()?
        } else if self.keyword("show") {
            Statement::Show(self.show()?)
        } else if self.keyword("describe") {
            self.expect_keyword("keyspace")?;
            let keyspace = match self.peek() {
                None => None,
                Some(_) => Some(self.word("a keyspace name")?),
            };
            Statement::Describe { keyspace }
        } else if self.keyword("use") {
            let keyspace = self.word("a keyspace name")?;
            let login = match self.peek() {
                None => None,
                Some(_) => {
                    let user = self.word("a user name")?;
                    Some((user, self.text("a quoted password")?))
                }
            };
            Statement::Use { keyspace, login }
        } else if self.keyword("set") {
            let path = self.path()?;
            self.expect_symbol('=')?;
            let value = self.literal("a value")?;
            let timestamp = self.timestamp()?;
            Statement::Set {
                path,
                value,
                timestamp,
            }
        } else if self.keyword("get") {
            Statement::Get { path: self.path()? }
        } else if self.keyword("count") {
            Statement::Count { path: self.path()? }
        } else if self.keyword("del") {
            let path = self.path()?;
            let timestamp = self.timestamp()?;
            Statement::Del { path, timestamp }
        } else if self.keyword("list") {
            self.list()?
        } else {
            return Err(self.error("a statement (type 'help' or '?' for the list)"));
        };
        self.end()?;
        Ok(stmt)
    }

    /// `HOST/PORT`, the host being words and dots (`localhost`, `10.0.0.1`, `db-1.lan`).
    fn connect(&mut self) -> Result<Statement, String> {
        let mut host = String::new();
        while let Some(t) = self.peek() {
            match t {
                Tok::Word(w) => host.push_str(w),
                Tok::Sym('.') => host.push('.'),
                _ => break,
            }
            self.at += 1;
        }
        if host.is_empty() {
            return Err(self.error("a host name"));
        }
        self.expect_symbol('/')?;
        let port = self.integer("a port number")?;
        Ok(Statement::Connect { host, port })
    }

    fn show(&mut self) -> Result<Show, String> {
        if self.keyword("cluster") {
            self.expect_keyword("name")?;
            Ok(Show::ClusterName)
        } else if self.keyword("config") {
            self.expect_keyword("file")?;
            Ok(Show::ConfigFile)
        } else if self.keyword("api") {
            self.expect_keyword("version")?;
            Ok(Show::ApiVersion)
        } else if self.keyword("keyspaces") {
            Ok(Show::Keyspaces)
        } else {
            Err(self.error("'cluster name', 'config file', 'api version' or 'keyspaces'"))
        }
    }

    fn list(&mut self) -> Result<Statement, String> {
        let (keyspace, column_family) = self.column_family()?;
        let limit = if self.keyword("limit") {
            let before = self.at;
            let n: i32 = self.integer("a row count")?;
            if n <= 0 {
                self.at = before;
                return Err(self.error("a positive row count"));
            }
            Some(n)
        } else {
            None
        };
        Ok(Statement::List {
            keyspace,
            column_family,
            limit,
        })
    }

    /// `KS.CF` or `CF`.
    fn column_family(&mut self) -> Result<(Option<String>, String), String> {
        let first = self.word("a column family (KS.CF, or CF after 'use KS')")?;
        if self.symbol('.') {
            Ok((Some(first), self.word("a column family name")?))
        } else {
            Ok((None, first))
        }
    }

    fn path(&mut self) -> Result<Path, String> {
        let (keyspace, column_family) = self.column_family()?;
        self.expect_symbol('[')?;
        let key = match self.literal("a row key")? {
            Literal::Text(key) => key,
            _ => return Err("a row key is text: write it in quotes".to_string()),
        };
        self.expect_symbol(']')?;
        let mut names = Vec::new();
        while self.symbol('[') {
            if names.len() == 2 {
                return Err("at most a super column and a column may follow the row key".into());
            }
            names.push(self.literal("a column name")?);
            self.expect_symbol(']')?;
        }
        Ok(Path {
            keyspace,
            column_family,
            key,
            names,
        })
    }

    fn text(&mut self, what: &str) -> Result<String, String> {
        match self.next() {
            Some(Tok::Str(s)) => Ok(s.clone()),
            _ => {
                self.at -= 1;
                Err(self.error(what))
            }
        }
    }

    /// A quoted string, a bare word, `0x…`, `timeuuid()` or `long(N)`.
    fn literal(&mut self, what: &str) -> Result<Literal, String> {
        match self.peek().cloned() {
            Some(Tok::Str(s)) => {
                self.at += 1;
                Ok(Literal::Text(s))
            }
            Some(Tok::Word(w)) => {
                self.at += 1;
                if self.symbol('(') {
                    return self.function(&w);
                }
                match w.strip_prefix("0x").or_else(|| w.strip_prefix("0X")) {
                    Some(digits) => hex(digits).map(Literal::Hex),
                    None => Ok(Literal::Text(w)),
                }
            }
            _ => Err(self.error(what)),
        }
    }

    fn function(&mut self, name: &str) -> Result<Literal, String> {
        let lit = if name.eq_ignore_ascii_case("timeuuid") {
            Literal::TimeUuid
        } else if name.eq_ignore_ascii_case("long") {
            Literal::Long(self.integer("a 64-bit integer")?)
        } else {
            return Err(format!(
                "unknown function '{name}()': timeuuid() and long(N) are known"
            ));
        };
        self.expect_symbol(')')?;
        Ok(lit)
    }

    /// An optional trailing `timestamp N`.
    fn timestamp(&mut self) -> Result<Option<i64>, String> {
        if self.keyword("timestamp") {
            Ok(Some(self.integer("a timestamp (a 64-bit integer)")?))
        } else {
            Ok(None)
        }
    }
}

/// Decodes hex digits (an even number of them).
fn hex(digits: &str) -> Result<Vec<u8>, String> {
    let bad = || format!("'0x{digits}' is not hex: it needs an even number of hex digits");
    if !digits.len().is_multiple_of(2) || !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(bad());
    }
    (0..digits.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&digits[i..i + 2], 16).map_err(|_| bad()))
        .collect()
}

#[cfg(test)]
#[path = "parser_tests.rs"]
mod tests;
