//! The preload library that makes one Redis server's wall clock jump (`clockshift/lib.rs`, whose comment
//! says why not libfaketime), built from the project's own source into the run's directory.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::Failure;

/// The library's source: one file, no dependencies.
const SOURCE: &str = include_str!("clockshift/lib.rs");

/// The environment variable that names the file holding the shift in ms.
pub const FILE_VAR: &str = "CLOCKSHIFT_FILE";

/// Compiles the library into `dir` with the toolchain that built the project (`RUSTC`, or `rustc` on
/// `PATH`) and writes a shift of 0 beside it. The library's path and the shift file's.
pub fn build(dir: &Path) -> Result<(PathBuf, PathBuf), Failure> {
    let src = dir.join("clockshift.rs");
    let lib = dir.join("libclockshift.so");
    let shift = dir.join("clockshift.ms");
    let io = |what: &'static str| move |e: std::io::Error| Failure::Broken(format!("clockshift {what}: {e}"));
    std::fs::write(&src, SOURCE).map_err(io("source"))?;
    std::fs::write(&shift, "0").map_err(io("file"))?;
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let out = Command::new(rustc)
        .args(["--edition", "2021", "--crate-type", "cdylib", "-C", "opt-level=2", "-C", "panic=abort"])
        .args(["-C", "debuginfo=0", "-o"])
        .arg(&lib)
        .arg(&src)
        .output()
        .map_err(|_| Failure::Missing("rustc"))?;
    if !out.status.success() {
        return Err(Failure::Broken(format!("clockshift: {}", String::from_utf8_lossy(&out.stderr).trim())));
    }
    Ok((lib, shift))
}

/// Moves the wall clock of the server started with the library by `ms` from now on.
pub fn set(shift: &Path, ms: u64) -> std::io::Result<()> {
    // Written whole in one write(2) of a few bytes: the server's pread sees the old or the new number.
    std::fs::write(shift, ms.to_string())
}
