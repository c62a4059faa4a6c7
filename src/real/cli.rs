//! `locksim real` on the command line: the checks before anything starts, and the exit codes (the output
//! itself is [`RealRun::text`](super::RealRun::text) or [`RealRun::json`](super::RealRun::json)).

use std::io;
use std::process::ExitCode;

use super::clock::Scale;
use super::{backends, conductor, runs, Backend, Failure};
use crate::scenarios::{Inputs, ScenarioId};

/// The smallest and largest time scale (2: at half speed, as `register-token` runs on etcd).
const SCALES: (f64, f64) = (0.01, 2.0);

/// Checks the backend, the scale and the pair before anything starts.
pub fn check(
    id: ScenarioId,
    inputs: &Inputs,
    backend: Option<&str>,
    scale: Option<&str>,
) -> Result<(Backend, Scale), Failure> {
    let names = Backend::ALL.map(Backend::name).join("|");
    let backend = backend.ok_or_else(|| Failure::Usage(format!("locksim real needs --backend {names}")))?;
    let backend = Backend::ALL
        .into_iter()
        .find(|b| b.name() == backend.trim())
        .ok_or_else(|| Failure::Usage(format!("--backend {backend:?} is not one of {names}")))?;
    let scale = match scale {
        None => backend.default_scale(id),
        Some(s) => {
            s.trim().parse::<f64>().ok().filter(|s| (SCALES.0..=SCALES.1).contains(s)).ok_or_else(|| {
                Failure::Usage(format!("--scale {s:?} is not a number from {} to {}", SCALES.0, SCALES.1))
            })?
        }
    };
    if id == ScenarioId::LockDelay {
        return Err(Failure::Usage(format!(
            "{} has no real run: no lock service packaged for Debian offers lock-delay (Chubby, which \
             defined it, is not public; Consul, whose sessions have it, is not in Debian; Redis, etcd and \
             ZooKeeper free an expired lock at once)",
            id.id()
        )));
    }
    if !backends(id).contains(&backend) {
        return Err(Failure::Usage(format!(
            "{} has no real run on {}; real runs: {}",
            id.id(),
            backend.name(),
            runs()
        )));
    }
    let sc = id.build(inputs);
    let real_ttl = sc.ttl as f64 * scale;
    if backend == Backend::Etcd && (real_ttl < 1000.0 || (real_ttl / 1000.0).fract().abs() > 1e-9) {
        return Err(Failure::Usage(format!(
            "etcd leases are whole seconds: ttl {} ms at scale {scale} is {} ms",
            sc.ttl, real_ttl
        )));
    }
    if real_ttl < 1.0 || (real_ttl - real_ttl.round()).abs() > 1e-9 {
        return Err(Failure::Usage(format!(
            "ttl {} ms at scale {scale} is not a whole number of real ms",
            sc.ttl
        )));
    }
    Ok((backend, Scale(scale)))
}

/// `locksim real`: runs, prints, and says how it went as an exit code (2: bad arguments, an unsupported
/// pair or a missing server; 1: a failure on the way; 128 + the signal when interrupted).
pub fn main(
    id: ScenarioId,
    inputs: &Inputs,
    json: bool,
    backend: Option<&str>,
    scale: Option<&str>,
    usage: &str,
) -> ExitCode {
    let result = check(id, inputs, backend, scale)
        .and_then(|(backend, scale)| conductor::conduct(id, inputs, backend, scale, &mut io::stderr()));
    match result {
        Ok(run) => {
            use std::io::Write;
            let text = if json { run.json() } else { run.text() };
            let _ = io::stdout().write_all(text.as_bytes());
            ExitCode::SUCCESS
        }
        Err(f) => exit(f, usage),
    }
}

/// Says why a real run (`locksim real` or `locksim check`) gave no result, and the exit code for it.
pub fn exit(failure: Failure, usage: &str) -> ExitCode {
    match blamed(failure, conductor::caught()) {
        Failure::Usage(msg) => {
            eprintln!("locksim: {msg}\n{usage}");
            ExitCode::from(2)
        }
        Failure::Missing(binary) => {
            eprintln!(
                "locksim: {binary} is not installed; run scripts/setup.sh --real (it installs the servers \
                 locksim real starts with apt: redis-server, etcd, zookeeper and java)"
            );
            ExitCode::from(2)
        }
        Failure::Untimed { max_jitter, bound } => {
            eprintln!(
                "locksim: the run could not keep its timing: an event came {max_jitter} ms (scenario time) \
                 from its simulated time, over the bound of {bound} ms (a tenth of the lease), so it gives no \
                 verdict; try a larger --scale"
            );
            ExitCode::from(1)
        }
        Failure::Interrupted => {
            let signal = conductor::caught().unwrap_or(libc::SIGINT);
            eprintln!("locksim: interrupted (signal {signal}); everything it started is stopped");
            ExitCode::from(u8::try_from(128 + signal).unwrap_or(1))
        }
        Failure::Broken(msg) => {
            eprintln!("locksim: real run failed: {msg}");
            ExitCode::from(1)
        }
    }
}

/// What ended the run, given the signal caught (if any): a signal that arrives during a blocking call makes
/// that call fail (EINTR, "Interrupted system call") before the conductor's next check sees the signal, so
/// a run that broke or lost its timing once a signal was caught was ended by the signal.
fn blamed(failure: Failure, caught: Option<i32>) -> Failure {
    match failure {
        Failure::Broken(_) | Failure::Untimed { .. } if caught.is_some() => Failure::Interrupted,
        f => f,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failure_after_a_caught_signal_is_the_signal_s() {
        let eintr =
            || Failure::Broken("stopping the replica: redis: Interrupted system call (os error 4)".into());
        assert!(matches!(blamed(eintr(), Some(libc::SIGTERM)), Failure::Interrupted));
        assert!(matches!(
            blamed(Failure::Untimed { max_jitter: 9, bound: 1 }, Some(2)),
            Failure::Interrupted
        ));
        // Without a signal, a failure is its own; bad arguments are never the signal's.
        assert!(matches!(blamed(eintr(), None), Failure::Broken(_)));
        assert!(matches!(blamed(Failure::Usage("x".into()), Some(15)), Failure::Usage(_)));
        assert!(matches!(blamed(Failure::Missing("etcd"), Some(15)), Failure::Missing(_)));
    }
}
