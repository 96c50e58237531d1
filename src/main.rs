fn main() {
    // `pupcheck rules | head`: a closed pipe ends the process quietly, as it ends other
    // command-line tools, instead of making printing panic.
    #[cfg(unix)]
    // SAFETY: restoring the default action of a signal before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    std::process::exit(pupcheck::cli::main());
}
