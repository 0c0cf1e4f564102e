fn main() {
    std::process::exit(nonohost::cli::run(std::env::args_os()));
}
