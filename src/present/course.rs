//! Courses: steps of a short passage, a run and a task whose goal the core decides (`docs/courses.md`).
//!
//! Plain data and functions, tested without a browser (`tests/course.rs`): [`parse`] reads a course file
//! (errors with line and column, in English and Japanese), [`grade`] decides an answer from the core's
//! outcomes (never from what the page shows), [`answer`] is the core's own answer (a search over the step's
//! named values within stated [`Bounds`]), and [`check`] is what `locksim course` refuses a course for. The
//! page's second module draws a course from these (`app::course`); `locksim course` prints one.

use crate::present::params::{Lang, Query};
use crate::script;
use crate::sim::explore::{self, Dim, Explorer};
use crate::sim::{self, Ms, OutcomeKind, Scenario};

/// The course built into the page: through the source article, in its order (`course=builtin`).
pub const BUILTIN: &str = include_str!("course/source.course");

/// How many steps the built-in course has (counted without reading it: its `step` lines).
pub fn builtin_steps() -> usize {
    BUILTIN.lines().filter(|l| l.trim() == "step").count()
}

/// Limits a course is held to, so a course from a link can never make the page slow.
pub mod limits {
    /// The longest course, in characters.
    pub const CHARS: usize = 40_000;
    /// Most steps.
    pub const STEPS: usize = 24;
    /// The longest line, in characters.
    pub const LINE: usize = 1_000;
    /// The longest course id.
    pub const ID: usize = 40;
    /// Most points a search of one step runs for one choice of switches: its grid is made coarser until
    /// it fits.
    pub const GRID: u64 = 40_000;
}

/// A text in both languages; a course may give only one, which then stands for both.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Words {
    /// English.
    pub en: String,
    /// Japanese.
    pub ja: String,
}

impl Words {
    /// The text in `lang`, or in the other language if the course gives only that.
    pub fn get(&self, lang: Lang) -> &str {
        let (want, other) = match lang {
            Lang::En => (&self.en, &self.ja),
            Lang::Ja => (&self.ja, &self.en),
        };
        if want.is_empty() {
            other
        } else {
            want
        }
    }

    fn is_empty(&self) -> bool {
        self.en.is_empty() && self.ja.is_empty()
    }

    fn add(&mut self, ja: bool, text: &str) {
        let s = if ja { &mut self.ja } else { &mut self.en };
        if !s.is_empty() {
            s.push(if ja { '\n' } else { ' ' });
        }
        s.push_str(text);
    }
}

/// What a step asks for, decided by the core.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// Predict the outcome of the run as given (the page's own prediction, counted).
    Predict,
    /// Drag or switch until the run's outcome is this one.
    Reach(OutcomeKind),
    /// With the switches as given, find a state whose outcome is this one (`None`: any that harms the data
    /// or stops the system).
    Find(Option<OutcomeKind>),
    /// Switch on the fewest devices (lease expiry, fencing) so that no value of the run's named values within
    /// the search's bounds harms the data or stops the system.
    Prove,
}

impl Goal {
    /// The goal as a course writes it: `predict`, `reach fenced`, `find`, `find unfenced-gap`, `prove`.
    pub fn name(self) -> String {
        match self {
            Goal::Predict => "predict".into(),
            Goal::Reach(k) => format!("reach {}", k.name()),
            Goal::Find(None) => "find".into(),
            Goal::Find(Some(k)) => format!("find {}", k.name()),
            Goal::Prove => "prove".into(),
        }
    }

    /// Whether `kind` is what this goal looks for.
    fn wants(self, kind: OutcomeKind) -> bool {
        match self {
            Goal::Reach(k) | Goal::Find(Some(k)) => kind == k,
            Goal::Find(None) => failed(kind),
            Goal::Predict | Goal::Prove => false,
        }
    }
}

/// Whether a run went wrong: it harmed the data or stopped the system.
pub fn failed(kind: OutcomeKind) -> bool {
    kind.unsafe_data() || kind.liveness_lost()
}

/// One step of a course.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// Its title.
    pub title: Words,
    /// The passage, in the course's own words.
    pub text: Words,
    /// Where in the source the passage comes from.
    pub cite: Words,
    /// The run the step opens with, as a script.
    pub script: String,
    /// The script's scenario.
    pub scenario: Scenario,
    /// What the reader is asked to do.
    pub task: Words,
    /// What the core checks.
    pub goal: Goal,
    /// Said after a wrong try.
    pub hint: Words,
    /// The line the step starts at.
    pub line: usize,
}

/// A course.
#[derive(Clone, Debug, PartialEq)]
pub struct Course {
    /// Its id: where its progress is kept, and what progress messages name.
    pub id: String,
    /// Its title.
    pub title: Words,
    /// Its steps, at least one.
    pub steps: Vec<Step>,
}

/// A course that does not read: where, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// The line, from 1 (0: the course as a whole).
    pub line: usize,
    /// The column in characters, from 1 (0: the whole line).
    pub col: usize,
    /// What is wrong.
    pub problem: Problem,
}

