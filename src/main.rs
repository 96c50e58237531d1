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
    std::process::exit(pupcheck::cli::main());
}
