//! A reader for the part of the Thrift IDL language `idl/cassandra.thrift` and
//! `idl/cassandra-20.thrift` use, so tests can check the method tables and the argument schemas
//! against the committed IDL texts without the Thrift compiler: namespaces, constants, enums,
//! structs, exceptions and one service, with `#`, `//` and `/* */` comments. Anything else is
//! an error, never silently skipped, so a construct this reader does not know cannot hide a
//! difference.

use std::collections::BTreeMap;

/// A field's type as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Type {
    /// A base type (`bool`, `i32`, `string`, ...) or the name of an enum or struct.
    Named(String),
    List(Box<Type>),
    Set(Box<Type>),
    Map(Box<Type>, Box<Type>),
}

/// A constant value: a default or a `const`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Literal {
    Int(i64),
    /// A number with a fraction, as the bits of its `f64`.
    Float(u64),
    Str(String),
    /// A dotted name such as `ConsistencyLevel.ONE`.
    Ident(String),
}

/// One field of a struct, an argument list or a `throws` clause.
#[derive(Debug, Clone)]
pub(super) struct Field {
    pub id: i64,
    /// `required`, `optional`, or `None` for neither.
    pub req: Option<String>,
    pub ty: Type,
    pub name: String,
    pub default: Option<Literal>,
}

/// One function of the service.
#[derive(Debug, Clone)]
pub(super) struct Function {
    pub name: String,
    pub args: Vec<Field>,
    pub throws: Vec<Field>,
}

/// What the file declares.
#[derive(Debug, Default)]
pub(super) struct Idl {
    /// Structs and exceptions by name, with whether each is an exception.
    pub structs: BTreeMap<String, (bool, Vec<Field>)>,
    /// Enums by name: each value's name and number.
    pub enums: BTreeMap<String, BTreeMap<String, i64>>,
    /// The service's functions in file order.
    pub functions: Vec<Function>,
}

impl Idl {
    /// The number an enum default such as `ConsistencyLevel.ONE` stands for.
    pub(super) fn enum_value(&self, dotted: &str) -> Option<i64> {
        let (name, value) = dotted.split_once('.')?;
        self.enums.get(name)?.get(value).copied()
    }
}

fn tokens(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let next = chars.peek().copied();
        if c.is_whitespace() {
            continue;
        }
        if c == '#' || (c == '/' && next == Some('/')) {
            chars.by_ref().take_while(|&c| c != '\n').for_each(drop);
        } else if c == '/' && next == Some('*') {
            chars.next();
            let mut last = ' ';
            for c in chars.by_ref() {
                if last == '*' && c == '/' {
                    break;
                }
                last = c;
            }
        } else if c == '"' {
            let s: String = chars.by_ref().take_while(|&c| c != '"').collect();
            out.push(format!("\"{s}\""));
        } else if "{}()<>,:;=".contains(c) {
            out.push(c.to_string());
        } else {
            let mut word = c.to_string();
            while let Some(&c) = chars.peek() {
                if !(c.is_alphanumeric() || "_.-".contains(c)) {
                    break;
                }
                word.push(c);
                chars.next();
            }
            out.push(word);
        }
    }
    out
}

struct Reader {
    toks: Vec<String>,
    at: usize,
}

impl Reader {
    fn peek(&self) -> &str {
        self.toks.get(self.at).map_or("", String::as_str)
    }

    fn next(&mut self) -> String {
        let t = self.peek().to_string();
        assert!(!t.is_empty(), "IDL ends early");
        self.at += 1;
        t
    }

    fn expect(&mut self, want: &str) {
        let got = self.next();
        assert_eq!(got, want, "IDL: expected {want:?} at token {}", self.at);
    }

    fn eat(&mut self, t: &str) -> bool {
        let here = self.peek() == t;
        if here {
            self.at += 1;
        }
        here
    }

    fn separator(&mut self) {
        let _ = self.eat(",") || self.eat(";");
    }

    fn ty(&mut self) -> Type {
        let name = self.next();
        match name.as_str() {
            "list" | "set" => {
                self.expect("<");
                let elem = Box::new(self.ty());
                self.expect(">");
                match name.as_str() {
                    "list" => Type::List(elem),
                    _ => Type::Set(elem),
                }
            }
            "map" => {
                self.expect("<");
                let key = Box::new(self.ty());
                self.expect(",");
                let value = Box::new(self.ty());
                self.expect(">");
                Type::Map(key, value)
            }
            _ => Type::Named(name),
        }
    }

    fn literal(&mut self) -> Literal {
        let t = self.next();
        if let Some(s) = t.strip_prefix('"').and_then(|t| t.strip_suffix('"')) {
            Literal::Str(s.to_string())
        } else if let Ok(n) = t.parse() {
            Literal::Int(n)
        } else if let Ok(x) = t.parse::<f64>() {
            Literal::Float(x.to_bits())
        } else {
            Literal::Ident(t)
        }
    }

    /// Fields up to (and including) `close`.
    fn fields(&mut self, close: &str) -> Vec<Field> {
        let mut fields = Vec::new();
        while !self.eat(close) {
            let id = self.next().parse().expect("IDL: a field id");
            self.expect(":");
            let req = match self.peek() {
                "required" | "optional" => Some(self.next()),
                _ => None,
            };
            let ty = self.ty();
            let name = self.next();
            let default = self.eat("=").then(|| self.literal());
            self.separator();
            fields.push(Field {
                id,
                req,
                ty,
                name,
                default,
            });
        }
        fields
    }

    fn enumeration(&mut self) -> BTreeMap<String, i64> {
        let mut values = BTreeMap::new();
        let mut next = 0;
        self.expect("{");
        while !self.eat("}") {
            let name = self.next();
            if self.eat("=") {
                next = self.next().parse().expect("IDL: an enum value");
            }
            values.insert(name, next);
            next += 1;
            self.separator();
        }
        values
    }

    fn service(&mut self) -> Vec<Function> {
        let mut functions = Vec::new();
        self.expect("{");
        while !self.eat("}") {
            assert!(!self.eat("oneway"), "IDL: oneway functions are not read");
            let _returns = self.ty();
            let name = self.next();
            self.expect("(");
            let args = self.fields(")");
            let throws = match self.eat("throws") {
                true => {
                    self.expect("(");
                    self.fields(")")
                }
                false => Vec::new(),
            };
            self.separator();
            functions.push(Function { name, args, throws });
        }
        functions
    }
}

/// Reads IDL text; panics, naming the place, on anything it does not understand.
pub(super) fn parse(text: &str) -> Idl {
    let mut r = Reader {
        toks: tokens(text),
        at: 0,
    };
    let mut idl = Idl::default();
    while r.at < r.toks.len() {
        match r.next().as_str() {
            "namespace" => {
                r.next();
                r.next();
            }
            "const" => {
                r.ty();
                r.next();
                r.expect("=");
                r.literal();
                r.separator();
            }
            "enum" => {
                let name = r.next();
                let values = r.enumeration();
                idl.enums.insert(name, values);
            }
            kind @ ("struct" | "exception") => {
                let name = r.next();
                r.expect("{");
                let fields = r.fields("}");
                idl.structs.insert(name, (kind == "exception", fields));
            }
            "service" => {
                r.next();
                assert!(idl.functions.is_empty(), "IDL: more than one service");
                idl.functions = r.service();
            }
            other => panic!("IDL: unexpected {other:?} at token {}", r.at),
        }
    }
    idl
}