/// What is wrong with a course, as data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// A line that starts with no word a course knows; the nearest one, if one is near.
    Word(String, Option<&'static str>),
    /// A step's line before the first `step`.
    BeforeStep(&'static str),
    /// Something given twice (in one step, or in the course's head).
    Twice(&'static str),
    /// A step without `what` (`task`, `goal`, `scenario` or `script`); its line.
    Missing(&'static str),
    /// A step with both a scenario and a script.
    Both,
    /// `goal` followed by something else than `predict`, `reach`, `find` or `prove`.
    Goal(String, Option<&'static str>),
    /// A name where an outcome was expected (`reach` needs one).
    Outcome(String, Option<&'static str>),
    /// `scenario` naming no scenario of the catalogue, or with a bad value (the page's own message, in
    /// English and Japanese).
    Scenario(String, String),
    /// The script does not read (its message; the error's line and column are the course's).
    Script(String, String),
    /// A course id that is not letters, digits and `-` (up to [`limits::ID`]).
    Id(String),
    /// Longer than [`limits::CHARS`].
    TooLong(usize),
    /// A line longer than [`limits::LINE`].
    LongLine,
    /// More than [`limits::STEPS`] steps.
    TooManySteps,
    /// No step at all.
    NoSteps,
    /// Text on a line where nothing may follow.
    Trailing(String),
}

const WORDS: [&str; 10] =
    ["course", "title", "step", "text", "cite", "scenario", "script", "task", "goal", "hint"];
const GOALS: [&str; 4] = ["predict", "reach", "find", "prove"];

impl Error {
    /// The message in English: `line 7, column 6: expected a goal (…), found "rech" (did you mean "reach"?)`.
    pub fn en(&self) -> String {
        let place = script::place(self.line, self.col, false);
        let mean = |n: &Option<&str>| n.map(|n| format!(" (did you mean \"{n}\"?)")).unwrap_or_default();
        let said = match &self.problem {
            Problem::Word(f, n) => format!("expected one of {}, found \"{f}\"{}", WORDS.join(", "), mean(n)),
            Problem::BeforeStep(w) => {
                format!("\"{w}\" belongs to a step: write \"step\" on a line before it")
            }
            Problem::Twice(w) => format!("\"{w}\" is given twice"),
            Problem::Missing(w) => format!("this step has no \"{w}\""),
            Problem::Both => "a step opens one run: a scenario or a script, not both".into(),
            Problem::Goal(f, n) => {
                format!("expected a goal ({}), found \"{f}\"{}", GOALS.join(", "), mean(n))
            }
            Problem::Outcome(f, n) => {
                format!("expected an outcome ({}), found \"{f}\"{}", outcome_names().join(", "), mean(n))
            }
            Problem::Scenario(en, _) | Problem::Script(en, _) => en.clone(),
            Problem::Id(f) => format!(
                "a course id is letters, digits and \"-\", at most {} characters; found \"{f}\"",
                limits::ID
            ),
            Problem::TooLong(n) => {
                format!("the course has {n} characters; a course has at most {}", limits::CHARS)
            }
            Problem::LongLine => format!("a line has at most {} characters", limits::LINE),
            Problem::TooManySteps => format!("a course has at most {} steps", limits::STEPS),
            Problem::NoSteps => "the course has no step: a step begins with a line \"step\"".into(),
            Problem::Trailing(f) => format!("nothing may follow here, found \"{f}\""),
        };
        place + &said
    }

    /// The message in Japanese.
    pub fn ja(&self) -> String {
        let place = script::place(self.line, self.col, true);
        let mean = |n: &Option<&str>| n.map(|n| format!("（「{n}」のことですか？）")).unwrap_or_default();
        let said = match &self.problem {
            Problem::Word(f, n) => {
                format!("{} のどれかが来るはずの所に「{f}」があります{}", WORDS.join("、"), mean(n))
            }
            Problem::BeforeStep(w) => {
                format!("「{w}」はステップの中に書きます。前の行に「step」を書いてください")
            }
            Problem::Twice(w) => format!("「{w}」が二度書かれています"),
            Problem::Missing(w) => format!("このステップには「{w}」がありません"),
            Problem::Both => {
                "一つのステップが開く実行は一つです。scenario か script のどちらかにしてください".into()
            }
            Problem::Goal(f, n) => {
                format!("目標（{}）が来るはずの所に「{f}」があります{}", GOALS.join("、"), mean(n))
            }
            Problem::Outcome(f, n) => format!(
                "結末の名前（{}）が来るはずの所に「{f}」があります{}",
                outcome_names().join("、"),
                mean(n)
            ),
            Problem::Scenario(_, ja) | Problem::Script(_, ja) => ja.clone(),
            Problem::Id(f) => {
                format!("コースの id は英字・数字・「-」で {} 文字までです。「{f}」は使えません", limits::ID)
            }
            Problem::TooLong(n) => {
                format!("コースが {n} 文字あります。コースは {} 文字までです", limits::CHARS)
            }
            Problem::LongLine => format!("1行は {} 文字までです", limits::LINE),
            Problem::TooManySteps => format!("ステップは {} 個までです", limits::STEPS),
            Problem::NoSteps => "ステップがありません。ステップは「step」の行で始まります".into(),
            Problem::Trailing(f) => format!("ここには何も続けられません。「{f}」があります"),
        };
        place + &said
    }

    /// The message in `lang`.
    pub fn said(&self, lang: Lang) -> String {
        match lang {
            Lang::En => self.en(),
            Lang::Ja => self.ja(),
        }
    }
}

fn outcome_names() -> Vec<&'static str> {
    OutcomeKind::ALL.map(OutcomeKind::name).to_vec()
}

/// A step being read.
#[derive(Default)]
struct Draft {
    line: usize,
    title: Words,
    text: Words,
    cite: Words,
    task: Words,
    hint: Words,
    goal: Option<Goal>,
    /// The scenario line's state, printed as a script, and its line.
    scenario: Option<(String, usize)>,
    /// The script's lines, and the line its block starts at.
    script: Option<(Vec<String>, usize)>,
}

/// Reads a course. A bad one is an [`Error`] naming the line and column.
pub fn parse(text: &str) -> Result<Course, Error> {
    let at = |line: usize, col: usize, problem: Problem| Error { line, col, problem };
    let chars = text.chars().count();
    if chars > limits::CHARS {
        return Err(at(0, 0, Problem::TooLong(chars)));
    }
    let mut id = None::<String>;
    let mut title = Words::default();
    let mut steps: Vec<Step> = Vec::new();
    let mut draft = None::<Draft>;
    let lines: Vec<&str> = text.lines().collect();
    let mut n = 0;
    while n < lines.len() {
        let (line, raw) = (n + 1, lines[n]);
        n += 1;
        if raw.chars().count() > limits::LINE {
            return Err(at(line, limits::LINE + 1, Problem::LongLine));
        }
        let trimmed = raw.trim_start();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let col = raw.chars().count() - trimmed.chars().count() + 1;
        let (word, rest) = trimmed.split_once(char::is_whitespace).unwrap_or((trimmed, ""));
        let lower = word.to_lowercase();
        // `text ja …`: the line's Japanese.
        let rest = rest.trim();
        let (ja, said) = match rest.split_once(char::is_whitespace) {
            Some((l, s)) if l.eq_ignore_ascii_case("ja") => (true, s.trim()),
            Some((l, s)) if l.eq_ignore_ascii_case("en") => (false, s.trim()),
            _ if rest.eq_ignore_ascii_case("ja") || rest.eq_ignore_ascii_case("en") => (false, ""),
            _ => (false, rest),
        };
        let rest_col = col + word.chars().count() + 1;
        match lower.as_str() {
            "course" => {
                if id.is_some() {
                    return Err(at(line, col, Problem::Twice("course")));
                }
                let ok = !rest.is_empty()
                    && rest.len() <= limits::ID
                    && rest.chars().all(|c| c.is_ascii_alphanumeric() || c == '-');
                if !ok {
                    return Err(at(line, rest_col, Problem::Id(short(rest))));
                }
                id = Some(rest.to_owned());
            }
            "step" => {
                if !rest.is_empty() {
                    return Err(at(line, rest_col, Problem::Trailing(short(rest))));
                }
                if let Some(d) = draft.take() {
                    steps.push(finish(d)?);
                }
                if steps.len() >= limits::STEPS {
                    return Err(at(line, col, Problem::TooManySteps));
                }
                draft = Some(Draft { line, ..Draft::default() });
            }
            "title" if draft.is_none() => title.add(ja, said),
            "title" | "text" | "cite" | "task" | "hint" | "goal" | "scenario" | "script" => {
                let word: &'static str = WORDS.into_iter().find(|w| *w == lower).unwrap_or("step");
                let Some(d) = draft.as_mut() else {
                    return Err(at(line, col, Problem::BeforeStep(word)));
                };
                match word {
                    "title" => d.title.add(ja, said),
                    "text" => d.text.add(ja, said),
                    "cite" => d.cite.add(ja, said),
                    "task" => d.task.add(ja, said),
                    "hint" => d.hint.add(ja, said),
                    "goal" => {
                        if d.goal.is_some() {
                            return Err(at(line, col, Problem::Twice("goal")));
                        }
                        d.goal = Some(goal(rest, line, rest_col)?);
                    }
                    "scenario" => {
                        if d.scenario.is_some() {
                            return Err(at(line, col, Problem::Twice("scenario")));
                        }
                        d.scenario = Some((scenario(rest, line, rest_col)?, line));
                    }
                    _ => {
                        if d.script.is_some() {
                            return Err(at(line, col, Problem::Twice("script")));
                        }
                        if !rest.is_empty() {
                            return Err(at(line, rest_col, Problem::Trailing(short(rest))));
                        }
                        // The script: the indented lines that follow (blank lines inside it kept).
                        let mut block = Vec::new();
                        while n < lines.len() {
                            let l = lines[n];
                            if !(l.starts_with(' ') || l.starts_with('\t') || l.trim().is_empty()) {
                                break;
                            }
                            if l.chars().count() > limits::LINE {
                                return Err(at(n + 1, limits::LINE + 1, Problem::LongLine));
                            }
                            block.push(l.to_owned());
                            n += 1;
                        }
                        while block.last().is_some_and(|l| l.trim().is_empty()) {
                            block.pop();
                        }
                        d.script = Some((block, line));
                    }
                }
            }
            _ => {
                let nearest = script::nearest(word, &WORDS);
                return Err(at(line, col, Problem::Word(short(word), nearest)));
            }
        }
    }
    if let Some(d) = draft.take() {
        steps.push(finish(d)?);
    }
    if steps.is_empty() {
        return Err(at(0, 0, Problem::NoSteps));
    }
    let id = id.unwrap_or_else(|| format!("course-{:08x}", fnv(text)));
    Ok(Course { id, title, steps })
}

/// A found value cut short for a message.
fn short(s: &str) -> String {
    let mut out: String = s.chars().take(24).collect();
    if s.chars().count() > 24 {
        out.push('…');
    }
    out
}

/// FNV-1a of `text`: an id for a course that names none (its progress is kept under it).
fn fnv(text: &str) -> u32 {
    text.bytes().fold(0x811c_9dc5, |h, b| (h ^ u32::from(b)).wrapping_mul(0x0100_0193))
}

fn goal(rest: &str, line: usize, col: usize) -> Result<Goal, Error> {
    let words = super::words(rest);
    let word = |i: usize| words.get(i).map(|&(at, w)| (col + at, w));
    let (first, second) = (word(0).map_or("", |(_, w)| w), word(1).map(|(_, w)| w));
    let second_col = word(1).map_or(col, |(at, _)| at);
    let err = |col, p| Err(Error { line, col, problem: p });
    if let Some((at, extra)) = word(2) {
        return err(at, Problem::Trailing(short(extra)));
    }
    let outcome = |name: &str| {
        OutcomeKind::from_name(&name.to_lowercase()).ok_or_else(|| Error {
            line,
            col: second_col,
            problem: Problem::Outcome(
                short(name),
                script::nearest(name, &OutcomeKind::ALL.map(|k| k.name())),
            ),
        })
    };
    match (first.to_lowercase().as_str(), second) {
        ("predict", None) => Ok(Goal::Predict),
        ("prove", None) => Ok(Goal::Prove),
        ("reach", Some(k)) => Ok(Goal::Reach(outcome(k)?)),
        ("reach", None) => err(col + first.len() + 1, Problem::Outcome(String::new(), None)),
        ("find", k) => Ok(Goal::Find(k.map(outcome).transpose()?)),
        ("predict" | "prove", Some(extra)) => err(second_col, Problem::Trailing(short(extra))),
        _ => err(col, Problem::Goal(short(first), script::nearest(first, &GOALS))),
    }
}

/// `scenario ID key=value …`: the catalogue's state, printed as its script.
fn scenario(rest: &str, line: usize, col: usize) -> Result<String, Error> {
    // Each setting with its own column, where a problem with it is told.
    let mut pairs = vec![("scenario".to_owned(), String::new(), col)];
    for (i, (at, w)) in super::words(rest).into_iter().enumerate() {
        if i == 0 {
            pairs[0].1 = w.to_owned();
            continue;
        }
        let (k, v) = w.split_once('=').unwrap_or((w, ""));
        pairs.push((k.to_owned(), v.to_owned(), col + at));
    }
    let q = Query::from_pairs(pairs.iter().map(|(k, v, _)| (k.as_str(), v.as_str())));
    if let Some(p) = q.problems.first() {
        // At the setting it is about: its last giving, for one given twice.
        let at = pairs.iter().rev().find(|(k, ..)| *k == p.key()).map_or(col, |(.., at)| *at);
        let (en, ja) = match p {
            crate::present::params::Problem::Repeated { key, .. } => {
                (format!("\"{key}\" is given twice"), format!("「{key}」が二度指定されています"))
            }
            p => {
                let (en, ja) = (crate::present::text::text(Lang::En), crate::present::text::text(Lang::Ja));
                ((en.problem)(p), (ja.problem)(p))
            }
        };
        return Err(Error { line, col: at, problem: Problem::Scenario(en, ja) });
    }
    // Every key=value that is not an input of the scenario was ignored by the query: say so here.
    for (k, _, at) in pairs.iter().skip(1) {
        let known = crate::scenarios::Key::from_name(k).is_some_and(|key| q.scenario.uses(key));
        if !known {
            let (en, ja) = (
                format!("{} has no input \"{k}\"", q.scenario.id()),
                format!("{} には「{k}」という入力がありません", q.scenario.id()),
            );
            return Err(Error { line, col: *at, problem: Problem::Scenario(en, ja) });
        }
    }
    Ok(script::print(&q.scenario.build(&q.inputs)))
}

fn finish(d: Draft) -> Result<Step, Error> {
    let at = |problem| Error { line: d.line, col: 0, problem };
    let (script, scenario) = match (d.scenario, d.script) {
        (Some(_), Some((_, line))) => return Err(Error { line, col: 0, problem: Problem::Both }),
        (None, None) => return Err(at(Problem::Missing("script"))),
        (Some((text, _)), None) => {
            let sc = script::parse(&text).map_err(|e| at(Problem::Script(e.problem.en(), e.problem.ja())))?;
            (text, sc)
        }
        (None, Some((block, line))) => {
            // The block's common indent is not the script's: its lines and columns are the course's.
            let indent = (block.iter().filter(|l| !l.trim().is_empty()))
                .map(|l| l.len() - l.trim_start().len())
                .min()
                .unwrap_or(0);
            let text: Vec<&str> = block.iter().map(|l| l.get(indent..).unwrap_or("")).collect();
            let text = text.join("\n");
            let sc = script::parse(&text).map_err(|mut e| {
                if e.line > 0 {
                    e.line += line;
                    if e.col > 0 {
                        e.col += indent;
                    }
                }
                Error { line: e.line, col: e.col, problem: Problem::Script(e.problem.en(), e.problem.ja()) }
            })?;
            (text, sc)
        }
    };
    if d.task.is_empty() {
        return Err(at(Problem::Missing("task")));
    }
    let Some(goal) = d.goal else { return Err(at(Problem::Missing("goal"))) };
    Ok(Step {
        title: d.title,
        text: d.text,
        cite: d.cite,
        script,
        scenario,
        task: d.task,
        goal,
        hint: d.hint,
        line: d.line,
    })
}

/// The devices a prove exercise switches: lease expiry, and fencing where the service gives tokens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Devices {
    /// Lease expiry.
    pub lease: bool,
    /// Fencing.
    pub fencing: bool,
}

impl Devices {
    /// The switches of `sc`.
    pub fn of(sc: &Scenario) -> Devices {
        Devices { lease: sc.lease, fencing: sc.fencing && sc.tokens() }
    }

    /// How many are on.
    pub fn count(self) -> usize {
        usize::from(self.lease) + usize::from(self.fencing)
    }

    /// `sc` with these switches.
    pub fn on(self, sc: &Scenario) -> Scenario {
        Scenario { lease: self.lease, fencing: self.fencing, ..sc.clone() }
    }

    /// Every choice `sc` allows, fewest on first (fencing only where the service gives tokens).
    fn choices(sc: &Scenario) -> Vec<Devices> {
        let mut all: Vec<Devices> = [(false, false), (true, false), (false, true), (true, true)]
            .into_iter()
            .map(|(lease, fencing)| Devices { lease, fencing })
            .filter(|d| sc.tokens() || !d.fencing)
            .collect();
        all.sort_by_key(|d| d.count());
        all
    }
}

/// The grid a search of `sc` runs: every named value over its range, at the finest step (1 ms, then
/// coarser) that keeps it within [`limits::GRID`] points. What an answer states as its bounds.
pub fn bounds(sc: &Scenario) -> Vec<Dim> {
    const STEPS: [Ms; 9] = [1, 10, 50, 100, 250, 500, 1_000, 5_000, 30_000];
    let grid = |step: Ms| -> Vec<Dim> {
        sc.params.iter().enumerate().map(|(i, p)| Dim::new(i, p.min, p.max, step)).collect()
    };
    STEPS.into_iter().map(grid).find(|g| explore::size(g) <= limits::GRID).unwrap_or_else(|| grid(600_000))
}

/// A state of a step's run: its switches and its named values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    /// The switches.
    pub devices: Devices,
    /// Each named switch's name and setting.
    pub switches: Vec<(String, bool)>,
    /// Each named value's name and value.
    pub values: Vec<(String, Ms)>,
    /// The outcome the core gives it.
    pub outcome: OutcomeKind,
}

/// Each named switch of `sc` with its setting.
fn named_switches(sc: &Scenario) -> Vec<(String, bool)> {
    sc.switches.iter().map(|w| (w.name.clone(), w.on)).collect()
}

/// The first state on `sc`'s grid (its switches as they are) whose outcome `want` accepts.
fn find_on_grid(sc: &Scenario, want: impl Fn(OutcomeKind) -> bool) -> Option<State> {
    let dims = bounds(sc);
    let kinds = Explorer::new(sc.clone(), dims.clone()).verdicts();
    let at = kinds.iter().position(|k| want(*k))?;
    // The grid runs in lexicographic order, the last dimension fastest.
    let mut rest = at as u64;
    let mut values = vec![0; dims.len()];
    for (i, d) in dims.iter().enumerate().rev() {
        values[i] = d.from + (rest % d.count()) * d.step;
        rest /= d.count();
    }
    let named = dims.iter().zip(values).map(|(d, v)| (sc.params[d.param].name.clone(), v)).collect();
    Some(State { devices: Devices::of(sc), switches: named_switches(sc), values: named, outcome: kinds[at] })
}

/// What a search of a run found: its bounds and, if any, the least-disturbed run that went wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proof {
    /// The switches searched.
    pub devices: Devices,
    /// The grid: each named value's name, first and last value and step.
    pub bounds: Vec<(String, Ms, Ms, Ms)>,
    /// How many runs.
    pub runs: u64,
    /// A run that went wrong (data harmed first, else the system stopped); `None`: nothing broke it.
    pub broken: Option<State>,
}

/// Searches `sc` as switched: every point of its grid ([`bounds`]).
pub fn prove(sc: &Scenario) -> Proof {
    let dims = bounds(sc);
    let mut explorer = Explorer::new(sc.clone(), dims.clone());
    explorer.run(u64::MAX);
    let found = explorer.safety().or(explorer.liveness());
    let broken = found.map(|f| State {
        devices: Devices::of(sc),
        switches: named_switches(sc),
        values: dims.iter().zip(&f.values).map(|(d, v)| (sc.params[d.param].name.clone(), *v)).collect(),
        outcome: f.outcome,
    });
    let bounds = dims.iter().map(|d| (sc.params[d.param].name.clone(), d.from, d.to, d.step)).collect();
    Proof { devices: Devices::of(sc), bounds, runs: explorer.done(), broken }
}

/// The core's answer to a step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// The outcome of the run as given.
    Predict(OutcomeKind),
    /// A state that reaches (or finds) the goal.
    State(State),
    /// The fewest devices that nothing breaks within the bounds, and that search.
    Prove(Proof),
    /// The goal cannot be reached: nothing within the bounds (a `locksim course` refusal).
    None,
}

