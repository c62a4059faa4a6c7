//! Text to scenario: one line at a time, each a setting, a named value or a worker.

use super::error::{Error, Expect, Problem};
use super::lex::{tokens, Spanned, Tok};
use super::limits;
use crate::sim::{
    Choice, Dur, Ms, Param, Release, Scenario, Service, Step, Switch, Worker, MAX_NODES, MAX_PARAMS,
    MAX_PAUSE, MAX_SWITCHES,
};

const SETTINGS: &[&str] = &[
    "lease",
    "expiry",
    "fencing",
    "first-token",
    "release",
    "lock-delay",
    "register",
    "service",
    "reach",
    "drag",
    "value",
    "switch",
];
const STEPS: &[&str] =
    &["acquire", "try-acquire", "get", "set", "work", "idle", "pause", "check", "write", "release", "crash"];
const SERVICES: &[&str] = &["single", "failover", "redlock", "consensus"];

/// The scenario a script describes, or what is wrong with it. Never panics, whatever the text.
pub fn parse(text: &str) -> Result<Scenario, Error> {
    let chars = text.chars().count();
    if chars > limits::CHARS {
        return Err(Error { line: 0, col: 0, problem: Problem::TooLong(chars) });
    }
    let mut st = State::default();
    for (i, line) in super::lex::lines(text).enumerate() {
        let toks = tokens(line, i + 1)?;
        if toks.is_empty() {
            continue;
        }
        let mut cur = Cursor { toks, at: 0, line: i + 1, end: line.chars().count() + 1 };
        st.line(&mut cur)?;
    }
    st.finish()
}

