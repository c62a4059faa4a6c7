//! A scenario as a line of words and numbers, and back: how the page's two WebAssembly modules hand each
//! other a scenario a reader wrote (the later panels' module reads scripts; the page's draws their runs).
//! Not for people: scripts are (`script`). Every field is written, in a fixed order, so decoding needs no
//! parser of the scenario language; `decode(&encode(sc)) == Some(sc)` for every scenario.

use super::scenario::{
    Choice, Dur, Param, Release, Scenario, Service, Step, Switch, Worker, MAX_NODES, MAX_PARAMS, MAX_SWITCHES,
};

/// The first word: what follows, in which version of this form.
const HEAD: &str = "scenario/2";

/// Most workers and steps a decoded scenario may have (the script language allows far fewer): a bound, so
/// that nothing handed over can make the page allocate without end.
const MOST: usize = 64;

fn dur(d: Dur) -> String {
    match d {
        Dur::Ms(ms) => format!("m{ms}"),
        Dur::Param(i) => format!("p{i}"),
    }
}

fn flag(b: bool) -> &'static str {
    if b {
        "1"
    } else {
        "0"
    }
}

/// `sc` as one line of words.
pub fn encode(sc: &Scenario) -> String {
    let mut w: Vec<String> = vec![HEAD.into()];
    let mut put = |s: &str| w.push(s.to_owned());
    put(flag(sc.lease));
    put(flag(sc.fencing));
    put(&sc.ttl.to_string());
    put(&sc.first_token.to_string());
    put(if sc.release == Release::PlainDelete { "plain" } else { "compare" });
    put(&sc.lock_delay.to_string());
    put(flag(sc.register));
    match sc.service {
        Service::Single => put("single"),
        Service::Failover { crash, promote, sync } => {
            put("failover");
            put(&crash.to_string());
            put(&promote.to_string());
            put(flag(sync));
        }
        Service::Redlock { nodes, reach, jump_node, jump_at, jump, drift } => {
            put("redlock");
            put(&nodes.to_string());
            for r in reach {
                put(&r.to_string());
            }
            put(&jump_node.to_string());
            put(&jump_at.to_string());
            put(&dur(jump));
            put(&drift.to_string());
        }
        Service::Consensus { leader_crash, election } => {
            put("consensus");
            put(&leader_crash.map_or("-".into(), dur));
            put(&election.to_string());
        }
    }
    put(&sc.params.len().to_string());
    for p in &sc.params {
        put(&p.name);
        put(&p.value.to_string());
        put(&p.min.to_string());
        put(&p.max.to_string());
        put(flag(p.off));
    }
    put(&sc.drag.map_or("-".into(), |d| d.to_string()));
    put(&sc.workers.len().to_string());
    for worker in &sc.workers {
        w.push(worker.name.clone());
        steps(&mut w, &worker.steps);
    }
    w.push(sc.switches.len().to_string());
    for s in &sc.switches {
        w.extend([s.name.clone(), flag(s.on).into(), s.choices.len().to_string()]);
        for c in &s.choices {
            w.extend([c.worker.to_string(), c.at.to_string()]);
            steps(&mut w, &c.on);
            steps(&mut w, &c.off);
        }
    }
    w.join(" ")
}

/// `steps` as their count, then each step's word and its length if it has one.
fn steps(w: &mut Vec<String>, steps: &[Step]) {
    w.push(steps.len().to_string());
    for &step in steps {
        let (word, length) = match step {
            Step::Idle(d) => ("idle", Some(d)),
            Step::Acquire => ("acquire", None),
            Step::AcquireNoExpiry => ("acquire-no-expiry", None),
            Step::TryAcquire { retry } => ("try-acquire", Some(retry)),
            Step::Get => ("get", None),
            Step::Set => ("set", None),
            Step::Work(d) => ("work", Some(d)),
            Step::WorkUntil(d) => ("work-until", Some(d)),
            Step::Pause(d) => ("pause", Some(d)),
            Step::CheckLease => ("check-lease", None),
            Step::Write { delay } => ("write", Some(delay)),
            Step::Release => ("release", None),
            Step::Crash => ("crash", None),
        };
        w.push(word.into());
        if let Some(d) = length {
            w.push(dur(d));
        }
    }
}

/// The number `w` writes, if it fits a `T`.
pub fn number<T: TryFrom<u64>>(w: &str) -> Option<T> {
    w.parse::<u64>().ok()?.try_into().ok()
}

/// Reads words off a line, one at a time.
struct Words<'a>(std::str::SplitWhitespace<'a>);

impl<'a> Words<'a> {
    fn word(&mut self) -> Option<&'a str> {
        self.0.next()
    }

    /// A number of any width: one parser for all of them keeps the page's module small.
    fn num<T: TryFrom<u64>>(&mut self) -> Option<T> {
        number(self.word()?)
    }

    fn flag(&mut self) -> Option<bool> {
        match self.word()? {
            "1" => Some(true),
            "0" => Some(false),
            _ => None,
        }
    }

    fn count(&mut self) -> Option<usize> {
        self.num::<usize>().filter(|&n| n <= MOST)
    }

    fn steps(&mut self) -> Option<Vec<Step>> {
        let mut steps = Vec::new();
        for _ in 0..self.count()? {
            steps.push(match self.word()? {
                "idle" => Step::Idle(self.dur()?),
                "acquire" => Step::Acquire,
                "acquire-no-expiry" => Step::AcquireNoExpiry,
                "try-acquire" => Step::TryAcquire { retry: self.dur()? },
                "get" => Step::Get,
                "set" => Step::Set,
                "work" => Step::Work(self.dur()?),
                "work-until" => Step::WorkUntil(self.dur()?),
                "pause" => Step::Pause(self.dur()?),
                "check-lease" => Step::CheckLease,
                "write" => Step::Write { delay: self.dur()? },
                "release" => Step::Release,
                "crash" => Step::Crash,
                _ => return None,
            });
        }
        Some(steps)
    }

    fn dur(&mut self) -> Option<Dur> {
        let w = self.word()?;
        if let Some(ms) = w.strip_prefix('m') {
            return number(ms).map(Dur::Ms);
        }
        number::<u8>(w.strip_prefix('p')?).filter(|&i| usize::from(i) < MAX_PARAMS).map(Dur::Param)
    }
}