/// The core's answer to `step`. Reach tries the step's switches first, then every other setting of them
/// (lease, fencing and the script's named switches), the fewest changed first; find keeps the step's
/// switches; prove tries every choice of lease and fencing, fewest on first.
pub fn answer(step: &Step) -> Answer {
    let sc = &step.scenario;
    match step.goal {
        Goal::Predict => Answer::Predict(sim::run(sc).outcome.kind),
        Goal::Find(_) => find_on_grid(sc, |k| step.goal.wants(k)).map_or(Answer::None, Answer::State),
        Goal::Reach(_) => {
            let given = Devices::of(sc);
            // Every setting: lease and fencing, each with every flip of the named switches (at most
            // MAX_SWITCHES of them); the fewest switches changed first (a stable sort keeps the choices' order).
            let mut settings: Vec<(u32, Scenario)> = Vec::new();
            for d in Devices::choices(sc) {
                for flips in 0..1_u32 << sc.switches.len() {
                    let mut v = d.on(sc);
                    for (i, w) in sc.switches.iter().enumerate() {
                        if flips >> i & 1 == 1 {
                            v.set_switch(i, !w.on);
                        }
                    }
                    let devices = u32::from(d.lease != given.lease) + u32::from(d.fencing != given.fencing);
                    settings.push((devices + flips.count_ones(), v));
                }
            }
            settings.sort_by_key(|(changed, _)| *changed);
            (settings.iter())
                .find_map(|(_, v)| find_on_grid(v, |k| step.goal.wants(k)))
                .map_or(Answer::None, Answer::State)
        }
        Goal::Prove => (Devices::choices(sc).into_iter())
            .map(|d| prove(&d.on(sc)))
            .find(|p| p.broken.is_none())
            .map_or(Answer::None, Answer::Prove),
    }
}

