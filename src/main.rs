// See Cargo.toml: the allocator is an eighth of a check's time with glibc's.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    // `pupcheck rules | head`: a closed pipe ends the process quietly, as it ends other
    // command-line tools, instead of making printing panic.
    #[cfg(unix)]
    // SAFETY: restoring the default action of a signal before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    // SAFETY: no tree-sitter parser or tree exists yet, and no other thread.
    unsafe {
        pupcheck::syntax::allocator::use_mimalloc();
    }
    let code = pupcheck::cli::main();
    // What Rust buffered is written; then the process ends without the C library's exit
    // handlers. mimalloc's would first hand back, page by page, all the memory the run
    // touched (a twentieth of the check of a large file), which the kernel takes back
    // at once anyway. (The tables thread, if still reading, ends with the process, as
    // `exit` would end it.)
    let _ = std::io::Write::flush(&mut std::io::stdout());
    let _ = std::io::Write::flush(&mut std::io::stderr());
    // Then what the run added to the cache on disk (after the output, which a pipe's
    // reader then has first).
    pupcheck::cache::flush();
    // SAFETY: `_exit` only ends the process; nothing after it runs.
    unsafe { libc::_exit(code) }
}
