//! The `dipsandbox` binary: the command line (the library's `cli` module) with the built-in
//! engines; the terminal UI is the library's `tui` module.

#![forbid(unsafe_code)]

fn main() -> std::process::ExitCode {
    dipsandbox::cli::main()
}
