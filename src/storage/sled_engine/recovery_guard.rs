//! sled 0.34 panics instead of returning an error on some damaged stores (found by the
//! power-cut harness: `tried to serialize Uninitialized` while it rebuilds its page table
//! from a log that lost writes). A store's bytes must never panic the server, so opening
//! runs under [`without_panic`]: a panic there becomes an error carrying its message, and
//! the message is kept off stderr so the refusal reads as one clear line.

use std::cell::{Cell, RefCell};
use std::panic::{self, AssertUnwindSafe};
use std::sync::Once;

thread_local! {
    /// Set while this thread runs under [`without_panic`].
    static GUARDED: Cell<bool> = const { Cell::new(false) };
    /// The message of a panic caught under [`without_panic`].
    static CAUGHT: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Runs `f`, returning the message of a panic in it as an error. Panics elsewhere, on other
/// threads or outside the guard, are reported by the hook that was installed before.
pub(super) fn without_panic<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if GUARDED.with(Cell::get) {
                let what = match info.payload().downcast_ref::<&str>() {
                    Some(s) => (*s).to_string(),
                    None => match info.payload().downcast_ref::<String>() {
                        Some(s) => s.clone(),
                        None => "a panic".to_string(),
                    },
                };
                let place = info
                    .location()
                    .map(|l| format!(" at {}:{}", l.file(), l.line()))
                    .unwrap_or_default();
                CAUGHT.with(|c| *c.borrow_mut() = Some(format!("{what}{place}")));
            } else {
                previous(info);
            }
        }));
    });
    let was = GUARDED.with(|g| g.replace(true));
    let ran = panic::catch_unwind(AssertUnwindSafe(f));
    GUARDED.with(|g| g.set(was));
    ran.map_err(|_| {
        CAUGHT
            .with(|c| c.borrow_mut().take())
            .unwrap_or_else(|| "a panic".to_string())
    })
}

#[cfg(test)]
mod tests {
    use super::without_panic;

    #[test]
    fn a_panic_becomes_its_message_and_later_code_runs_unguarded() {
        let err = without_panic(|| -> u8 { panic!("tried to serialize {}", "Uninitialized") })
            .unwrap_err();
        assert!(
            err.starts_with("tried to serialize Uninitialized at "),
            "{err}"
        );
        assert!(err.contains("recovery_guard.rs"), "{err}");
        assert_eq!(without_panic(|| 7), Ok(7));
        // Outside the guard a panic still unwinds as before.
        assert!(std::panic::catch_unwind(|| panic!("outside")).is_err());
    }
}