/// How an answer fared, with what the reader's run did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Graded {
    /// Right.
    Right,
    /// The run's outcome is not the one asked for.
    Outcome(OutcomeKind),
    /// A find exercise keeps the switches as the step gives them: the reader changed them.
    Switched,
    /// A prove exercise: the search found a run that went wrong with the reader's switches.
    Broken(Proof),
    /// A prove exercise: nothing breaks, but fewer devices would do (how many are on, how few would do).
    TooMany(usize, usize),
}

impl Graded {
    /// Whether the answer is right.
    pub fn right(&self) -> bool {
        *self == Graded::Right
    }
}

/// Grades the reader's run `now` (the step's script as the reader changed it) for `step`: from the core's
/// outcomes only. A predict step is graded by the page's own prediction, not here.
pub fn grade(step: &Step, now: &Scenario) -> Graded {
    let kind = sim::run(now).outcome.kind;
    match step.goal {
        Goal::Predict => {
            if kind == sim::run(&step.scenario).outcome.kind {
                Graded::Right
            } else {
                Graded::Outcome(kind)
            }
        }
        Goal::Reach(_) if step.goal.wants(kind) => Graded::Right,
        Goal::Reach(_) => Graded::Outcome(kind),
        Goal::Find(_)
            if Devices::of(now) != Devices::of(&step.scenario)
                || named_switches(now) != named_switches(&step.scenario) =>
        {
            Graded::Switched
        }
        Goal::Find(_) if step.goal.wants(kind) => Graded::Right,
        Goal::Find(_) => Graded::Outcome(kind),
        Goal::Prove => {
            let proof = prove(now);
            if proof.broken.is_some() {
                return Graded::Broken(proof);
            }
            let fewest = match answer(step) {
                Answer::Prove(p) => p.devices.count(),
                _ => 0,
            };
            let on = Devices::of(now).count();
            if on > fewest {
                Graded::TooMany(on, fewest)
            } else {
                Graded::Right
            }
        }
    }
}

