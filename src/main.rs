//! The `dipsandbox` binary: the command line in [`cli`], the terminal UI in the library's
//! `tui` module.

#![forbid(unsafe_code)]

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}
