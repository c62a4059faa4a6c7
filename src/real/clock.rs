//! One monotonic clock for the conductor and every worker, and the scale between real and scenario time.
//!
//! `std::time::Instant` reads `CLOCK_MONOTONIC` too, but its value cannot cross a process boundary; the raw
//! nanoseconds can, so the conductor hands every worker the same t = 0 and all stamps share one origin.

use std::time::Duration;

/// Nanoseconds of `CLOCK_MONOTONIC`: system-wide, never stepped.
pub fn now_ns() -> u64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `ts` is a valid, writable timespec; CLOCK_MONOTONIC always exists on Linux.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut ts) };
    u64::try_from(ts.tv_sec).unwrap_or(0) * 1_000_000_000 + u64::try_from(ts.tv_nsec).unwrap_or(0)
}

/// Sleeps until the clock reads `deadline_ns` (at once if it already has).
pub fn sleep_until(deadline_ns: u64) {
    let now = now_ns();
    if deadline_ns > now {
        std::thread::sleep(Duration::from_nanos(deadline_ns - now));
    }
}

/// Real time per scenario time: 0.1 makes a 10 s lease last 1 s.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Scale(pub f64);

impl Scale {
    /// Real nanoseconds for `ms` of scenario time.
    pub fn real_ns(self, ms: u64) -> u64 {
        (ms as f64 * 1e6 * self.0).round() as u64
    }

    /// Real whole milliseconds for `ms` of scenario time (what a Redis `PX` takes).
    pub fn real_ms(self, ms: u64) -> u64 {
        (ms as f64 * self.0).round() as u64
    }

    /// Scenario milliseconds for `ns` of real time, to the nearest.
    pub fn scenario_ms(self, ns: u64) -> u64 {
        (ns as f64 / 1e6 / self.0).round() as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scale_round_trips_and_rounds_to_the_nearest_ms() {
        let s = Scale(0.1);
        assert_eq!(s.real_ns(10_000), 1_000_000_000);
        assert_eq!(s.real_ms(10_000), 1_000);
        assert_eq!(s.scenario_ms(s.real_ns(15_000)), 15_000);
        // 1.04 ms real is 10.4 ms of scenario time; 1.06 ms is 10.6.
        assert_eq!(s.scenario_ms(1_040_000), 10);
        assert_eq!(s.scenario_ms(1_060_000), 11);
    }

    #[test]
    fn the_clock_moves_forward() {
        let a = now_ns();
        sleep_until(a + 2_000_000);
        assert!(now_ns() >= a + 2_000_000);
    }
}