/// Why `locksim course` refuses a step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// The step, from 1.
    pub step: usize,
    /// Its line.
    pub line: usize,
    /// Its goal.
    pub goal: Goal,
    /// The search's bounds, when a search decided it.
    pub bounds: Vec<(String, Ms, Ms, Ms)>,
}

impl Refusal {
    /// The reason, in English.
    pub fn en(&self) -> String {
        let within = bounds_text(&self.bounds, Lang::En);
        let why = match self.goal {
            Goal::Reach(k) => format!("no state reaches {} (every switch, {within})", k.name()),
            Goal::Find(Some(k)) => format!("no state gives {} with the step's switches ({within})", k.name()),
            Goal::Find(None) => format!("nothing goes wrong with the step's switches ({within})"),
            Goal::Prove => format!("no choice of lease and fencing keeps every run safe ({within})"),
            Goal::Predict => String::new(),
        };
        format!("step {} (line {}): goal {}: {why}", self.step, self.line, self.goal.name())
    }
}

/// The bounds of a search as words: `pause 0..30000 ms step 1 ms, 30001 runs`.
pub fn bounds_text(bounds: &[(String, Ms, Ms, Ms)], lang: Lang) -> String {
    if bounds.is_empty() {
        return match lang {
            Lang::En => "no named value: one run".into(),
            Lang::Ja => "名前付きの値なし（1回の実行）".into(),
        };
    }
    let runs: u64 = bounds.iter().map(|(_, f, t, s)| (t - f) / s.max(&1) + 1).product();
    let each: Vec<String> =
        bounds.iter().map(|(n, f, t, s)| format!("{n} {f}..{t} ms step {s} ms")).collect();
    match lang {
        Lang::En => format!("{}, {runs} runs", each.join(", ")),
        Lang::Ja => format!("{}、{runs} 回の実行", each.join("、")),
    }
}

