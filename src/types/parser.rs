//! Type strings as Cassandra's `TypeParser` reads them: a class name (short names resolved in
//! Cassandra's marshal package), optional parameters in parentheses, blanks skipped between
//! tokens, anything after a complete type ignored; with Cassandra's error texts
//! (`docs/types.md#type-strings`). Nesting is capped at [`MAX_DEPTH`] so a hostile string
//! cannot exhaust the stack.

use std::collections::BTreeMap;

use super::{DataType, MARSHAL_PACKAGE};

/// How deeply type parameters may nest (ilion limit; real schemas use two or three levels).
pub const MAX_DEPTH: usize = 16;

/// Type names of Cassandra 2.2 that exist for CQL3 only; ilion refuses them over Thrift.
const CQL_ONLY: [&str; 12] = [
    "ByteType",
    "ShortType",
    "SimpleDateType",
    "TimeType",
    "ListType",
    "SetType",
    "MapType",
    "TupleType",
    "UserType",
    "FrozenType",
    "EmptyType",
    "ColumnToCollectionType",
];

/// A failure: syntax errors are re-worded when they happen inside parameters, as in Cassandra.
enum Failure {
    Syntax(String),
    Other(String),
}

impl Failure {
    fn text(self) -> String {
        match self {
            Failure::Syntax(s) | Failure::Other(s) => s,
        }
    }
}

/// Parses a type string; an empty or blank string is BytesType.
pub(super) fn parse(s: &str) -> Result<DataType, String> {
    let mut p = Parser {
        text: s,
        chars: s.chars().collect(),
        idx: 0,
        depth: 0,
    };
    p.skip_blank();
    let name = p.identifier();
    if name.is_empty() {
        return Ok(DataType::Bytes);
    }
    p.skip_blank();
    p.type_named(&name).map_err(Failure::text)
}

/// The simple (parameterless) types by short class name.
fn simple_type(short: &str) -> Option<DataType> {
    Some(match short {
        "BytesType" => DataType::Bytes,
        "AsciiType" => DataType::Ascii,
        "UTF8Type" => DataType::Utf8,
        "LongType" => DataType::Long,
        "Int32Type" => DataType::Int32,
        "IntegerType" => DataType::Integer,
        "DecimalType" => DataType::Decimal,
        "DoubleType" => DataType::Double,
        "FloatType" => DataType::Float,
        "BooleanType" => DataType::Boolean,
        "DateType" => DataType::Date,
        "TimestampType" => DataType::Timestamp,
        "UUIDType" => DataType::Uuid,
        "LexicalUUIDType" => DataType::LexicalUuid,
        "TimeUUIDType" => DataType::TimeUuid,
        "InetAddressType" => DataType::InetAddress,
        "CounterColumnType" => DataType::Counter,
        _ => return None,
    })
}

