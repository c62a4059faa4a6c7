//! A preload library that moves one process's wall clock: `LD_PRELOAD=libclockshift.so
//! CLOCKSHIFT_FILE=PATH redis-server …` adds to `CLOCK_REALTIME` (and so to `gettimeofday`) the
//! milliseconds written, as decimal text, in the file at PATH, read afresh at every call. The `redlock`
//! run writes N3's jump there, and Redis itself, which expires keys by its wall clock, then expires them
//! early.
//!
//! Not a module of the crate: `locksim real` compiles this one file with `rustc --crate-type cdylib` into
//! the run's directory ([`super::clockshift`]). Debian's libfaketime hangs Debian's redis-server (its lazy
//! `dlsym` set-up allocates inside jemalloc's own first `clock_gettime`), so this library does only what is
//! async-signal- and allocation-safe: the real time from the raw syscall (no `dlsym`, no vDSO lookup), the
//! file opened once with `open` and read with `pread`, nothing allocated. No std calls either, so nothing
//! of Rust's runtime runs inside the server.

use std::ffi::{c_char, c_int, c_long, c_void};
use std::sync::atomic::{AtomicI32, Ordering};

#[repr(C)]
pub struct Timespec {
    tv_sec: i64,
    tv_nsec: i64,
}

#[repr(C)]
pub struct Timeval {
    tv_sec: i64,
    tv_usec: i64,
}

extern "C" {
    fn syscall(number: c_long, ...) -> c_long;
    fn getenv(name: *const c_char) -> *const c_char;
    fn open(path: *const c_char, flags: c_int, ...) -> c_int;
    fn pread(fd: c_int, buf: *mut c_void, count: usize, offset: i64) -> isize;
}

#[cfg(target_arch = "x86_64")]
const SYS_CLOCK_GETTIME: c_long = 228;
#[cfg(target_arch = "aarch64")]
const SYS_CLOCK_GETTIME: c_long = 113;

const CLOCK_REALTIME: c_int = 0;
const CLOCK_REALTIME_COARSE: c_int = 5;
const O_RDONLY_CLOEXEC: c_int = 0o2000000;

/// The file's descriptor: −2 before the first call, −1 without a file.
static FD: AtomicI32 = AtomicI32::new(-2);

/// The shift in milliseconds that the file says now (0 without a file or with nothing readable in it).
unsafe fn shift_ms() -> i64 {
    let mut fd = FD.load(Ordering::Relaxed);
    if fd == -2 {
        let path = getenv(c"CLOCKSHIFT_FILE".as_ptr());
        fd = if path.is_null() { -1 } else { open(path, O_RDONLY_CLOEXEC) };
        FD.store(fd.max(-1), Ordering::Relaxed);
    }
    if fd < 0 {
        return 0;
    }
    let mut buf = [0_u8; 24];
    let n = pread(fd, buf.as_mut_ptr().cast(), buf.len(), 0);
    let mut ms: i64 = 0;
    let mut sign = 1;
    for (i, &b) in buf.iter().take(usize::try_from(n).unwrap_or(0)).enumerate() {
        match b {
            b'-' if i == 0 => sign = -1,
            b'0'..=b'9' => ms = ms.saturating_mul(10).saturating_add(i64::from(b - b'0')),
            _ => break,
        }
    }
    sign * ms
}

/// # Safety
/// As `clock_gettime(2)`: `ts` points to a writable timespec.
#[no_mangle]
pub unsafe extern "C" fn clock_gettime(clock: c_int, ts: *mut Timespec) -> c_int {
    let r = syscall(SYS_CLOCK_GETTIME, c_long::from(clock), ts) as c_int;
    if r == 0 && !ts.is_null() && (clock == CLOCK_REALTIME || clock == CLOCK_REALTIME_COARSE) {
        let ns = (*ts).tv_sec * 1_000_000_000 + (*ts).tv_nsec + shift_ms() * 1_000_000;
        (*ts).tv_sec = ns.div_euclid(1_000_000_000);
        (*ts).tv_nsec = ns.rem_euclid(1_000_000_000);
    }
    r
}

/// # Safety
/// As `gettimeofday(2)`: `tv` is null or points to a writable timeval; the time zone is ignored.
#[no_mangle]
pub unsafe extern "C" fn gettimeofday(tv: *mut Timeval, _tz: *mut c_void) -> c_int {
    let mut ts = Timespec { tv_sec: 0, tv_nsec: 0 };
    let r = clock_gettime(CLOCK_REALTIME, &mut ts);
    if r == 0 && !tv.is_null() {
        (*tv).tv_sec = ts.tv_sec;
        (*tv).tv_usec = ts.tv_nsec / 1_000;
    }
    r
}
