//! The progress bar on stderr (indicatif). It stays hidden for the first second, so
//! short runs print nothing, and is cleared when the run ends.

use crate::check::Progress;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How long a run goes before the bar appears.
const DELAY: Duration = Duration::from_secs(1);

pub struct Bar {
    bar: ProgressBar,
    started: Instant,
    shown: AtomicBool,
}

impl Bar {
    pub fn new() -> Bar {
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
        bar.set_style(
            ProgressStyle::with_template(
                "{spinner} checking {pos}/{len} files [{bar:30}] {percent}% ({eta} left)",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
        );
        Bar {
            bar,
            started: Instant::now(),
            shown: AtomicBool::new(false),
        }
    }

    /// Removes the bar from the terminal.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

impl Default for Bar {
    fn default() -> Bar {
        Bar::new()
    }
}

impl Progress for Bar {
    fn found(&self, files: usize) {
        self.bar.set_length(files as u64);
    }

    fn checked(&self) {
        self.bar.inc(1);
        if self.started.elapsed() >= DELAY && !self.shown.swap(true, Ordering::Relaxed) {
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
            self.bar.enable_steady_tick(Duration::from_millis(100));
        }
    }
}
