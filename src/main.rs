fn main() {
    std::process::exit(pupcheck::cli::main());
}
