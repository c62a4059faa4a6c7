//! Every user-visible string, in English and Japanese: the lab's ([`Text`]), the later panels' ([`Panels`])
//! and the reading's ([`Reading`]), apart so that each part of the page carries only its own.
//!
//! A typed table: each language is one [`Text`] value, and each scenario's strings one [`ScenarioText`]
//! reached through an exhaustive `match`, so a missing string is a compile error, never a blank. The
//! Japanese follows the tone of the source document the readers come from.

mod en;
mod ja;

use crate::present::breakit::ScriptReport;
use crate::present::geom::seconds;
use crate::present::lesson::Boundary;
use crate::present::params::{Lang, Problem};
use crate::present::told::Lesson;
use crate::scenarios::search::{Bound, Report};
use crate::scenarios::{Group, Inputs, Key, Kind, ScenarioId, A_WORKS, LEADER_CRASH, LOCK_DELAY};
use crate::sim::{Ms, OutcomeKind, Run};

/// The strings of one scenario: its card, kept in its definition.
pub use crate::scenarios::Card as ScenarioText;

/// The strings of one language.
pub struct Text {
    /// Page title.
    pub title: &'static str,
    /// One line under the title.
    pub tagline: &'static str,
    /// The source's own question, asked above the base scenario.
    pub question: &'static str,
    /// Name of the figure.
    pub figure_label: &'static str,
    /// What lease expiry and fencing each protect: where the reader first meets both switches.
    pub devices: &'static str,
    /// The base scenario's set-up, a template of the run's inputs (`{base}` in other set-ups).
    pub base_setup: &'static str,
    /// A switch's name.
    pub switch_name: fn(Key) -> &'static str,
    /// What a switch does: a template of the run's inputs.
    pub switch_hint: fn(Key) -> &'static str,
    /// The state shown beside a switch's name: on or off.
    pub switch_state: fn(bool) -> &'static str,
    /// Before the hint of a switch that is off: what it says is what the switch would do.
    pub when_on: &'static str,
    /// The readout before the dragged value, with its separator.
    pub drag_label: fn(Key) -> &'static str,
    /// Accessible name of the handle that drags `Key`.
    pub handle_name: fn(Key) -> &'static str,
    /// `aria-valuetext` of the handle: the value, and the time its band ends (where its step never ran, the
    /// value alone, as [`Text::playhead`] says a time).
    pub handle_value: fn(Key, Ms, Ms) -> String,
    /// Lane names.
    pub worker: fn(name: &str) -> String,
    /// Lock service lane.
    pub lock_service: &'static str,
    /// The lock service lane of a replicated service: failover, Redlock, etcd, ZooKeeper.
    pub services: [&'static str; 4],
    /// The servers of a failover: primary, replica.
    pub nodes: [&'static str; 2],
    /// Why Redlock's fencing switch is unavailable.
    pub no_fencing: &'static str,
    /// A server's clock jump mark.
    pub jumped: fn(by: Ms) -> String,
    /// A replica's promotion mark: with the key and counter, without.
    pub promoted: [&'static str; 2],
    /// A consensus group without a leader.
    pub electing: &'static str,
    /// Storage lane.
    pub storage: &'static str,
    /// Legend: believes it holds the lock.
    pub believes: &'static str,
    /// Legend: held according to the lock service.
    pub holds: &'static str,
    /// The purple band.
    pub paused: &'static str,
    /// A's job, when the learner drags its end.
    pub job: &'static str,
    /// A write in the network.
    pub in_flight: &'static str,
    /// Waiting for the lock.
    pub waiting: &'static str,
    /// Believes but does not hold.
    pub false_belief: &'static str,
    /// Two holders at once.
    pub two_holders: &'static str,
    /// A crash mark.
    pub crashed: &'static str,
    /// Expiry mark.
    pub lease_ends: fn(at: Ms) -> String,
    /// Expiry mark with lease off.
    pub lease_would_end: fn(at: Ms) -> String,
    /// The end of a lock-delay.
    pub lock_free: fn(at: Ms) -> String,
    /// Storage: accepted write.
    pub accepted: &'static str,
    /// Storage: an accepted write that overwrote a newer lock's write.
    pub overwrites: fn(newer: u64) -> String,
    /// Storage: rejected write.
    pub rejected: &'static str,
    /// Storage: a token registered at a grant.
    pub registered: fn(token: u64) -> String,
    /// Storage: the highest token line.
    pub highest: &'static str,
    /// Verdict titles, in [`OutcomeKind::ALL`] order.
    pub outcome_titles: [&'static str; 7],
    /// Beside every verdict: whether the lock service itself ever had two holders.
    pub double_grant_fact: fn(bool) -> &'static str,
    /// "Verdict" heading.
    pub verdict: &'static str,
    /// What goes between two sentences (a space in English, nothing in Japanese).
    pub join: &'static str,
    /// Heading of the notice about a bad link.
    pub notice: &'static str,
    /// One problem of a bad link.
    pub problem: fn(&Problem) -> String,
    /// Heading of the notice about a bad message from an embedding page: what was kept.
    pub message_notice: &'static str,
    /// Heading of the notice about a link's keys given more than once: which value was read.
    pub repeated_notice: &'static str,
    /// Playback controls.
    pub play: &'static str,
    /// Pause playback.
    pub stop: &'static str,
    /// Previous event.
    pub step_back: &'static str,
    /// Next event.
    pub step_forward: &'static str,
    /// Jump to the end.
    pub to_end: &'static str,
    /// The scrubber's name.
    pub scrub: &'static str,
    /// The playhead readout.
    pub playhead: fn(at: Ms) -> String,
    /// Name of the language switcher.
    pub language: &'static str,
    /// Heading of the scenario picker.
    pub scenarios: &'static str,
    /// A group of scenarios.
    pub group: fn(Group) -> &'static str,
    /// A scenario's strings.
    pub scenario: fn(ScenarioId) -> &'static ScenarioText,
    /// Heading of the prediction.
    pub predict_heading: &'static str,
    /// Starts the run once a prediction is made.
    pub play_and_see: &'static str,
    /// Shows the verdict without predicting.
    pub skip: &'static str,
    /// Shown while the run plays.
    pub watching: &'static str,
    /// The prediction was right.
    pub right: &'static str,
    /// The prediction was wrong; the argument is the answer the reader picked.
    pub wrong: fn(picked: &str) -> String,
    /// Back to predicting.
    pub predict_again: &'static str,
    /// A timing input's name, as the search, the map and the real runs say it.
    pub disturbance: fn(Key) -> &'static str,
    /// Heading of the share panel.
    pub share: &'static str,
    /// While the share panel's body (the link, the snippet, the downloads, the projector) loads: it comes
    /// with the page's second module, when the panel first opens.
    pub share_loading: &'static str,
    /// When it could not be loaded (a button to try again follows).
    pub share_failed: &'static str,
    /// A script's lock service, when it is a consensus group (the catalogue names etcd and ZooKeeper).
    pub consensus_service: &'static str,
    /// A script's clock jump, on server N(n + 1).
    pub clock_jump: fn(node: usize) -> String,
    /// Accessible name of the handle that drags a script's named value.
    pub value_handle: fn(name: &str) -> String,
    /// `aria-valuetext` of that handle: the value, and the time its band ends.
    pub value_text: fn(Ms, Ms) -> String,
    /// The picker's line while a reader's own script is on screen.
    pub script_title: &'static str,
    /// A script's set-up: how many workers, its lock service, the lease, expiry and fencing.
    pub script_setup: fn(workers: usize, service: &str, ttl: Ms, expiry: bool, fencing: bool) -> String,
    /// A script's question: with its dragged named value at a value (if it has one), what happens?
    pub script_prompt: fn(Option<(&str, Ms)>) -> String,
    /// The button that opens the scenario on screen as a script.
    pub edit_script: &'static str,
    /// While the page reads a script (its module loads).
    pub reading_script: &'static str,
    /// A script the page could not read: the message (with its line). The figure keeps what it showed.
    pub script_broken: fn(message: &str) -> String,
    /// A script that has never read: nothing to draw. With the message when the editor is closed; without
    /// it (the editor says it) in the figure's place.
    pub script_unread: fn(message: &str) -> String,
    /// The hint of a script's named switch: what it picks.
    pub named_switch: fn(name: &str) -> String,
    /// A slider over a script's named value: its accessible name.
    pub value_slider: fn(name: &str) -> String,
    /// While the later panels ("Where does it change?", "Break it", the real runs) load.
    pub later_loading: &'static str,
    /// They did not load.
    pub later_failed: &'static str,
    /// Load them (or the recordings) again.
    pub retry: &'static str,
    /// In place of the narration while its words load (they come with the later panels).
    pub narration_loading: &'static str,
    /// In place of the narration when they could not.
    pub narration_failed: &'static str,
}

/// What "Where does it change?" varies: an input of the catalogue's scenario, or a script's named value.
#[derive(Clone, Copy, Debug)]
pub enum Varied<'a> {
    /// The scenario's dragged input.
    Input(Key),
    /// A script's dragged value, by its name.
    Named(&'a str),
}

/// The strings of the panels that open once a prediction is told ("Where does it change?", "Break it", "Seen
/// on real systems"), apart from [`Text`]: the page's first load carries the lab's strings only, and these
/// come with the panels (`app::later`), with the narration told after the verdict.
pub struct Panels {
    /// The lab's strings of the same language.
    pub text: &'static Text,
    /// One fact of a run told from its events. Narration is told after the verdict, so its words come with
    /// the later panels' module.
    pub told: fn(&crate::present::told::Told, &[String]) -> String,
    /// The reason that explains a fact, where the events leave it unsaid.
    pub why: fn(&crate::present::why::Why, &[String]) -> String,
    /// One-line lessons, in [`OutcomeKind::ALL`] order. A lesson is told with the narration, after the
    /// verdict, so its words come with the later panels' module too.
    pub outcome_lessons: [&'static str; 7],
    /// The plainer lessons a run may need instead ([`Lesson`]): a fenced write that carried no token (its
    /// writer held no lock), a waiter that never got the lock, an unfenced gap with no later write, a
    /// corrupting worker that had not taken the lock, an unfenced gap opened by a worker that never had.
    pub plain_lessons: [&'static str; 5],
    /// The projector's accessible name: the run walked through one moment at a time.
    pub projector_label: &'static str,
    /// Where the projector stands: moment `k` of `n`, at time `at`.
    pub projector_step: fn(k: usize, n: usize, at: Ms) -> String,
    /// The projector's buttons: back one moment, on one moment, leave.
    pub projector_buttons: [&'static str; 3],
    /// The projector's keys, in a line.
    pub projector_keys: &'static str,
    /// A link's step that is not one of the run's `n`: the step shown instead.
    pub projector_bad_step: fn(given: &str, n: usize, shown: usize) -> String,
    /// A run the narration tells nothing of.
    pub projector_empty: &'static str,
    /// The share panel's body (it comes with this module): the link to the current state.
    pub share_link: &'static str,
    /// The iframe snippet.
    pub share_embed: &'static str,
    /// Copy button.
    pub copy: &'static str,
    /// After copying.
    pub copied: &'static str,
    /// When the browser would not copy: the text is selected instead.
    pub copy_failed: &'static str,
    /// Download the figure as SVG.
    pub download_svg: &'static str,
    /// Download the figure as PNG.
    pub download_png: &'static str,
    /// Opens the projector: the run full-window, one moment at a time.
    pub present: &'static str,
    /// Download the run as an animated SVG, for slides.
    pub download_animated: &'static str,
    /// Heading of the boundary challenge.
    pub boundary_heading: &'static str,
    /// The challenge: the smallest value of `Key` that gives the verdict.
    pub boundary_question: fn(Varied, OutcomeKind) -> String,
    /// Accessible name of the ghost marker.
    pub ghost_name: &'static str,
    /// `aria-valuetext` of the ghost marker.
    pub ghost_value: fn(Ms) -> String,
    /// Reveals the boundary.
    pub check: &'static str,
    /// Where the verdict asked for begins (and ends, if it does), how far the guess was, and where the
    /// verdict first changed. A guess less than one step of the marker (0.1 s) off is right.
    pub boundary_result: fn(guess: Ms, &Boundary) -> String,
    /// Every value gives the same verdict.
    pub boundary_none: &'static str,
    /// Said instead of the challenge when its map would take the page too long ([`crate::sim::MAP_WORK`]).
    pub boundary_too_long: &'static str,
    /// Name of the strip that shows the verdict for every value.
    pub outcome_map: fn(min: Ms, max: Ms) -> String,
    /// Heading of "Break it".
    pub break_heading: &'static str,
    /// What the reader may try before searching: with timing to vary (a band, a map), without.
    pub break_intro: [&'static str; 4],
    /// The current run as the reader's own find (`{}`: its verdict): a safety failure, a liveness failure,
    /// neither.
    pub found: [&'static str; 3],
    /// A disturbance at a value: name, seconds.
    pub at_value: &'static str,
    /// A disturbance over a range: name, from, to (seconds).
    pub over_range: &'static str,
    /// A disturbance that may be off (a leader crash): off (name), or off and over a range (name, from, to).
    pub at_off: [&'static str; 2],
    /// Between the values of one run.
    pub value_sep: &'static str,
    /// The grid's spacing (seconds).
    pub every: &'static str,
    /// The search button.
    pub search: &'static str,
    /// Name of the progress bar.
    pub searching: &'static str,
    /// A search cancelled by a change of the settings, said (and announced) rather than vanishing.
    pub search_stopped: &'static str,
    /// The report's first sentence: `{count}` schedules, `{ms}`, `{bounds}`.
    pub searched: &'static str,
    /// The same for a scenario with nothing to vary: `{count}`, `{ms}`.
    pub searched_one: &'static str,
    /// Safety, then liveness: the smallest failure (`{title}` at `{at}`), a failure with nothing varied
    /// (`{title}`), none within the bounds.
    pub failures: [[&'static str; 3]; 2],
    /// After a failover search with WAIT on: what the model assumes, so that finding no failure does not
    /// read as "WAIT makes it safe".
    pub failover_assumes: &'static str,
    /// The buttons that load the safety and the liveness counterexample onto the timeline.
    pub show_it: [&'static str; 2],
    /// The map's caption: what its columns (`{}`) are.
    pub plane_cols: &'static str,
    /// What its rows are (`{}`), after the columns.
    pub plane_rows: &'static str,
    /// Heading of the panel of real runs.
    pub real_heading: &'static str,
    /// How the real runs were made.
    pub real_intro: &'static str,
    /// No recording for this scenario and switches.
    pub real_none: &'static str,
    /// How fast a recording ran, from how its file writes it (`10`, `1`, `1/2`): in real time, so many times
    /// faster, or slower.
    pub real_speed: fn(&str) -> String,
    /// While the recordings load.
    pub real_loading: &'static str,
    /// The recordings did not load.
    pub real_failed: &'static str,
    /// One recording: `{system}`, `{date}`, `{values}`, `{real}`, `{simulated}`, `{same}`, `{jitter}`.
    pub real_caption: &'static str,
    /// Whether the verdicts agree: they do, they do not.
    pub real_same: [&'static str; 2],
    /// "Open a run": the file chooser's label.
    pub open_label: &'static str,
    /// What a run file is, that it may be dropped here, and that it stays in the page.
    pub open_hint: &'static str,
    /// A file that does not read as a run: why, and that the page keeps what it showed.
    pub open_bad: fn(&crate::present::recordings::OpenProblem) -> String,
    /// An opened run: `{who}`, `{system}`, `{speed}`, `{real}`, `{simulated}`.
    pub open_caption: &'static str,
    /// `{who}` for a run of `locksim real` (the lab's own workers); a client's run names its command.
    pub open_lab: &'static str,
    /// `{who}` for a run of `locksim check`: `{}` is the client's command.
    pub open_client: &'static str,
    /// The editor's heading.
    pub editor_heading: &'static str,
    /// The text box's accessible name.
    pub editor_label: &'static str,
    /// Starts again from a short template.
    pub editor_new: &'static str,
    /// Starts from a scenario of the catalogue (a list of them follows).
    pub editor_from: &'static str,
    /// Back to where this script started.
    pub editor_reset: &'static str,
    /// Closes the editor (the script stays on screen).
    pub editor_close: &'static str,
    /// What the language is, in a line, and its limits.
    pub editor_help: &'static str,
    /// The script reads: how many workers and named values.
    pub editor_reads: fn(workers: usize, values: usize, switches: usize) -> String,
    /// The script is over the language's limit: the link holds the last script that read, not this text.
    pub editor_link_kept: &'static str,
    /// The script is over the limit and none has read yet: the link holds the scenario before it.
    pub editor_link_none: &'static str,
    /// The comment at the top of a new script.
    pub editor_template: &'static str,
}

/// The reading beside the widget, apart from [`Text`]: the page is built with it already in (`prerender`),
/// in both languages, so the app never carries it.
pub struct Reading {
    /// Its heading.
    pub heading: &'static str,
    /// Its sections: (heading, paragraphs, scenarios that show it).
    pub sections: &'static [(&'static str, &'static [&'static str], &'static [ScenarioId])],
    /// The link from a section to its scenario.
    pub play_it: &'static str,
}

/// What the page built at build time says before the app draws the state a link asks for, and when the app
/// cannot start; like the reading, the app never carries it.
pub struct Notes {
    /// While the app loads the state a link asks for.
    pub loading: &'static str,
    /// When the app cannot start: what it needs, and what the page shows instead.
    pub needs_scripts: &'static str,
}

impl Text {
    /// The set-up of scenario `id` with these inputs.
    pub fn setup(&self, id: ScenarioId, i: &Inputs) -> String {
        self.inputs((self.scenario)(id).setup, i)
    }

    /// A script's set-up: the lock service by its name (not its lane's: "Majority" names no service).
    pub fn script_setup(&self, sc: &crate::sim::Scenario) -> String {
        let service = match sc.service {
            crate::sim::Service::Single => self.lock_service,
            crate::sim::Service::Failover { .. } => (self.scenario)(ScenarioId::Failover).title,
            crate::sim::Service::Redlock { .. } => "Redlock",
            crate::sim::Service::Consensus { .. } => self.consensus_service,
        };
        (self.script_setup)(sc.workers.len(), service, sc.ttl, sc.lease, sc.fencing)
    }

    /// The prediction's question for scenario `id` with these inputs.
    pub fn prompt(&self, id: ScenarioId, i: &Inputs) -> String {
        self.inputs((self.scenario)(id).prompt, i)
    }

    /// What switch `key` does with these inputs; said as what it would do when it is off, since the run on
    /// screen does not do it.
    pub fn hint(&self, key: Key, i: &Inputs) -> String {
        let said = self.inputs((self.switch_hint)(key), i);
        if key.spec().is_switch() && key.spec().get(i) == 0 {
            format!("{}{said}", self.when_on)
        } else {
            said
        }
    }

    /// `template` with the inputs' values: `{pause}` (any input by its link name: a time in seconds, a
    /// switch's on or off, a count), `{key?on|off}` (the first text if the input is on or non-zero, with
    /// `#` for its value in seconds; the second otherwise), and a few derived facts. One function instead
    /// of a closure per sentence keeps the bundle light.
    pub fn inputs(&self, template: &str, i: &Inputs) -> String {
        fill_with(template, &|name| {
            let value = |key: &str| Key::from_name(key).map(|k| (k, k.spec().get(i)));
            if let Some((key, branches)) = name.split_once('?') {
                let (on, off) = branches.split_once('|').unwrap_or((branches, ""));
                return match value(key) {
                    Some((_, v)) if v != 0 => on.replace('#', &s(v)),
                    _ => off.to_owned(),
                };
            }
            match name {
                "base" => self.inputs(self.base_setup, i),
                "second" => (i.first_token + 1).to_string(),
                "ttl3" => s(i.ttl / 3),
                "check" => s(A_WORKS),
                "wake" => s(A_WORKS + i.pause),
                "lock_delay" => s(LOCK_DELAY),
                "crash_on" => s(if i.leader_crash > 0 { i.leader_crash } else { LEADER_CRASH }),
                _ => match value(name) {
                    Some((k, v)) => match k.spec().kind {
                        Kind::Words(_) => (self.switch_state)(v != 0).to_owned(),
                        Kind::Count { .. } => v.to_string(),
                        _ => s(v),
                    },
                    None => "?".to_owned(),
                },
            }
        })
    }

    /// The name of the lock service's lane in `id`.
    pub fn service_name(&self, id: ScenarioId) -> &'static str {
        match id {
            ScenarioId::Failover => self.services[0],
            ScenarioId::Redlock => self.services[1],
            ScenarioId::Etcd => self.services[2],
            ScenarioId::Zookeeper => self.services[3],
            _ => self.lock_service,
        }
    }

    /// The title of a verdict.
    pub fn outcome_title(&self, kind: OutcomeKind) -> &'static str {
        self.outcome_titles[index(kind)]
    }

    /// The answer a reader picks to predict `kind` in `scenario` (empty if the scenario cannot reach it).
    pub fn choice(&self, scenario: ScenarioId, kind: OutcomeKind) -> &'static str {
        (self.scenario)(scenario).choices.iter().find(|c| c.0 == kind).map_or("", |c| c.1)
    }
}

impl Panels {
    /// The lesson of a verdict.
    pub fn outcome_lesson(&self, kind: OutcomeKind) -> &'static str {
        self.outcome_lessons[index(kind)]
    }

    /// The lesson of a run's verdict, in words the run bears out ([`Lesson`]).
    pub fn lesson(&self, run: &Run) -> &'static str {
        match Lesson::of(run) {
            Lesson::Verdict(kind) => self.outcome_lesson(kind),
            Lesson::Tokenless => self.plain_lessons[0],
            Lesson::NeverGot => self.plain_lessons[1],
            Lesson::GapAlone => self.plain_lessons[2],
            Lesson::NeverHeld => self.plain_lessons[3],
            Lesson::GapNeverHeld => self.plain_lessons[4],
        }
    }

    /// The narration of `run`, a run of `scenario`: its facts from its events, each followed by the reason
    /// that explains it where one does. One narration for every run, a catalogue state or a script.
    pub fn narrate(&self, scenario: &crate::sim::Scenario, run: &Run) -> String {
        self.tell(scenario, run, &crate::present::told::told(run))
    }

    /// `facts` of `run` (all of them, or a projector's moment), each followed by the reason that explains it
    /// where one does.
    pub fn tell(
        &self,
        scenario: &crate::sim::Scenario,
        run: &Run,
        facts: &[crate::present::told::Told],
    ) -> String {
        let names: Vec<String> = run.trace.workers.iter().map(|w| w.name.clone()).collect();
        let mut said: Vec<String> = Vec::new();
        for fact in facts {
            said.push((self.told)(fact, &names));
            said.extend(crate::present::why::why(scenario, run, fact).map(|w| (self.why)(&w, &names)));
        }
        said.join(self.text.join)
    }
    /// One run's disturbances: `pause start 0 s, pause 10 s`.
    pub fn values(&self, values: &[(Key, Ms)]) -> String {
        let named: Vec<(&str, bool, Ms)> = (values.iter())
            .map(|&(k, v)| ((self.text.disturbance)(k), matches!(k.spec().kind, Kind::At { .. }), v))
            .collect();
        self.named_values(&named)
    }

    /// Values by name, each with whether its 0 is "off" (a leader that does not crash is said so, not
    /// "0 s").
    fn named_values(&self, values: &[(&str, bool, Ms)]) -> String {
        let parts: Vec<String> = (values.iter())
            .map(|&(name, off, v)| {
                if off && v == 0 {
                    fill(self.at_off[0], &[name])
                } else {
                    fill(self.at_value, &[name, &s(v)])
                }
            })
            .collect();
        parts.join(self.value_sep)
    }

    /// A grid's ranges: `pause start 0–10 s × pause 0–30 s, every 0.02 s`.
    pub fn bounds(&self, bounds: &[Bound]) -> String {
        let named: Vec<(&str, bool, Ms, Ms, Ms)> = (bounds.iter())
            .map(|b| {
                let off = matches!(b.key.spec().kind, Kind::At { .. });
                ((self.text.disturbance)(b.key), off, b.from, b.to, b.step)
            })
            .collect();
        self.named_bounds(&named)
    }

    /// Ranges by name (with whether 0 is "off", and the grid); the page's grids have one spacing.
    fn named_bounds(&self, bounds: &[(&str, bool, Ms, Ms, Ms)]) -> String {
        let ranges: Vec<String> = bounds.iter().map(|&b| self.named_range(b)).collect();
        let every = bounds.first().map_or(String::new(), |b| fill(self.every, &[&s(b.4)]));
        ranges.join(" × ") + &every
    }

    /// One dimension's range, `pause 0–30 s`, or its one value, `pause start 0 s` (a 2 ms lease).
    pub fn range(&self, b: &Bound) -> String {
        let off = matches!(b.key.spec().kind, Kind::At { .. });
        self.named_range(((self.text.disturbance)(b.key), off, b.from, b.to, b.step))
    }

    fn named_range(&self, (name, off, from, to, step): (&str, bool, Ms, Ms, Ms)) -> String {
        match () {
            // Its 0 is "off": the grid is off, then every step from the first.
            _ if off && from == 0 && to > 0 => fill(self.at_off[1], &[name, &s(step.min(to)), &s(to)]),
            _ if from == to => self.named_values(&[(name, off, from)]),
            _ => fill(self.over_range, &[name, &s(from), &s(to)]),
        }
    }

    /// The current run as the reader's own find.
    pub fn found(&self, kind: OutcomeKind) -> String {
        let which = if kind.unsafe_data() {
            0
        } else if kind.liveness_lost() {
            1
        } else {
            2
        };
        fill(self.found[which], &[self.text.outcome_title(kind)])
    }

    /// A finished search as sentences: what ran, then the smallest safety and liveness failures.
    pub fn report(&self, r: &Report) -> String {
        let failures =
            [&r.safety, &r.liveness].map(|c| c.as_ref().map(|c| (c.outcome, self.values(&c.inputs))));
        let mut out = self.searched(r.schedules, r.millis, &self.bounds(&r.bounds), failures);
        if r.scenario == ScenarioId::Failover && r.inputs.sync {
            out.push(self.failover_assumes.to_owned());
        }
        out.join(self.text.join)
    }

    /// A script's finished search, in the same sentences, its named values by their names.
    pub fn script_report(&self, r: &ScriptReport) -> String {
        let axes: Vec<(&str, bool, Ms, Ms, Ms)> =
            r.axes.iter().map(|a| (a.name.as_str(), a.off, a.from, a.to, a.step)).collect();
        let failures = [&r.safety, &r.liveness].map(|f| {
            f.as_ref().map(|f| {
                let values: Vec<(&str, bool, Ms)> =
                    axes.iter().zip(&f.values).map(|(a, &v)| (a.0, a.1, v)).collect();
                (f.outcome, self.named_values(&values))
            })
        });
        self.searched(r.schedules, r.millis, &self.named_bounds(&axes), failures).join(self.text.join)
    }

    /// Either search's report: what ran over which bounds, then each failure found (its verdict and the
    /// values that give it, empty when nothing varied) or that none was.
    fn searched(
        &self,
        schedules: u64,
        millis: u64,
        bounds: &str,
        failures: [Option<(OutcomeKind, String)>; 2],
    ) -> Vec<String> {
        let count = grouped(schedules);
        let head =
            fill_with(
                if bounds.is_empty() { self.searched_one } else { self.searched },
                &|name| match name {
                    "count" => count.clone(),
                    "ms" => millis.to_string(),
                    _ => bounds.to_owned(),
                },
            );
        let mut out = vec![head];
        for (templates, found) in self.failures.iter().zip(failures) {
            out.push(match found {
                Some((kind, values)) if values.is_empty() => {
                    fill(templates[1], &[self.text.outcome_title(kind)])
                }
                Some((kind, values)) => fill_with(templates[0], &|name| match name {
                    "title" => self.text.outcome_title(kind).to_owned(),
                    _ => values.clone(),
                }),
                None => templates[2].to_owned(),
            });
        }
        out
    }
}

fn index(kind: OutcomeKind) -> usize {
    OutcomeKind::ALL.iter().position(|&k| k == kind).unwrap_or(0)
}

/// `1234567` as `1,234,567`.
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The strings for `lang`.
pub fn text(lang: Lang) -> &'static Text {
    match lang {
        Lang::En => &en::EN,
        Lang::Ja => &ja::JA,
    }
}

/// The strings of the later panels for `lang`.
pub fn panels(lang: Lang) -> &'static Panels {
    match lang {
        Lang::En => &en::EN_PANELS,
        Lang::Ja => &ja::JA_PANELS,
    }
}

/// The page's notes for `lang`.
pub fn notes(lang: Lang) -> &'static Notes {
    match lang {
        Lang::En => &en::EN_NOTES,
        Lang::Ja => &ja::JA_NOTES,
    }
}

/// The reading for `lang`.
pub fn reading(lang: Lang) -> &'static Reading {
    match lang {
        Lang::En => &en::EN_READING,
        Lang::Ja => &ja::JA_READING,
    }
}

/// `template` with each `{}` replaced by the next of `args`: one small function instead of a `format!`
/// per sentence keeps the bundle light.
pub fn fill(template: &str, args: &[&str]) -> String {
    let mut out = String::with_capacity(template.len() + 16 * args.len());
    let mut args = args.iter();
    let mut rest = template;
    while let Some((before, after)) = rest.split_once("{}") {
        out.push_str(before);
        out.push_str(args.next().copied().unwrap_or("?"));
        rest = after;
    }
    out.push_str(rest);
    out
}

/// `template` with each `{name}` replaced by `fact(name)`: named, so each language orders them its own way.
pub fn fill_with(template: &str, fact: &dyn Fn(&str) -> String) -> String {
    let mut out = String::with_capacity(template.len() + 32);
    let mut rest = template;
    while let Some((before, after)) = rest.split_once('{') {
        out.push_str(before);
        match after.split_once('}') {
            Some((name, tail)) => {
                out.push_str(&fact(name));
                rest = tail;
            }
            None => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// Milliseconds as seconds.
fn s(ms: Ms) -> String {
    seconds(ms)
}

#[cfg(test)]
mod tests;
