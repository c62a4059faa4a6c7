//! Shared by the integration tests that run the `locksim` binary as a user would.

use std::process::Command;

/// Runs `locksim` with `args`: exit code, standard output, standard error.
pub fn locksim(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_locksim")).args(args).output().expect("locksim runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}
