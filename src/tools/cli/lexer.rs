//! Splits one line of the cli language into tokens: words (keywords, names, numbers, `0x`
//! hex, bare UUIDs), quoted strings and punctuation. `--` starts a comment that runs to the
//! end of the line, as in 0.6's grammar.
//!
//! A string is written in single quotes; inside it `''` and `\'` stand for a quote, and
//! `\\`, `\n`, `\t`, `\r` for a backslash, newline, tab and carriage return.

/// One token and the character offset it starts at (for error messages).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    pub kind: Tok,
    pub at: usize,
}

/// What a token is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Tok {
    /// Letters, digits, `_` and `-` (not first, except before a digit): `get`, `Keyspace1`,
    /// `127`, `-5`, `0x00ff`, `1b4e28ba-2fa1-11d2-883f-0016d3cca427`.
    Word(String),
    /// A quoted string, escapes resolved.
    Str(String),
    /// One of `. [ ] = / ( ) ? , ;`.
    Sym(char),
}

impl Tok {
    /// How the token reads in an error message.
    pub fn describe(&self) -> String {
        match self {
            Tok::Word(w) => format!("'{w}'"),
            Tok::Str(s) => format!("the string '{s}'"),
            Tok::Sym(c) => format!("'{c}'"),
        }
    }
}

const SYMBOLS: &str = ".[]=/()?,;";

fn word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '-'
}

/// The tokens of `line`, or a message saying what is wrong and where.
pub fn tokenize(line: &str) -> Result<Vec<Token>, String> {
    let chars: Vec<char> = line.chars().collect();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c.is_whitespace() {
            i += 1;
        } else if c == '-' && next == Some('-') {
            break;
        } else if c == '\'' {
            let (s, end) = string(&chars, i)?;
            tokens.push(Token {
                kind: Tok::Str(s),
                at: i,
            });
            i = end;
        } else if c.is_ascii_alphanumeric()
            || c == '_'
            || (c == '-' && next.is_some_and(|n| n.is_ascii_digit()))
        {
            let start = i;
            i += 1;
            while i < chars.len()
                && word_char(chars[i])
                && !(chars[i] == '-' && chars.get(i + 1) == Some(&'-'))
            {
                i += 1;
            }
            tokens.push(Token {
                kind: Tok::Word(chars[start..i].iter().collect()),
                at: start,
            });
        } else if SYMBOLS.contains(c) {
            tokens.push(Token {
                kind: Tok::Sym(c),
                at: i,
            });
            i += 1;
        } else {
            return Err(format!("unexpected character '{c}' at position {}", i + 1));
        }
    }
    Ok(tokens)
}

/// Reads the string opening at `chars[open]`; returns it and the index after its quote.
fn string(chars: &[char], open: usize) -> Result<(String, usize), String> {
    let mut s = String::new();
    let mut i = open + 1;
    loop {
        match chars.get(i) {
            None => {
                return Err(format!(
                    "the string opened at position {} has no closing quote",
                    open + 1
                ))
            }
            Some('\'') if chars.get(i + 1) == Some(&'\'') => {
                s.push('\'');
                i += 2;
            }
            Some('\'') => return Ok((s, i + 1)),
            Some('\\') => {
                let escaped = match chars.get(i + 1) {
                    Some('n') => '\n',
                    Some('t') => '\t',
                    Some('r') => '\r',
                    Some(&other) => other,
                    None => '\\',
                };
                s.push(escaped);
                i += 2;
            }
            Some(&c) => {
                s.push(c);
                i += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(line: &str) -> Vec<Tok> {
        tokenize(line)
            .unwrap()
            .into_iter()
            .map(|t| t.kind)
            .collect()
    }

    fn w(s: &str) -> Tok {
        Tok::Word(s.to_string())
    }

    #[test]
    fn words_strings_and_symbols() {
        assert_eq!(
            kinds("set KS.CF['k']['c'] = 'v';"),
            vec![
                w("set"),
                w("KS"),
                Tok::Sym('.'),
                w("CF"),
                Tok::Sym('['),
                Tok::Str("k".into()),
                Tok::Sym(']'),
                Tok::Sym('['),
                Tok::Str("c".into()),
                Tok::Sym(']'),
                Tok::Sym('='),
                Tok::Str("v".into()),
                Tok::Sym(';'),
            ]
        );
    }

    #[test]
    fn numbers_hex_uuids_and_hosts_are_words() {
        assert_eq!(kinds("-42 0x00ff"), vec![w("-42"), w("0x00ff")]);
        assert_eq!(
            kinds("1b4e28ba-2fa1-11d2-883f-0016d3cca427"),
            vec![w("1b4e28ba-2fa1-11d2-883f-0016d3cca427")]
        );
        assert_eq!(
            kinds("connect my-host/9160"),
            vec![w("connect"), w("my-host"), Tok::Sym('/'), w("9160")]
        );
    }

    #[test]
    fn string_escapes() {
        assert_eq!(kinds(r"'it''s'"), vec![Tok::Str("it's".into())]);
        assert_eq!(kinds(r"'it\'s'"), vec![Tok::Str("it's".into())]);
        assert_eq!(kinds(r"'a\nb\\c'"), vec![Tok::Str("a\nb\\c".into())]);
        assert_eq!(
            kinds("'-- not a comment'"),
            vec![Tok::Str("-- not a comment".into())]
        );
        assert_eq!(kinds("''"), vec![Tok::Str(String::new())]);
    }

    #[test]
    fn comments_end_the_line() {
        assert_eq!(kinds("-- all comment"), Vec::<Tok>::new());
        assert_eq!(kinds("get x-- rest"), vec![w("get"), w("x")]);
    }

    #[test]
    fn errors_say_where() {
        let e = tokenize("set 'open").unwrap_err();
        assert!(e.contains("position 5"), "{e}");
        let e = tokenize("get a@b").unwrap_err();
        assert_eq!(e, "unexpected character '@' at position 6");
    }
}
