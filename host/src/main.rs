fn main() {
    // A closed pipe (`nonohost solve FILE | head -1`) ends the program
    // quietly, as for any Unix filter, instead of a panic in println!.
    #[cfg(unix)]
    // SAFETY: called before any other thread exists; SIG_DFL is always valid.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    std::process::exit(nonohost::cli::run(std::env::args_os()));
}
