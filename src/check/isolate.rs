//! One file's failure is that file's finding, never the run's: a panic while parsing,
//! checking or fixing a file becomes an `internal-error` diagnostic on it (with the
//! panic's message and where it happened, and a request to report it), and every other
//! file is reported as usual, as ruff does.

use crate::diagnostics::{rule_ids, Diagnostic};
use crate::source::Span;
use std::cell::{Cell, RefCell};
use std::panic::{self, AssertUnwindSafe};
use std::sync::Once;

thread_local! {
    /// Inside `catch_file_panic` on this thread: the panic hook records instead of
    /// printing.
    static ISOLATING: Cell<bool> = const { Cell::new(false) };
    /// The message and place of the last panic caught on this thread.
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

static HOOK: Once = Once::new();

/// Installs (once) a panic hook that records panics inside `catch_file_panic` and
/// leaves the others to the default hook.
fn install_hook() {
    HOOK.call_once(|| {
        let default = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if ISOLATING.with(Cell::get) {
                let place = info
                    .location()
                    .map(|l| format!(" at {}:{}", l.file(), l.line()))
                    .unwrap_or_default();
                let payload = info.payload();
                let message = payload
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "a panic".to_string());
                LAST_PANIC.with(|p| *p.borrow_mut() = Some(format!("{message}{place}")));
            } else {
                default(info);
            }
        }));
    });
}

/// Runs `work` on one file; a panic in it becomes the `internal-error` diagnostic.
pub fn catch_file_panic<T>(work: impl FnOnce() -> T) -> Result<T, Diagnostic> {
    catch_part_panic(work).map_err(|what| {
        Diagnostic::error(
            rule_ids::INTERNAL_ERROR,
            Span::at(0),
            format!(
                "pupcheck failed on this file ({what}); its other findings are unknown, the \
                 other files were checked. Please report this with the file"
            ),
        )
    })
}

/// Runs `work`, all or part of one file's work (on whichever thread runs it): a panic
/// in it is recorded, not printed, and given back as its message and place.
pub fn catch_part_panic<T>(work: impl FnOnce() -> T) -> Result<T, String> {
    install_hook();
    let was = ISOLATING.with(|i| i.replace(true));
    let result = panic::catch_unwind(AssertUnwindSafe(work));
    ISOLATING.with(|i| i.set(was));
    result.map_err(|_| {
        LAST_PANIC
            .with(|p| p.borrow_mut().take())
            .unwrap_or_else(|| "a panic".to_string())
    })
}

/// Raises again, on the thread running the file's [`catch_file_panic`], a panic
/// [`catch_part_panic`] caught on another thread: the file's finding names it as it was.
pub fn resume_part_panic(what: String) -> ! {
    LAST_PANIC.with(|p| *p.borrow_mut() = Some(what));
    panic::resume_unwind(Box::new("a part of the file's work panicked"))
}

/// In debug builds only, a way for tests to make checking a file panic: set
/// `PUPCHECK_TEST_PANIC_MARKER` and put its value in the file.
pub fn panic_if_marked(text: &str) {
    if cfg!(debug_assertions) {
        if let Ok(marker) = std::env::var("PUPCHECK_TEST_PANIC_MARKER") {
            if !marker.is_empty() && text.contains(&marker) {
                panic!("the test panic marker was found");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_in_a_part_on_another_thread_is_the_files_internal_error_as_it_was() {
        let caught = catch_file_panic(|| {
            let part = std::thread::spawn(|| catch_part_panic(|| panic!("a rule's bug")))
                .join()
                .expect("caught on its thread");
            if let Err(what) = part {
                resume_part_panic(what);
            }
        });
        let finding = caught.expect_err("the file's internal error");
        assert_eq!(finding.rule, rule_ids::INTERNAL_ERROR);
        assert!(
            finding
                .message
                .contains("(a rule's bug at src/check/isolate.rs:"),
            "{}",
            finding.message
        );
    }
}