/// Checks that every goal of `course` can be met: the first step that cannot, and why.
pub fn check(course: &Course) -> Result<(), Refusal> {
    for (i, step) in course.steps.iter().enumerate() {
        if answer(step) == Answer::None {
            let bounds = prove(&step.scenario).bounds;
            return Err(Refusal { step: i + 1, line: step.line, goal: step.goal, bounds });
        }
    }
    Ok(())
}

/// How a step went, as kept in the browser and shared in a summary link.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// Not answered yet.
    Open,
    /// Tried and wrong, not right yet: kept, so that a reload does not make the next try a first one.
    Tried,
    /// Right at the first try.
    First,
    /// Right after a wrong try (a hint was offered).
    Hinted,
    /// The reader asked for the answer, or predicted wrong.
    Shown,
}

impl Mark {
    /// One letter: `-`, `w`, `r`, `h`, `a`.
    pub fn letter(self) -> char {
        match self {
            Mark::Open => '-',
            Mark::Tried => 'w',
            Mark::First => 'r',
            Mark::Hinted => 'h',
            Mark::Shown => 'a',
        }
    }

    /// The mark of a letter; anything else is open.
    pub fn of(c: char) -> Mark {
        match c {
            'w' => Mark::Tried,
            'r' => Mark::First,
            'h' => Mark::Hinted,
            'a' => Mark::Shown,
            _ => Mark::Open,
        }
    }