#[derive(Default)]
struct State {
    sc: Option<Scenario>,
    workers: Vec<Worker>,
    params: Vec<Param>,
    /// Named switches, with the parts of programs each picks.
    switches: Vec<Switch>,
    /// Named values used where 0 means "off" (a leader crash).
    off: Vec<usize>,
    seen: Vec<&'static str>,
    /// `reach NAME: …` lines: (worker, servers, line, column).
    reach: Vec<(String, u8, usize, usize)>,
    /// `drag NAME|none`: (name, line, column).
    drag: Option<(Option<String>, usize, usize)>,
    /// What has no meaning with some lock service, where it was written: (what, line, column).
    limited: Vec<(&'static str, usize, usize)>,
}

struct Cursor {
    toks: Vec<Spanned>,
    at: usize,
    line: usize,
    end: usize,
}

impl Cursor {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.at).map(|s| &s.tok)
    }

    fn col(&self) -> usize {
        self.toks.get(self.at).map_or(self.end, |s| s.col)
    }

    fn error(&self, problem: Problem) -> Error {
        Error { line: self.line, col: self.col(), problem }
    }

    fn expected(&self, expected: Expect, words: &[&'static str]) -> Error {
        let found = match self.peek() {
            None => String::new(),
            Some(Tok::Word(w)) | Some(Tok::Num(w)) => w.clone(),
            Some(Tok::Punct('.')) => "..".to_owned(),
            Some(Tok::Punct(c)) => c.to_string(),
        };
        let nearest = nearest(&found, words);
        self.error(Problem::Expected { expected, found, nearest })
    }

    /// The next word, lower-cased, if it is one of `words`.
    fn one_of(&mut self, expected: Expect, words: &[&'static str]) -> Result<&'static str, Error> {
        if let Some(Tok::Word(w)) = self.peek() {
            if let Some(found) = words.iter().find(|k| k.eq_ignore_ascii_case(w)) {
                self.at += 1;
                return Ok(found);
            }
        }
        Err(self.expected(expected, words))
    }

    fn keyword(&mut self, word: &'static str) -> Result<(), Error> {
        self.one_of(Expect::Word(word), &[word]).map(|_| ())
    }

    /// Takes the next word if it is `word`, in any case.
    fn word(&mut self, word: &str) -> bool {
        let here = matches!(self.peek(), Some(Tok::Word(w)) if w.eq_ignore_ascii_case(word));
        self.at += usize::from(here);
        here
    }

    fn eat(&mut self, c: char) -> bool {
        let here = self.peek() == Some(&Tok::Punct(c));
        self.at += usize::from(here);
        here
    }

    fn punct(&mut self, c: char, expected: Expect) -> Result<(), Error> {
        if self.eat(c) {
            Ok(())
        } else {
            Err(self.expected(expected, &[]))
        }
    }

    fn end(&self) -> Result<(), Error> {
        match self.peek() {
            None => Ok(()),
            Some(_) => Err(self.expected(Expect::End, &[])),
        }
    }

    fn on_off(&mut self) -> Result<bool, Error> {
        Ok(self.one_of(Expect::OnOff, &["on", "off"])? == "on")
    }

    fn name(&mut self) -> Result<String, Error> {
        match self.peek() {
            Some(Tok::Word(w)) if w.starts_with(|c: char| c.is_ascii_lowercase() || c == '_') => {
                if w.chars().count() > limits::NAME {
                    return Err(self.error(Problem::LongName));
                }
                let w = w.clone();
                self.at += 1;
                Ok(w)
            }
            _ => Err(self.expected(Expect::Name, &[])),
        }
    }

    /// A whole number from `min` to `max`: one range, said the same whichever end is passed.
    fn number(&mut self, min: u64, max: u64) -> Result<u64, Error> {
        match self.peek() {
            Some(Tok::Num(n)) if n.chars().all(|c| c.is_ascii_digit()) => {
                let v = n.parse::<u64>().ok().filter(|v| (min..=max).contains(v));
                let v = v.ok_or_else(|| self.error(Problem::Count { value: n.clone(), min, max }))?;
                self.at += 1;
                Ok(v)
            }
            _ => Err(self.expected(Expect::Number, &[])),
        }
    }

    /// A plain duration (`15s`, `1.5s`, `500ms`) up to [`limits::DURATION`].
    fn duration(&mut self) -> Result<Ms, Error> {
        self.duration_from(0)
    }

    /// A plain duration from `min` up to [`limits::DURATION`]: one range, said the same whichever end is
    /// passed.
    fn duration_from(&mut self, min: Ms) -> Result<Ms, Error> {
        let Some(Tok::Num(text)) = self.peek() else { return Err(self.expected(Expect::Duration, &[])) };
        let ms = ms_of(text).ok_or_else(|| {
            // Well formed but with more digits than any duration here: out of range, as written.
            let digits = text.find(|c: char| !c.is_ascii_digit()).unwrap_or(text.len());
            let problem = if digits > 9 && text.get(digits - 9..).and_then(ms_of).is_some() {
                Problem::HugeDuration { text: text.clone(), min, max: limits::DURATION }
            } else {
                Problem::Duration(text.clone())
            };
            self.error(problem)
        })?;
        if !(min..=limits::DURATION).contains(&ms) {
            return Err(self.error(Problem::OutOfRange { value: ms, min, max: limits::DURATION }));
        }
        self.at += 1;
        Ok(ms)
    }

    /// A duration or `off` (0).
    fn duration_or_off(&mut self) -> Result<Ms, Error> {
        if self.word("off") {
            return Ok(0);
        }
        match self.peek() {
            Some(Tok::Num(_)) => self.duration(),
            _ => Err(self.expected(Expect::OffOrDuration, &["off"])),
        }
    }
}

/// `15s`, `1.5s`, `0.25s`, `500ms` (units in any case) in ms; `None` for anything else (no unit, a decimal of ms, more than
/// three decimals, too many digits).
fn ms_of(text: &str) -> Option<Ms> {
    let (number, unit) = text.split_at(text.find(|c: char| c.is_ascii_alphabetic())?);
    let (whole, frac) = number.split_once('.').unwrap_or((number, ""));
    if whole.is_empty() || whole.len() > 9 || frac.len() > 3 {
        return None;
    }
    let whole: Ms = whole.parse().ok()?;
    match &*unit.to_ascii_lowercase() {
        "ms" if frac.is_empty() => Some(whole),
        "s" => {
            let frac: Ms = if frac.is_empty() { 0 } else { format!("{frac:0<3}").parse().ok()? };
            Some(whole * 1_000 + frac)
        }
        _ => None,
    }
}

/// The word of `words` nearest to `found` (at most two edits away, and fewer than its length).
pub fn nearest(found: &str, words: &[&'static str]) -> Option<&'static str> {
    let found = found.to_lowercase();
    if found.is_empty() {
        return None;
    }
    // A word half typed is the start of the shortest word it begins (if no other as short does).
    let mut begun: Vec<&'static str> =
        words.iter().copied().filter(|w| found.len() >= 2 && w.starts_with(&found)).collect();
    begun.sort_by_key(|w| w.len());
    if let [first, rest @ ..] = &begun[..] {
        if rest.first().is_none_or(|r| r.len() > first.len()) {
            return Some(first);
        }
    }
    let best = words.iter().map(|w| (edits(&found, w), *w)).min()?;
    (best.0 <= 2 && best.0 < found.chars().count()).then_some(best.1)
}

/// Levenshtein distance.
fn edits(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let here = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(here + 1);
            prev = here;
        }
    }
    row[b.len()]
}

fn base() -> Scenario {
    Scenario::with_workers(Vec::new())
}

impl State {
    fn sc(&mut self) -> &mut Scenario {
        self.sc.get_or_insert_with(base)
    }

    fn line(&mut self, cur: &mut Cursor) -> Result<(), Error> {
        // A worker: `A: step, step, …`.
        if let (Some(Tok::Word(w)), Some(Tok::Punct(':'))) = (cur.peek(), cur.toks.get(1).map(|s| &s.tok)) {
            if !SETTINGS.iter().any(|s| s.eq_ignore_ascii_case(w)) {
                return self.worker(cur);
            }
        }
        // A worker's name without its colon ("A acquire"): the colon is what is missing, where it goes.
        if let (Some(Tok::Word(w)), Some(Tok::Word(_))) = (cur.peek(), cur.toks.get(1).map(|s| &s.tok)) {
            if w.starts_with(|c: char| c.is_ascii_uppercase())
                && !SETTINGS.iter().any(|s| s.eq_ignore_ascii_case(w))
            {
                cur.at += 1;
                return Err(cur.expected(Expect::Colon, &[]));
            }
        }
        let setting = cur.one_of(Expect::SettingOrWorker, SETTINGS)?;
        if !matches!(setting, "value" | "reach" | "switch") {
            if self.seen.contains(&setting) {
                return Err(Error { line: cur.line, col: 1, problem: Problem::Twice(setting.to_owned()) });
            }
            self.seen.push(setting);
        }
        match setting {
            "lease" => {
                // A lease of no time could never be held.
                self.sc().ttl = cur.duration_from(1)?;
            }
            "expiry" => {
                let on = cur.on_off()?;
                self.sc().lease = on;
                self.limited_if(!on, "expiry off", cur.line, 1);
            }
            "fencing" => {
                let on = cur.on_off()?;
                self.sc().fencing = on;
                self.limited_if(on, "fencing on", cur.line, 1);
            }
            "register" => {
                let on = cur.on_off()?;
                self.sc().register = on;
                self.limited_if(on, "register on", cur.line, 1);
            }
            "first-token" => self.sc().first_token = cur.number(0, limits::FIRST_TOKEN)?,
            "release" => {
                let plain = cur.one_of(Expect::Release, &["compare", "plain"])? == "plain";
                self.sc().release = if plain { Release::PlainDelete } else { Release::CompareAndDelete };
                self.limited_if(plain, "release plain", cur.line, 1);
            }
            "lock-delay" => {
                let delay = cur.duration_or_off()?;
                self.sc().lock_delay = delay;
                self.limited_if(delay > 0, "lock-delay", cur.line, 1);
            }
            "service" => self.service(cur)?,
            "reach" => self.reach(cur)?,
            "drag" => {
                let col = cur.col();
                let name = if cur.word("none") { None } else { Some(cur.name()?) };
                self.drag = Some((name, cur.line, col));
            }
            "switch" => {
                let col = cur.col();
                let name = cur.name()?;
                let on = cur.on_off()?;
                self.unique(cur, col, &name)?;
                if self.switches.len() >= MAX_SWITCHES {
                    return Err(Error { line: cur.line, col, problem: Problem::TooManySwitches });
                }
                self.switches.push(Switch { name, on, choices: Vec::new() });
            }
            _ => self.value(cur)?,
        }
        cur.end()
    }

    /// `value NAME DUR|off [, range DUR..DUR]`.
    fn value(&mut self, cur: &mut Cursor) -> Result<(), Error> {
        let col = cur.col();
        let name = cur.name()?;
        let value = cur.duration_or_off()?;
        let (min, max) = if cur.eat(',') {
            cur.keyword("range")?;
            let min = cur.duration()?;
            cur.punct('.', Expect::Range)?;
            let col = cur.col();
            let max = cur.duration()?;
            if max < min {
                return Err(Error {
                    line: cur.line,
                    col,
                    problem: Problem::OutOfRange { value: max, min, max: limits::DURATION },
                });
            }
            (min, max)
        } else {
            (0, value.max(MAX_PAUSE))
        };
        if !(min..=max).contains(&value) {
            return Err(Error { line: cur.line, col, problem: Problem::OutOfRange { value, min, max } });
        }
        self.define(cur, col, name, value, min, max).map(|_| ())
    }

    fn define(
        &mut self,
        cur: &Cursor,
        col: usize,
        name: String,
        value: Ms,
        min: Ms,
        max: Ms,
    ) -> Result<u8, Error> {
        self.unique(cur, col, &name)?;
        if self.params.len() >= MAX_PARAMS {
            return Err(Error { line: cur.line, col, problem: Problem::TooManyNamed });
        }
        self.params.push(Param { name, value, min, max, off: false });
        Ok((self.params.len() - 1) as u8)
    }

    /// Refuses `name` if a named value or a switch already has it.
    fn unique(&self, cur: &Cursor, col: usize, name: &str) -> Result<(), Error> {
        if self.params.iter().any(|p| p.name == name) || self.switches.iter().any(|s| s.name == name) {
            return Err(Error { line: cur.line, col, problem: Problem::Duplicate(name.to_owned()) });
        }
        Ok(())
    }

    /// A duration, or a named value: `{name=15s}` defines it, `{name}` uses it.
    fn dur(&mut self, cur: &mut Cursor) -> Result<Dur, Error> {
        if !cur.eat('{') {
            return match cur.peek() {
                Some(Tok::Num(_)) => cur.duration().map(Dur::Ms),
                _ => Err(cur.expected(Expect::Duration, &[])),
            };
        }
        let col = cur.col();
        let name = cur.name()?;
        let index = if cur.eat('=') {
            let value = cur.duration_or_off()?;
            self.define(cur, col, name, value, 0, value.max(MAX_PAUSE))?
        } else if let Some(i) = self.params.iter().position(|p| p.name == name) {
            i as u8
        } else if cur.peek() == Some(&Tok::Punct('}')) {
            return Err(Error { line: cur.line, col, problem: Problem::Undefined(name) });
        } else {
            return Err(cur.expected(Expect::EqualsOrClose, &[]));
        };
        cur.punct('}', Expect::Close)?;
        Ok(Dur::Param(index))
    }

    fn worker(&mut self, cur: &mut Cursor) -> Result<(), Error> {
        let col = cur.col();
        let Some(Tok::Word(name)) = cur.peek().cloned() else {
            return Err(cur.expected(Expect::Worker, &[]));
        };
        if !name.starts_with(|c: char| c.is_ascii_uppercase()) {
            return Err(cur.expected(Expect::SettingOrWorker, SETTINGS));
        }
        if name.chars().count() > limits::NAME {
            return Err(cur.error(Problem::LongName));
        }
        if self.workers.iter().any(|w| w.name == name) {
            return Err(Error { line: cur.line, col, problem: Problem::Duplicate(name) });
        }
        if self.workers.len() >= limits::WORKERS {
            return Err(Error { line: cur.line, col, problem: Problem::TooManyWorkers });
        }
        cur.at += 2;
        let mut steps = Vec::new();
        loop {
            if steps.len() >= limits::STEPS {
                return Err(cur.error(Problem::TooManySteps(name)));
            }
            if cur.eat('{') {
                self.choice(cur, &name, &mut steps)?;
                if steps.len() > limits::STEPS {
                    return Err(cur.error(Problem::TooManySteps(name)));
                }
            } else {
                steps.push(self.step(cur)?);
            }
            if cur.peek().is_none() {
                break;
            }
            cur.punct(',', Expect::Comma)?;
        }
        self.workers.push(Worker { name, steps });
        Ok(())
    }

    /// `{name? steps | steps}` (its `{` already read): the steps the switch picks, on or off, added to
    /// `steps` as the switch is set now.
    fn choice(&mut self, cur: &mut Cursor, worker: &str, steps: &mut Vec<Step>) -> Result<(), Error> {
        let col = cur.col();
        let name = cur.name()?;
        let Some(i) = self.switches.iter().position(|s| s.name == name) else {
            return Err(Error { line: cur.line, col, problem: Problem::NoSwitch(name) });
        };
        let w = self.workers.len();
        if self.switches.iter().any(|s| s.choices.iter().any(|c| c.worker == w)) {
            return Err(Error { line: cur.line, col, problem: Problem::TwoChoices(worker.to_owned()) });
        }
        cur.punct('?', Expect::Question)?;
        let on = self.branch(cur, worker, '|', Expect::CommaOrBar)?;
        let off = self.branch(cur, worker, '}', Expect::CommaOrClose)?;
        let at = steps.len();
        steps.extend(if self.switches[i].on { &on } else { &off });
        self.switches[i].choices.push(Choice { worker: w, at, on, off });
        Ok(())
    }

    /// The steps of one part of a choice, up to and with `end`; none if `end` comes first.
    fn branch(
        &mut self,
        cur: &mut Cursor,
        worker: &str,
        end: char,
        expect: Expect,
    ) -> Result<Vec<Step>, Error> {
        let mut steps = Vec::new();
        while !cur.eat(end) {
            if steps.len() >= limits::STEPS {
                return Err(cur.error(Problem::TooManySteps(worker.to_owned())));
            }
            if !steps.is_empty() {
                cur.punct(',', expect)?;
            }
            steps.push(self.step(cur)?);
        }
        Ok(steps)
    }

    /// Notes that `what`, written at `line`, `col`, is refused if the service turns out to be one it has no
    /// meaning for.
    fn limited_if(&mut self, yes: bool, what: &'static str, line: usize, col: usize) {
        if yes {
            self.limited.push((what, line, col));
        }
    }

    fn step(&mut self, cur: &mut Cursor) -> Result<Step, Error> {
        let (line, col) = (cur.line, cur.col());
        Ok(match cur.one_of(Expect::Step, STEPS)? {
            "acquire" => {
                if cur.word("without") {
                    cur.keyword("expiry")?;
                    self.limited_if(true, "acquire without expiry", line, col);
                    Step::AcquireNoExpiry
                } else {
                    Step::Acquire
                }
            }
            "try-acquire" => {
                cur.keyword("every")?;
                let col = cur.col();
                let retry = self.dur(cur)?;
                // A named value used here ranges from the step's own least value up (issue #37).
                let value = match retry {
                    Dur::Ms(ms) => ms,
                    Dur::Param(i) => self.params.get_mut(usize::from(i)).map_or(0, |p| {
                        p.min = p.min.max(limits::RETRY);
                        p.value
                    }),
                };
                if value < limits::RETRY {
                    let problem = Problem::OutOfRange { value, min: limits::RETRY, max: limits::DURATION };
                    return Err(Error { line: cur.line, col, problem });
                }
                Step::TryAcquire { retry }
            }
            "get" => {
                self.limited_if(true, "get", line, col);
                Step::Get
            }
            "set" => {
                self.limited_if(true, "set", line, col);
                Step::Set
            }
            "release" => Step::Release,
            "crash" => Step::Crash,
            "check" => {
                cur.keyword("lease")?;
                Step::CheckLease
            }
            "work" => {
                if cur.word("until") {
                    Step::WorkUntil(self.dur(cur)?)
                } else {
                    Step::Work(self.dur(cur)?)
                }
            }
            "idle" => Step::Idle(self.dur(cur)?),
            "pause" => Step::Pause(self.dur(cur)?),
            _ => {
                let delay = if cur.word("delay") { self.dur(cur)? } else { Dur::Ms(0) };
                Step::Write { delay }
            }
        })
    }

    /// `service single | failover, … | redlock, … | consensus, …`.
    fn service(&mut self, cur: &mut Cursor) -> Result<(), Error> {
        let service = match cur.one_of(Expect::Service, SERVICES)? {
            "single" => Service::Single,
            "failover" => {
                let (mut crash, mut promote, mut sync) = (500, 2_000, false);
                while cur.eat(',') {
                    match cur.one_of(Expect::Word("crash"), &["crash", "promote", "wait"])? {
                        "crash" => crash = cur.duration()?,
                        "promote" => promote = cur.duration()?,
                        _ => sync = cur.on_off()?,
                    }
                }
                Service::Failover { crash, promote, sync }
            }
            "redlock" => {
                let (mut nodes, mut drift, mut jump) = (MAX_NODES, 0, (0, 0, Dur::Ms(0)));
                let mut jump_col = 0;
                while cur.eat(',') {
                    match cur.one_of(Expect::Word("servers"), &["servers", "drift", "jump"])? {
                        "servers" => {
                            nodes = cur.number(1, MAX_NODES as u64)? as usize;
                        }
                        "drift" => drift = cur.duration()?,
                        _ => {
                            jump_col = cur.col();
                            let node = server(cur)?;
                            cur.keyword("at")?;
                            let at = cur.duration()?;
                            cur.keyword("by")?;
                            jump = (node, at, self.dur(cur)?);
                        }
                    }
                }
                if jump.0 >= nodes {
                    let problem = Problem::Unknown(format!("N{}", jump.0 + 1));
                    return Err(Error { line: cur.line, col: jump_col, problem });
                }
                let all = ((1u16 << nodes) - 1) as u8;
                Service::Redlock {
                    nodes,
                    reach: [all; 3],
                    jump_node: jump.0,
                    jump_at: jump.1,
                    jump: jump.2,
                    drift,
                }
            }
            _ => {
                let (mut election, mut leader_crash) = (1_000, None);
                while cur.eat(',') {
                    match cur.one_of(Expect::Word("election"), &["election", "leader-crash"])? {
                        "election" => election = cur.duration()?,
                        _ => {
                            leader_crash = if cur.word("off") {
                                None
                            } else {
                                let d = self.dur(cur)?;
                                if let Dur::Param(i) = d {
                                    self.off.push(usize::from(i));
                                }
                                Some(d)
                            };
                        }
                    }
                }
                Service::Consensus { leader_crash, election }
            }
        };
        self.sc().service = service;
        Ok(())
    }

    /// `reach A: N1, N2, N3` (Redlock: the servers a worker reaches).
    fn reach(&mut self, cur: &mut Cursor) -> Result<(), Error> {
        let col = cur.col();
        let Some(Tok::Word(name)) = cur.peek().cloned() else {
            return Err(cur.expected(Expect::Worker, &[]));
        };
        cur.at += 1;
        cur.punct(':', Expect::Colon)?;
        let mut mask = 0u8;
        if !cur.word("none") {
            loop {
                mask |= 1 << server(cur)?;
                if !cur.eat(',') {
                    break;
                }
            }
        }
        self.reach.push((name, mask, cur.line, col));
        Ok(())
    }

    fn finish(mut self) -> Result<Scenario, Error> {
        if self.workers.is_empty() {
            return Err(Error { line: 0, col: 0, problem: Problem::NoWorkers });
        }
        let mut sc = self.sc.take().unwrap_or_else(base);
        for i in self.off {
            if let Some(p) = self.params.get_mut(i) {
                p.off = true;
            }
        }
        sc.drag = match self.drag {
            None => (!self.params.is_empty()).then_some(0),
            Some((None, ..)) => None,
            Some((Some(name), line, col)) => match self.params.iter().position(|p| p.name == name) {
                Some(i) => Some(i as u8),
                None => return Err(Error { line, col, problem: Problem::Unknown(name) }),
            },
        };
        // Redlock: every key has its ttl and is set with SET NX; consensus: each worker's own key in a queue;
        // failover: Redis, which has no lock-delay.
        let (service, refused): (_, fn(&str) -> bool) = match sc.service {
            Service::Redlock { .. } => ("redlock", |_| true),
            Service::Consensus { .. } => {
                ("consensus", |what| matches!(what, "get" | "set" | "release plain"))
            }
            Service::Failover { .. } => ("failover", |what| what == "lock-delay"),
            Service::Single => ("", |_| false),
        };
        if let Some(&(what, line, col)) = self.limited.iter().find(|u| refused(u.0)) {
            return Err(Error { line, col, problem: Problem::NotWith(what, service) });
        }
        // Redlock's values are random: a write carries no token, which a fencing storage would refuse
        // (rule 6), so fencing is off without a line (and `fencing on` is refused above).
        if service == "redlock" && !self.seen.contains(&"fencing") {
            sc.fencing = false;
        }
        for (name, mask, line, col) in self.reach {
            let Service::Redlock { nodes, ref mut reach, .. } = sc.service else {
                return Err(Error { line, col: 1, problem: Problem::NotForService("reach") });
            };
            let Some(w) = self.workers.iter().position(|w| w.name == name) else {
                return Err(Error { line, col, problem: Problem::Unknown(name) });
            };
            if w >= reach.len() {
                return Err(Error { line, col, problem: Problem::ReachWorker(name) });
            }
            if mask >> nodes != 0 {
                let problem = Problem::Unknown(format!("N{}", 8 - mask.leading_zeros()));
                return Err(Error { line, col, problem });
            }
            reach[w] = mask;
        }
        sc.params = self.params;
        sc.workers = self.workers;
        sc.switches = self.switches;
        Ok(sc)
    }
}

/// `N1` … `N5`, as an index.
fn server(cur: &mut Cursor) -> Result<usize, Error> {
    if let Some(Tok::Word(w)) = cur.peek() {
        let n = w.strip_prefix(['N', 'n']).and_then(|d| d.parse::<usize>().ok());
        if let Some(n) = n.filter(|n| (1..=MAX_NODES).contains(n)) {
            cur.at += 1;
            return Ok(n - 1);
        }
    }
    Err(cur.expected(Expect::Server, &["N1", "N2", "N3", "N4", "N5"]))
}
