//! Scenario to text: the canonical script of any scenario, which [`super::parse`] reads back as the same
//! scenario. Named values are declared first (`value pause 15s`), in their order, and used by name.

use std::fmt::Write;

use crate::sim::{Dur, Ms, Release, Scenario, Service, Step, MAX_PAUSE};

/// A duration as a script writes it: `15s`, `1.5s`, `13.333s`, `500ms`.
pub fn duration(ms: Ms) -> String {
    match ms {
        0 => "0s".to_owned(),
        ms if ms % 1_000 == 0 => format!("{}s", ms / 1_000),
        ms if ms >= 1_000 || ms % 100 == 0 => {
            let frac = format!("{:03}", ms % 1_000);
            format!("{}.{}s", ms / 1_000, frac.trim_end_matches('0'))
        }
        ms => format!("{ms}ms"),
    }
}

fn on(b: bool) -> &'static str {
    if b {
        "on"
    } else {
        "off"
    }
}

/// The script of `sc`.
pub fn print(sc: &Scenario) -> String {
    let mut out = String::new();
    let dur = |d: Dur| match d {
        Dur::Ms(ms) => duration(ms),
        Dur::Param(i) => format!("{{{}}}", sc.params.get(usize::from(i)).map_or("?", |p| p.name.as_str())),
    };
    for p in &sc.params {
        let value = if p.value == 0 && p.off { "off".to_owned() } else { duration(p.value) };
        let _ = write!(out, "value {} {value}", p.name);
        if (p.min, p.max) != (0, p.value.max(MAX_PAUSE)) {
            let _ = write!(out, ", range {}..{}", duration(p.min), duration(p.max));
        }
        out.push('\n');
    }
    match sc.drag {
        Some(0) => {}
        Some(i) => {
            let _ =
                writeln!(out, "drag {}", sc.params.get(usize::from(i)).map_or("none", |p| p.name.as_str()));
        }
        None if !sc.params.is_empty() => out.push_str("drag none\n"),
        None => {}
    }
    for s in &sc.switches {
        let _ = writeln!(out, "switch {} {}", s.name, on(s.on));
    }
    let _ = writeln!(out, "lease {}", duration(sc.ttl));
    let _ = writeln!(out, "expiry {}", on(sc.lease));
    let _ = writeln!(out, "fencing {}", on(sc.fencing));
    if sc.first_token != 33 {
        let _ = writeln!(out, "first-token {}", sc.first_token);
    }
    if sc.release == Release::PlainDelete {
        out.push_str("release plain\n");
    }
    if sc.lock_delay > 0 {
        let _ = writeln!(out, "lock-delay {}", duration(sc.lock_delay));
    }
    if sc.register {
        out.push_str("register on\n");
    }
    match sc.service {
        Service::Single => {}
        Service::Failover { crash, promote, sync } => {
            let _ = writeln!(
                out,
                "service failover, crash {}, promote {}, wait {}",
                duration(crash),
                duration(promote),
                on(sync)
            );
        }
        Service::Redlock { nodes, reach, jump_node, jump_at, jump, drift } => {
            let _ = write!(out, "service redlock, servers {nodes}, drift {}", duration(drift));
            if (jump_node, jump_at, jump) != (0, 0, Dur::Ms(0)) {
                let _ = write!(out, ", jump N{} at {} by {}", jump_node + 1, duration(jump_at), dur(jump));
            }
            out.push('\n');
            let all = ((1u16 << nodes.min(8)) - 1) as u8;
            for (w, mask) in reach.iter().enumerate() {
                let Some(worker) = sc.workers.get(w) else { continue };
                if *mask != all {
                    let servers: Vec<String> =
                        (0..8).filter(|n| mask & (1 << n) != 0).map(|n| format!("N{}", n + 1)).collect();
                    let servers = if servers.is_empty() { "none".to_owned() } else { servers.join(", ") };
                    let _ = writeln!(out, "reach {}: {servers}", worker.name);
                }
            }
        }
        Service::Consensus { leader_crash, election } => {
            let _ = write!(out, "service consensus, election {}", duration(election));
            if let Some(d) = leader_crash {
                let _ = write!(out, ", leader-crash {}", dur(d));
            }
            out.push('\n');
        }
    }
    let step = |s: &Step| match *s {
        Step::Idle(d) => format!("idle {}", dur(d)),
        Step::Acquire => "acquire".to_owned(),
        Step::AcquireNoExpiry => "acquire without expiry".to_owned(),
        Step::TryAcquire { retry } => format!("try-acquire every {}", dur(retry)),
        Step::Get => "get".to_owned(),
        Step::Set => "set".to_owned(),
        Step::Work(d) => format!("work {}", dur(d)),
        Step::WorkUntil(d) => format!("work until {}", dur(d)),
        Step::Pause(d) => format!("pause {}", dur(d)),
        Step::CheckLease => "check lease".to_owned(),
        Step::Write { delay: Dur::Ms(0) } => "write".to_owned(),
        Step::Write { delay } => format!("write delay {}", dur(delay)),
        Step::Release => "release".to_owned(),
        Step::Crash => "crash".to_owned(),
    };
    let list = |steps: &[Step]| steps.iter().map(step).collect::<Vec<_>>().join(", ");
    for (i, w) in sc.workers.iter().enumerate() {
        let choice = (sc.switches.iter())
            .find_map(|s| s.choices.iter().find(|c| c.worker == i).map(|c| (s, c)))
            .filter(|(s, c)| c.at + if s.on { c.on.len() } else { c.off.len() } <= w.steps.len());
        let items: Vec<String> = match choice {
            None => w.steps.iter().map(step).collect(),
            Some((s, c)) => {
                let end = c.at + if s.on { c.on.len() } else { c.off.len() };
                let group = format!("{{{}? {} | {}}}", s.name, list(&c.on), list(&c.off));
                (w.steps[..c.at].iter().map(step))
                    .chain([group.replace("?  |", "? |").replace("| }", "|}")])
                    .chain(w.steps[end..].iter().map(step))
                    .collect()
            }
        };
        let _ = writeln!(out, "{}: {}", w.name, items.join(", "));
    }
    out
}