    /// Marks from letters, one per step of `n` (missing ones open).
    pub fn read(s: &str, n: usize) -> Vec<Mark> {
        let mut marks: Vec<Mark> = s.chars().take(n).map(Mark::of).collect();
        marks.resize(n, Mark::Open);
        marks
    }

    /// The letters of `marks`.
    pub fn write(marks: &[Mark]) -> String {
        marks.iter().map(|m| m.letter()).collect()
    }
}

/// The score: steps right at the first try.
pub fn score(marks: &[Mark]) -> usize {
    marks.iter().filter(|m| **m == Mark::First).count()
}

/// The course panel's words in one language: a missing one does not compile.
pub struct Ui {
    /// The panel's name.
    pub course: &'static str,
    /// "Step 3 of 10".
    pub step_of: fn(usize, usize) -> String,
    /// "Right first time: 2 of 10".
    pub score: fn(usize, usize) -> String,
    /// The task's label.
    pub task: &'static str,
    /// The source's label.
    pub source: &'static str,
    /// How a prediction step is answered.
    pub predict_how: &'static str,
    /// The check button.
    pub check: &'static str,
    /// The answer button.
    pub show_answer: &'static str,
    /// The hint's label.
    pub hint: &'static str,
    /// Buttons: previous, next, the summary, start again, leave, show it, copy.
    pub previous: &'static str,
    /// Next step.
    pub next: &'static str,
    /// To the summary.
    pub to_summary: &'static str,
    /// Start again.
    pub again: &'static str,
    /// Leave the course.
    pub leave: &'static str,
    /// Load the answer's state into the figure.
    pub show_it: &'static str,
    /// Copy the link.
    pub copy: &'static str,
    /// Bring the step's run back.
    pub reset: &'static str,
    /// Right.
    pub right: &'static str,
    /// Not yet: the run's outcome title.
    pub not_yet: fn(&str) -> String,
    /// A find exercise with its switches changed.
    pub switched: &'static str,
    /// A prove exercise broken: the outcome title and the values of the run that broke it.
    pub broken: fn(&str, &str) -> String,
    /// A prove exercise with too many devices on: how many, how few would do.
    pub too_many: fn(usize, usize) -> String,
    /// What a search covered.
    pub searched: fn(&str) -> String,
    /// The first prediction was right.
    pub predicted_right: &'static str,
    /// It was wrong.
    pub predicted_wrong: &'static str,
    /// The step's run is no longer on screen.
    pub off_screen: &'static str,
    /// A prediction made after the reader changed the step's run: not counted.
    pub changed_first: &'static str,
    /// The core's answer: a prediction's outcome title.
    pub answer_predict: fn(&str) -> String,
    /// The core's answer: an outcome title at a state (the switches and values, as words).
    pub answer_state: fn(&str, &str) -> String,
    /// The core's answer to a prove exercise: the devices, as words.
    pub answer_prove: fn(&str) -> String,
    /// "lease on, fencing off".
    pub devices: fn(bool, bool) -> String,
    /// A named switch's setting: "on", "off".
    pub on_off: fn(bool) -> &'static str,
    /// The summary's heading.
    pub summary: &'static str,
    /// A summary from a link.
    pub shared: &'static str,
    /// How each step went: open, right first time, after a hint, answer shown, tried and not right yet.
    pub marks: [&'static str; 5],
    /// The summary's link.
    pub share: &'static str,
    /// Start the course (from a shared summary, or from the later panels).
    pub take: &'static str,
    /// The entry under the lab: the built-in course's number of steps.
    pub entry: fn(usize) -> String,
    /// Loading a course file.
    pub loading: &'static str,
    /// A course that does not read: the message.
    pub unread: fn(&str) -> String,
    /// A course file that could not be fetched: its path.
    pub unfetched: fn(&str) -> String,
    /// `course=` that is neither the built-in course, a course's text nor a path on this site.
    pub bad_source: &'static str,
}

impl Mark {
    fn index(self) -> usize {
        match self {
            Mark::Open => 0,
            Mark::First => 1,
            Mark::Hinted => 2,
            Mark::Shown => 3,
            Mark::Tried => 4,
        }
    }

    /// How the step went, in words.
    pub fn said(self, ui: &Ui) -> &'static str {
        ui.marks[self.index()]
    }
}