struct Parser<'a> {
    text: &'a str,
    chars: Vec<char>,
    idx: usize,
    depth: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.idx).copied()
    }

    fn skip_blank(&mut self) {
        while matches!(self.peek(), Some(' ' | '\t' | '\n')) {
            self.idx += 1;
        }
    }

    /// Skips blanks and at most one comma; false at the end of the string.
    fn skip_blank_and_comma(&mut self) -> bool {
        let mut comma = false;
        while let Some(c) = self.peek() {
            match c {
                ',' if comma => return true,
                ',' => comma = true,
                ' ' | '\t' | '\n' => {}
                _ => return true,
            }
            self.idx += 1;
        }
        false
    }

    /// A run of `[0-9A-Za-z+\-._&]`, possibly empty.
    fn identifier(&mut self) -> String {
        let start = self.idx;
        while matches!(self.peek(), Some(c) if c.is_ascii_alphanumeric() || "+-._&".contains(c)) {
            self.idx += 1;
        }
        self.chars[start..self.idx].iter().collect()
    }

    fn syntax(&self, reason: &str) -> Failure {
        Failure::Syntax(format!(
            "Syntax error parsing '{}' at char {}: {reason}",
            self.text, self.idx
        ))
    }

    /// Re-words a syntax error from inside parameters, as Cassandra does.
    fn nested(&self, f: Failure) -> Failure {
        match f {
            Failure::Syntax(_) => Failure::Syntax(format!(
                "Exception while parsing '{}' around char {}",
                self.text, self.idx
            )),
            other => other,
        }
    }

    /// One type at the cursor, inside parameters.
    fn parse_inner(&mut self) -> Result<DataType, Failure> {
        if self.depth >= MAX_DEPTH {
            return Err(Failure::Other(format!(
                "Type '{}' nests deeper than {MAX_DEPTH} levels",
                self.text
            )));
        }
        self.depth += 1;
        self.skip_blank();
        let name = self.identifier();
        self.skip_blank();
        let t = self.type_named(&name);
        self.depth -= 1;
        t
    }

    /// The type of class `name`, reading its parameters if the cursor is on `(`.
    fn type_named(&mut self, name: &str) -> Result<DataType, Failure> {
        let class = if name.contains('.') {
            name.to_string()
        } else {
            format!("{MARSHAL_PACKAGE}{name}")
        };
        let short = class.strip_prefix(MARSHAL_PACKAGE).unwrap_or("");
        let has_parameters = self.peek() == Some('(');
        if let Some(t) = simple_type(short) {
            return if has_parameters {
                self.default_parameters(t)
            } else {
                Ok(t)
            };
        }
        match short {
            "CompositeType" => {
                let types = self.type_parameters()?;
                if types.is_empty() {
                    // 2.2 fails an assertion here (spec F9).
                    return Err(Failure::Other(
                        "CompositeType requires at least one component type".into(),
                    ));
                }
                Ok(DataType::Composite(types))
            }
            "DynamicCompositeType" => Ok(DataType::DynamicComposite(self.alias_parameters()?)),
            "ReversedType" => {
                let mut types = self.type_parameters()?;
                if types.len() != 1 {
                    return Err(Failure::Other(format!(
                        "ReversedType takes exactly one argument, {} given",
                        types.len()
                    )));
                }
                let base = types.remove(0);
                Ok(DataType::Reversed(Box::new(base)))
            }
            n if CQL_ONLY.contains(&n) => {
                Err(Failure::Other(format!("{n} is not supported by ilion")))
            }
            _ => Err(Failure::Other(format!(
                "Unable to find abstract-type class '{class}'"
            ))),
        }
    }

    /// `(T1, T2, …)`; nothing when the cursor is not on `(`.
    fn type_parameters(&mut self) -> Result<Vec<DataType>, Failure> {
        let mut list = Vec::new();
        if self.peek() != Some('(') {
            return Ok(list);
        }
        self.idx += 1;
        while self.skip_blank_and_comma() {
            if self.peek() == Some(')') {
                self.idx += 1;
                return Ok(list);
            }
            match self.parse_inner() {
                Ok(t) => list.push(t),
                Err(f) => return Err(self.nested(f)),
            }
        }
        Err(self.syntax("unexpected end of string"))
    }

    /// `(a=>T1, b=>T2, …)` of DynamicCompositeType.
    fn alias_parameters(&mut self) -> Result<BTreeMap<u8, DataType>, Failure> {
        let mut map = BTreeMap::new();
        if self.peek() != Some('(') {
            return Ok(map);
        }
        self.idx += 1;
        while self.skip_blank_and_comma() {
            if self.peek() == Some(')') {
                self.idx += 1;
                return Ok(map);
            }
            let alias = self.identifier();
            let mut chars = alias.chars();
            let (Some(c), None) = (chars.next(), chars.next()) else {
                return Err(self.syntax("An alias should be a single character"));
            };
            self.skip_blank();
            if self.peek() != Some('=') || self.chars.get(self.idx + 1) != Some(&'>') {
                return Err(self.syntax("expecting '=>' token"));
            }
            self.idx += 2;
            self.skip_blank();
            match self.parse_inner() {
                // Identifier characters are ASCII, so the alias is one byte.
                Ok(t) => map.insert(c as u8, t),
                Err(f) => return Err(self.nested(f)),
            };
        }
        Err(self.syntax("unexpected end of string"))
    }

    /// `(key=value, …)` after a simple type: `reversed` or `reversed=true` wraps it in
    /// ReversedType; other keys are ignored, as in Cassandra.
    fn default_parameters(&mut self, t: DataType) -> Result<DataType, Failure> {
        self.idx += 1;
        let mut reversed = false;
        while self.skip_blank_and_comma() {
            if self.peek() == Some(')') {
                self.idx += 1;
                return Ok(if reversed {
                    DataType::Reversed(Box::new(t))
                } else {
                    t
                });
            }
            let key = self.identifier();
            let mut value = String::new();
            self.skip_blank();
            match self.peek() {
                Some('=') => {
                    self.idx += 1;
                    self.skip_blank();
                    value = self.identifier();
                }
                Some(',' | ')') => {}
                Some(c) => return Err(self.syntax(&format!("unexpected character '{c}'"))),
                None => return Err(self.syntax("unexpected end of string")),
            }
            if key == "reversed" {
                reversed = value.is_empty() || value == "true";
            }
        }
        Err(self.syntax("unexpected end of string"))
    }
}