/// The scenario `line` stands for; `None` for anything [`encode`] did not write.
pub fn decode(line: &str) -> Option<Scenario> {
    let mut w = Words(line.split_whitespace());
    (w.word()? == HEAD).then_some(())?;
    let mut sc = Scenario::with_workers(Vec::new());
    sc.lease = w.flag()?;
    sc.fencing = w.flag()?;
    sc.ttl = w.num()?;
    sc.first_token = w.num()?;
    sc.release = match w.word()? {
        "plain" => Release::PlainDelete,
        "compare" => Release::CompareAndDelete,
        _ => return None,
    };
    sc.lock_delay = w.num()?;
    sc.register = w.flag()?;
    sc.service = match w.word()? {
        "single" => Service::Single,
        "failover" => Service::Failover { crash: w.num()?, promote: w.num()?, sync: w.flag()? },
        "redlock" => {
            let nodes = w.num::<usize>().filter(|&n| n <= MAX_NODES)?;
            let reach = [w.num()?, w.num()?, w.num()?];
            let jump_node = w.num::<usize>().filter(|&n| n < MAX_NODES)?;
            Service::Redlock { nodes, reach, jump_node, jump_at: w.num()?, jump: w.dur()?, drift: w.num()? }
        }
        "consensus" => {
            let leader_crash = match w.word()? {
                "-" => None,
                d => Some(Words(d.split_whitespace()).dur()?),
            };
            Service::Consensus { leader_crash, election: w.num()? }
        }
        _ => return None,
    };
    let params = w.count().filter(|&n| n <= MAX_PARAMS)?;
    for _ in 0..params {
        let name = w.word()?.to_owned();
        sc.params.push(Param { name, value: w.num()?, min: w.num()?, max: w.num()?, off: w.flag()? });
    }
    sc.drag = match w.word()? {
        "-" => None,
        d => Some(number::<u8>(d).filter(|&d| usize::from(d) < sc.params.len())?),
    };
    for _ in 0..w.count()? {
        let name = w.word()?.to_owned();
        sc.workers.push(Worker { name, steps: w.steps()? });
    }
    for _ in 0..w.count().filter(|&n| n <= MAX_SWITCHES)? {
        let (name, on) = (w.word()?.to_owned(), w.flag()?);
        let mut choices = Vec::new();
        for _ in 0..w.count()? {
            let (worker, at) = (w.num::<usize>()?, w.num::<usize>()?);
            let steps = &sc.workers.get(worker)?.steps;
            let (on_steps, off_steps) = (w.steps()?, w.steps()?);
            // The worker holds the steps of the present setting where the choice starts.
            let now = if on { &on_steps } else { &off_steps };
            (steps.get(at..at + now.len())? == &now[..]).then_some(())?;
            choices.push(Choice { worker, at, on: on_steps, off: off_steps });
        }
        sc.switches.push(Switch { name, on, choices });
    }
    w.word().is_none().then_some(sc)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::worker;

    #[test]
    fn a_scenario_comes_back_as_it_went() {
        let mut sc = Scenario::with_workers(vec![
            worker("A", [Step::Acquire, Step::Pause(Dur::Param(0)), Step::Write { delay: Dur::Ms(0) }]),
            worker("B", [Step::Idle(Dur::Ms(1_000)), Step::TryAcquire { retry: Dur::Ms(500) }, Step::Crash]),
        ]);
        sc.params.push(Param { name: "pause".into(), value: 15_000, min: 0, max: 30_000, off: false });
        sc.drag = Some(0);
        sc.service = Service::Consensus { leader_crash: Some(Dur::Ms(5_000)), election: 1_000 };
        assert_eq!(decode(&encode(&sc)), Some(sc.clone()));
        let (on, off) = (vec![Step::Acquire], vec![Step::AcquireNoExpiry, Step::Crash]);
        sc.switches.push(Switch {
            name: "atomic".into(),
            on: true,
            choices: vec![Choice { worker: 0, at: 0, on, off }],
        });
        assert_eq!(decode(&encode(&sc)), Some(sc.clone()));
        // A switch whose worker does not hold its present steps is refused.
        sc.switches[0].on = false;
        assert_eq!(decode(&encode(&sc)), None);
    }

    #[test]
    fn anything_else_is_refused() {
        let sc = Scenario::with_workers(vec![worker("A", [Step::Acquire])]);
        let line = encode(&sc);
        assert_eq!(decode(&line), Some(sc));
        for bad in ["", "scenario/2 1", &format!("{line} extra"), &line.replace("acquire", "steal")] {
            assert_eq!(decode(bad), None, "{bad}");
        }
        // A count past the bound is refused before anything is allocated for it.
        assert_eq!(decode(&line.replace(" 1 A ", " 99999999 A ")), None);
    }
}