/// The panel's English.
pub const EN: Ui = Ui {
    course: "Course",
    step_of: |i, n| format!("Step {i} of {n}"),
    score: |s, n| format!("Right first time: {s} of {n}"),
    task: "Task: ",
    source: "Source: ",
    predict_how: "Pick an answer under the figure, then play the run: your first prediction counts.",
    check: "Check my answer",
    show_answer: "Show the answer",
    hint: "Hint: ",
    previous: "Previous",
    next: "Next",
    to_summary: "Summary",
    again: "Start again",
    leave: "Leave the course",
    show_it: "Show it",
    copy: "Copy link",
    reset: "Back to the step's run",
    right: "Right.",
    not_yet: |o| format!("Not yet: your run ended “{o}”."),
    switched:
        "Not this way: the task keeps the switches as the step gave them. Switch them back, then look again.",
    broken: |o, at| format!("Not yet: the search found a run that went wrong, “{o}”, at {at}."),
    too_many: |on, few| {
        format!("Nothing breaks, but fewer devices would do: you have {on} on, and {few} is enough.")
    },
    searched: |b| format!("Searched: {b}."),
    predicted_right: "Your first prediction was right.",
    predicted_wrong: "Your first prediction was not right: the verdict under the figure shows what happened.",
    off_screen: "The step's run is no longer on the figure.",
    changed_first:
        "Not counted: the run was changed before the prediction. “Back to the step's run” to predict \
                    it as given.",
    answer_predict: |o| format!("The core's answer: “{o}”."),
    answer_state: |o, at| format!("The core's answer: “{o}” with {at}."),
    answer_prove: |d| format!("The core's answer: {d}; nothing breaks."),
    devices: |lease, fencing| {
        format!(
            "lease expiry {}, fencing {}",
            if lease { "on" } else { "off" },
            if fencing { "on" } else { "off" }
        )
    },
    on_off: |on| if on { "on" } else { "off" },
    summary: "Summary",
    shared: "A shared result",
    marks: ["not answered", "right first time", "right after a hint", "answer shown", "tried, not right yet"],
    share: "Link to this result",
    take: "Take the course",
    entry: |n| format!("Take the course through the source: {n} steps, each checked by the simulation"),
    loading: "Loading the course…",
    unread: |m| format!("The course could not be read: {m}"),
    unfetched: |p| format!("The course file “{p}” could not be fetched from this site."),
    bad_source: "course= takes builtin, a course's text, or the path of a course file on this site.",
};

/// The panel's Japanese.
pub const JA: Ui = Ui {
    course: "コース",
    step_of: |i, n| format!("ステップ {i} / {n}"),
    score: |s, n| format!("一度で正解：{n} 問中 {s} 問"),
    task: "課題：",
    source: "出典：",
    predict_how: "図の下で答えを選び、実行を再生してください。最初の予想が採点されます。",
    check: "答えを確かめる",
    show_answer: "答えを見る",
    hint: "ヒント：",
    previous: "前へ",
    next: "次へ",
    to_summary: "まとめへ",
    again: "最初から",
    leave: "コースを終える",
    show_it: "図で見る",
    copy: "リンクをコピー",
    reset: "ステップの実行に戻す",
    right: "正解です。",
    not_yet: |o| format!("まだです。あなたの実行の結果は「{o}」でした。"),
    switched: "この課題では切り替えを最初のままにします。元に戻してから、もう一度探してください。",
    broken: |o, at| format!("まだです。探索で壊れる実行が見つかりました：{at} で「{o}」。"),
    too_many: |on, few| {
        format!("壊れませんが、もっと少なくて足ります。オンは {on} 個で、{few} 個で足ります。")
    },
    searched: |b| format!("探索の範囲：{b}。"),
    predicted_right: "最初の予想は正解でした。",
    predicted_wrong: "最初の予想は外れました。図の下の結果で、何が起きたかを確かめてください。",
    off_screen: "ステップの実行が図から外れています。",
    changed_first: "予想の前に実行が変えられたので、この予想は数えません。「ステップの実行に戻す」で、与えられたままの実行を\
                    予想してください。",
    answer_predict: |o| format!("正しい答え：「{o}」。"),
    answer_state: |o, at| format!("正しい答え：{at} で「{o}」。"),
    answer_prove: |d| format!("正しい答え：{d}。これで何も壊れません。"),
    devices: |lease, fencing| {
        format!(
            "リース期限 {}、フェンシング {}",
            if lease { "オン" } else { "オフ" },
            if fencing { "オン" } else { "オフ" }
        )
    },
    on_off: |on| if on { "オン" } else { "オフ" },
    summary: "まとめ",
    shared: "共有された結果",
    marks: ["未回答", "一度で正解", "ヒントのあとで正解", "答えを見た", "挑戦中（まだ正解していない）"],
    share: "この結果へのリンク",
    take: "コースを始める",
    entry: |n| format!("出典に沿ったコースを始める（{n} ステップ、どれもシミュレーションが採点します）"),
    loading: "コースを読み込んでいます…",
    unread: |m| format!("コースを読めません：{m}"),
    unfetched: |p| format!("コースのファイル「{p}」をこのサイトから取得できませんでした。"),
    bad_source: "course= には builtin、コースの本文、またはこのサイト上のコースファイルのパスを指定します。",
};

/// The panel's words in `lang`.
pub fn ui(lang: Lang) -> &'static Ui {
    match lang {
        Lang::En => &EN,
        Lang::Ja => &JA,
    }
}

/// A state's switches and named values as words: `lease expiry on, fencing on, pause 11001 ms`.
pub fn state_words(s: &State, lang: Lang) -> String {
    let mut out = (ui(lang).devices)(s.devices.lease, s.devices.fencing);
    let sep = if lang == Lang::Ja { "、" } else { ", " };
    for (n, on) in &s.switches {
        out += &format!("{sep}{n} {}", (ui(lang).on_off)(*on));
    }
    for (n, v) in &s.values {
        out += &format!("{sep}{n} {v} ms");
    }
    out
}
