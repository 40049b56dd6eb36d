//! The interactive loop on a terminal: a banner, a prompt naming the keyspace in use, line
//! editing and history (kept in `~/.ilion_cli_history`) through rustyline, and tab
//! completion of keywords, keyspace names and `KS.CF` names. Errors are printed and the loop
//! goes on; `quit`, `exit` or end of input (Ctrl-D) leave it.

use super::exec::Flow;
use super::run_line;
use super::session::Session;
use rustyline::completion::Completer;
use rustyline::config::{CompletionType, Config};
use rustyline::error::ReadlineError;
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::history::DefaultHistory;
use rustyline::validate::Validator;
use rustyline::{Context, Editor, Helper};
use std::path::PathBuf;
use std::process::ExitCode;

const BANNER: &str = concat!(
    "ilion cli ",
    env!("CARGO_PKG_VERSION"),
    ": the cassandra-cli of Cassandra 0.6.\n",
    "'help' or '?' lists the statements; 'quit', 'exit' or Ctrl-D leaves."
);

/// Runs the loop until `quit` or end of input.
pub fn run(mut session: Session) -> ExitCode {
    let config = Config::builder()
        .completion_type(CompletionType::List)
        .auto_add_history(false)
        .build();
    let mut editor = match Editor::<CliHelper, DefaultHistory>::with_config(config) {
        Ok(editor) => editor,
        Err(e) => {
            eprintln!("ilion cli: cannot use the terminal: {e}");
            return ExitCode::from(2);
        }
    };
    let history = history_file();
    if let Some(path) = &history {
        // A missing history file is the first run, nothing to report.
        let _ = editor.load_history(path);
    }
    println!("{BANNER}");
    match session.connect() {
        Ok(cluster) => println!(
            "Connected to: \"{cluster}\" on {}/{}",
            session.host, session.port
        ),
        Err(e) => eprintln!("{e}"),
    }
    let mut out = std::io::stdout();
    loop {
        session.learn_names();
        editor.set_helper(Some(CliHelper {
            names: session.known_names(),
        }));
        let prompt = match &session.keyspace {
            Some(ks) => format!("ilion:{ks}> "),
            None => "ilion> ".to_string(),
        };
        match editor.readline(&prompt) {
            Ok(line) => {
                if !line.trim().is_empty() {
                    let _ = editor.add_history_entry(line.as_str());
                }
                match run_line(&mut session, &line, &mut out) {
                    Ok(Flow::Continue) => {}
                    Ok(Flow::Quit) => break,
                    Err(e) => eprintln!("{e}"),
                }
            }
            // Ctrl-C drops the line being typed, as a shell does.
            Err(ReadlineError::Interrupted) => continue,
            Err(ReadlineError::Eof) => break,
            Err(e) => {
                eprintln!("ilion cli: {e}");
                break;
            }
        }
    }
    if let Some(path) = &history {
        if let Err(e) = editor.save_history(path) {
            eprintln!(
                "ilion cli: cannot save the history to {}: {e}",
                path.display()
            );
        }
    }
    ExitCode::SUCCESS
}

fn history_file() -> Option<PathBuf> {
    std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".ilion_cli_history"))
}

/// Words that start a statement.
const STATEMENTS: [&str; 12] = [
    "connect", "count", "del", "describe", "exit", "get", "help", "list", "quit", "set", "show",
    "use",
];

/// Completion candidates for the word that ends `before` (the line up to the cursor): the
/// offset where that word starts, and what may replace it. `names` are the keyspaces, `KS.CF`
/// names and the column families of the keyspace in use.
pub fn complete(before: &str, names: &[String]) -> (usize, Vec<String>) {
    let start = before
        .char_indices()
        .rev()
        .find(|(_, c)| c.is_whitespace())
        .map_or(0, |(i, c)| i + c.len_utf8());
    let partial = &before[start..];
    let prior: Vec<String> = before[..start]
        .split_whitespace()
        .map(str::to_ascii_lowercase)
        .collect();
    let prior: Vec<&str> = prior.iter().map(String::as_str).collect();
    let keywords = |words: &[&str]| -> Vec<String> {
        words
            .iter()
            .filter(|w| w.starts_with(&partial.to_ascii_lowercase()))
            .map(|w| format!("{w} "))
            .collect()
    };
    let matching_names = || -> Vec<String> {
        names
            .iter()
            .filter(|n| n.starts_with(partial))
            .cloned()
            .collect()
    };
    let candidates = match prior.as_slice() {
        [] => keywords(&STATEMENTS),
        ["show"] => keywords(&["api", "cluster", "config", "keyspaces"]),
        ["show", "api"] => keywords(&["version"]),
        ["show", "cluster"] => keywords(&["name"]),
        ["show", "config"] => keywords(&["file"]),
        ["describe"] => keywords(&["keyspace"]),
        ["describe", "keyspace"] | ["use"] => matching_names()
            .into_iter()
            .filter(|n| !n.contains('.'))
            .collect(),
        ["get" | "set" | "count" | "del" | "list"] if !partial.contains('[') => matching_names(),
        ["list", _] => keywords(&["limit"]),
        _ => Vec::new(),
    };
    (start, candidates)
}

/// rustyline's helper: completion only.
struct CliHelper {
    names: Vec<String>,
}

impl Completer for CliHelper {
    type Candidate = String;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        _ctx: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<String>)> {
        Ok(complete(&line[..pos], &self.names))
    }
}

impl Hinter for CliHelper {
    type Hint = String;
}

impl Highlighter for CliHelper {}

impl Validator for CliHelper {}

impl Helper for CliHelper {}

#[cfg(test)]
mod tests {
    use super::complete;

    fn names() -> Vec<String> {
        [
            "Keyspace1",
            "Keyspace1.Standard1",
            "Keyspace1.Super1",
            "Standard1",
            "Super1",
            "system",
        ]
        .map(String::from)
        .to_vec()
    }

    fn got(before: &str) -> (usize, Vec<String>) {
        complete(before, &names())
    }

    #[test]
    fn statement_keywords() {
        assert_eq!(got("s"), (0, vec!["set ".into(), "show ".into()]));
        assert_eq!(got("DE"), (0, vec!["del ".into(), "describe ".into()]));
        assert_eq!(
            got("show c"),
            (5, vec!["cluster ".into(), "config ".into()])
        );
        assert_eq!(got("show cluster "), (13, vec!["name ".into()]));
        assert_eq!(got("describe k"), (9, vec!["keyspace ".into()]));
        assert_eq!(got("list Standard1 l"), (15, vec!["limit ".into()]));
    }

    #[test]
    fn keyspace_and_column_family_names() {
        assert_eq!(got("use K"), (4, vec!["Keyspace1".into()]));
        assert_eq!(got("describe keyspace s"), (18, vec!["system".into()]));
        assert_eq!(
            got("get Keyspace1.S"),
            (
                4,
                vec!["Keyspace1.Standard1".into(), "Keyspace1.Super1".into()]
            )
        );
        assert_eq!(got("list Su"), (5, vec!["Super1".into()]));
    }

    #[test]
    fn any_whitespace_separates_words() {
        assert_eq!(got("use\u{3000}K"), (6, vec!["Keyspace1".into()]));
        assert_eq!(
            got("get\tKeyspace1.Su"),
            (4, vec!["Keyspace1.Super1".into()])
        );
    }

    #[test]
    fn nothing_inside_a_path_or_after_it() {
        assert_eq!(got("get Standard1['k"), (4, vec![]));
        assert_eq!(got("get Standard1['k'] "), (19, vec![]));
    }
}
