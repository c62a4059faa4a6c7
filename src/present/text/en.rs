//! English.

use super::{fill, s, Notes, Panels, Reading, ScenarioText, Text, Varied};
use crate::present::geom::SNAP;
use crate::present::params::Problem;
use crate::scenarios::{Group, Key, ScenarioId};
use crate::sim::OutcomeKind::*;

fn scenario(id: ScenarioId) -> &'static ScenarioText {
    &id.def().en
}

pub(super) static EN: Text = Text {
    base_setup: "Workers A and B write to the storage only while they hold the lock, a {ttl} s lease. A takes it first, \
         with token {first_token}, and stops in a GC pause {pause_start?after working until # s|right after}; B asks at {b_request} s, takes the lock with token {second} as soon as it is free, and \
         writes {b_work} s after that.",
    title: "Fencing Lab",
    tagline: "How a distributed lock stays safe: leases and fencing tokens.",
    question: "A machine that was stopped wakes up. What happens? What happens to A's write if it wakes after \
               15 seconds?",
    figure_label: "Timeline of the workers, the lock service and the storage",
    devices: "The two devices protect different things. The lease protects liveness: even if the holder dies, \
              the lock comes back one day (without it, a stuck holder holds everyone up). The token protects safety: once the storage has seen the next holder's token, a holder that missed its expiry cannot write (without it, data can break).",
    switch_name: |key| match key {
        Key::Lease => "Lease expiry",
        Key::Fencing => "Fencing",
        Key::Atomic => "Atomic set",
        Key::Release => "Compare-and-delete release",
        Key::LockDelay => "Lock-delay",
        Key::Register => "Register the token",
        Key::Sync => "WAIT for the replica",
        Key::LeaderCrash => "Leader crash",
        _ => "",
    },
    switch_hint: |key| match key {
        Key::Lease => "the lock expires {ttl} s after it is granted",
        Key::Fencing => "the storage rejects a token older than one it has seen",
        Key::Atomic => "check that the lock is free, take it and set its expiry in one command (SET NX PX)",
        Key::Release => "delete the key only if it still holds my value",
        Key::LockDelay => "after an expiry, nobody may take the lock for {lock_delay} s",
        Key::Register => "the new holder's token reaches the storage at its grant",
        Key::Sync => "after its SET and INCR, A blocks (WAIT 1) until the replica acknowledges them",
        Key::LeaderCrash => "the leader crashes at {crash_on} s; a new one is ready 1 s later",
        _ => "",
    },
    switch_state: |on| if on { "on" } else { "off" },
    when_on: "when on: ",
    drag_label: |key| match key {
        Key::Jump => "N3's clock jump: ",
        Key::Delay => "Network delay of A's write: ",
        Key::Work => "A's job ends at: ",
        _ => "A's GC pause: ",
    },
    handle_name: |key| match key {
        Key::Jump => "Size of N3's clock jump",
        Key::Delay => "Arrival of A's delayed write",
        Key::Work => "End of A's job",
        _ => "Right edge of A's GC pause",
    },
    handle_value: |key, v, end| match key {
        Key::Jump => fill("N3's clock jumps {} s ahead, to {} s", &[&s(v), &s(end)]),
        Key::Delay => fill("delay {} s, arrives at {} s", &[&s(v), &s(end)]),
        Key::Work => fill("A releases at {} s", &[&s(v)]),
        _ => fill("pause {} s, A wakes at {} s", &[&s(v), &s(end)]),
    },
    worker: |name| fill("Worker {}", &[name]),
    lock_service: "Lock service",
    services: ["Lock (primary)", "Majority", "etcd", "ZooKeeper"],
    nodes: ["Primary", "Replica"],
    no_fencing: "unavailable: Redlock's values are random, so there is nothing to order",
    jumped: |by| fill("clock +{} s", &[&s(by)]),
    promoted: ["promoted, with the key", "promoted, empty"],
    electing: "no leader",
    storage: "Storage",
    believes: "believes it holds the lock",
    holds: "holds the lock (per the lock service)",
    paused: "GC pause",
    job: "A's job",
    in_flight: "write in the network",
    waiting: "waiting for the lock",
    false_belief: "believes it holds the lock, but does not",
    two_holders: "two holders",
    crashed: "crash",
    lease_ends: |t| fill("lease ends {} s", &[&s(t)]),
    lease_would_end: |t| fill("no expiry (a lease would end {} s)", &[&s(t)]),
    lock_free: |t| fill("lock-delay ends {} s", &[&s(t)]),
    accepted: "accepted",
    overwrites: |h| fill(" (overwrites {})", &[&h.to_string()]),
    rejected: "rejected",
    registered: |t| fill("{} registered", &[&t.to_string()]),
    highest: "highest token seen: ",
    outcome_titles: [
        "Safe: no conflict",
        "Stalled: the waiter is held up",
        "Orphaned: the lock is never freed",
        "Fenced: the stale write is rejected",
        "Unfenced gap: a stale write got in",
        "Double grant: two holders wrote",
        "Corrupted: newer work overwritten",
    ],
    double_grant_fact: |twice| {
        if twice {
            "The lock service had two holders at once."
        } else {
            "The lock service never had two holders at once."
        }
    },
    verdict: "Verdict",
    join: " ",
    notice: "Part of this link was not understood, so the default was used instead:",
    problem: |p| match p {
        Problem::NotANumber { key, value } => fill("{}: “{}” is not a whole number", &[key, value]),
        Problem::OutOfRange { key, value, min, max } => {
            fill("{}: {} is outside {}–{}", &[key, value, &min.to_string(), &max.to_string()])
        }
        Problem::NotOneOf { key, value, allowed } => {
            fill("{}: “{}” is not one of {}", &[key, value, &allowed.join(", ")])
        }
        Problem::UnknownKey(key) => fill("unknown setting “{}”", &[key]),
        Problem::BesideScript(key) => fill("{}: not applied to a script; set it in the script’s text", &[key]),
        Problem::Unused(key) => fill("{}: not used by this scenario", &[key]),
        Problem::Unavailable { key, value, scenario } => {
            fill("{}: “{}” is not available in {}, so it stays off", &[key, value, scenario])
        }
        Problem::Repeated { key, value } => fill("{}: “{}”", &[key, value]),
    },
    message_notice: "The embedding page sent a value that was not understood; the current value was kept:",
    repeated_notice: "This link gives a setting more than once; the page used its last value:",
    play: "Play",
    stop: "Pause",
    step_back: "Previous event",
    step_forward: "Next event",
    to_end: "Jump to the end",
    scrub: "Playhead",
    playhead: |t| fill("{} s", &[&s(t)]),
    language: "Language",
    scenarios: "Ways a lock fails",
    group: |g| match g {
        Group::Taking => "Taking the lock",
        Group::Losing => "Losing it",
        Group::GivingBack => "Giving it back",
        Group::Fencing => "Fencing",
        Group::Replicated => "Replicated lock services",
    },
    scenario,
    predict_heading: "Predict first",
    play_and_see: "Play and see",
    skip: "Skip: show me",
    watching: "Watch what happens…",
    right: "You predicted it.",
    wrong: |picked| fill("You predicted “{}”. What happened instead:", &[picked]),
    predict_again: "Predict again",
    disturbance: |key| match key {
        Key::PauseStart => "pause start",
        Key::Delay => "network delay",
        Key::Work => "A's job end",
        Key::BWork => "B's work before writing",
        Key::BRequest => "B's request",
        Key::Ttl => "lease",
        Key::Jump => "N3's clock jump",
        Key::LeaderCrash => "leader crash",
        _ => "pause",
    },
    share: "Share / embed",
    share_loading: "Loading the link, the snippet and the downloads…",
    share_failed: "The link, the snippet, the downloads and the projector could not be loaded.",
    consensus_service: "Consensus group",
    clock_jump: |n| fill("N{}'s clock jump", &[&(n + 1).to_string()]),
    value_handle: |name| fill("Right edge of the named value {}", &[name]),
    value_text: |v, end| fill("{} s, its band ends at {} s", &[&s(v), &s(end)]),
    script_title: "Your script",
    script_setup: |workers, service, ttl, expiry, fencing| {
        let on = |b: bool| if b { "on" } else { "off" };
        format!(
            "A scenario written as a script: {workers} worker{}, {service}, a {} s lease, expiry {}, fencing {}.",
            if workers == 1 { "" } else { "s" },
            s(ttl),
            on(expiry),
            on(fencing)
        )
    },
    script_prompt: |value| match value {
        Some((name, v)) => fill("With {} at {} s, what happens?", &[name, &s(v)]),
        None => "What happens?".to_owned(),
    },
    edit_script: "Edit as script",
    reading_script: "Reading the script…",
    script_broken: |message| fill("The script could not be read: {}. The figure keeps what it showed.", &[message]),
    script_unread: |message| match message {
        "" => "Nothing to draw until the script reads.".to_owned(),
        m => fill("The script could not be read: {}. Nothing is drawn until it reads.", &[m]),
    },
    named_switch: |name| fill("picks the steps of {{}? on | off}", &[name]),
    value_slider: |name| fill("Named value {}", &[name]),
    later_loading: "Loading the next panels: “Seen on real systems”, “Where does it change?”, “Break it”…",
    later_failed: "The next panels (“Seen on real systems”, “Where does it change?”, “Break it”) could not be loaded.",
    retry: "Try again",
    narration_loading: "Loading the account of this run…",
    narration_failed: "The account of this run could not be loaded: try again below.",
};

pub(super) static EN_PANELS: Panels = Panels {
    text: &EN,
    why: crate::present::why::en,
    told: crate::present::told::en,
    outcome_lessons: [
        "No write collided.",
        "Without expiry a stuck holder holds everyone up: the lease buys liveness.",
        "A dead holder that nothing expires keeps the lock for ever.",
        "Fencing protected the data: the storage refused the older token.",
        "A stale write landed before the new holder's first write, and the storage accepted both.",
        "The lock itself failed: two workers held it at once, and both wrote.",
        "A worker that had lost the lock overwrote newer work.",
    ],
    plain_lessons: [
        "Fencing protected the data: the storage refused a write that carried no token.",
        "A worker waited for the lock to the end and never got it.",
        "A stale write landed while another worker held the lock, and the storage accepted it.",
        "A worker that had not taken the lock overwrote the work of one that had.",
        "A worker that had not taken the lock wrote while another held it, and the storage accepted the write.",
    ],
    projector_label: "The run, one moment at a time",
    projector_step: |k, n, at| fill("Step {} of {} · {} s", &[&k.to_string(), &n.to_string(), &s(at)]),
    projector_buttons: ["Back", "Next", "Leave"],
    projector_keys: "→ or Space: next · ←: back · Esc: leave",
    projector_bad_step: |given, n, shown| {
        fill(
            "This link's step “{}” is not one of this run's steps (1 to {}); showing step {}.",
            &[given, &n.to_string(), &shown.to_string()],
        )
    },
    projector_empty: "Nothing happens in this run to step through.",
    share_link: "Link to this exact state",
    share_embed: "Embed in a page (iframe)",
    copy: "Copy",
    copied: "Copied",
    copy_failed: "The browser would not copy; the text is selected: press Ctrl+C (⌘C).",
    download_svg: "Download the figure (SVG)",
    download_png: "Download the figure (PNG)",
    present: "Present it step by step",
    download_animated: "Download the run, animated (SVG)",
    boundary_heading: "Where does it change?",
    boundary_question: |varied, kind| {
        let what = match varied {
            Varied::Input(Key::Delay) => "network delay",
            Varied::Input(Key::Work) => "job end",
            Varied::Input(Key::Jump) => "clock jump",
            Varied::Input(_) => "pause",
            Varied::Named(name) => name,
        };
        let verdict = match kind {
            Fenced => "the stale write is rejected",
            Corrupted => "newer work is overwritten",
            Stalled => "the waiter is stalled",
            Orphaned => "the lock is never freed",
            UnfencedGap => "both writes are accepted",
            DoubleGrant => "two holders write",
            Safe => "nothing goes wrong",
        };
        fill("Drag the marker to the shortest {} at which {}.", &[what, verdict])
    },
    ghost_name: "Your guess",
    ghost_value: |t| fill("guess {} s", &[&s(t)]),
    check: "Check",
    boundary_result: |guess, b| {
        let (truth, until, first) = (b.at, b.until, b.first);
        let off = guess.abs_diff(truth);
        let span = match until {
            Some(end) => fill("from {} s to {} s", &[&s(truth), &s(end)]),
            None => fill("from {} s on", &[&s(truth)]),
        };
        // A guess is made in steps of 0.1 s: one within a step is right, and one that is not exact says so,
        // since the verdict at the guess itself may still be the earlier one.
        let mut out = if off == 0 {
            fill("Right: {}.", &[&span])
        } else if off < SNAP {
            fill("Right, for a guess made in steps of 0.1 s: it is {}.", &[&span])
        } else {
            fill("It is {}; your guess of {} s was {} s off.", &[&span, &s(guess), &s(off)])
        };
        if let Some((t, kind)) = first {
            out += &fill(" The verdict first changes earlier, at {} s: {}.", &[&s(t), EN.outcome_title(kind)]);
        }
        out
    },
    boundary_none: "With these settings every value gives the same verdict.",
    boundary_too_long: "This script's runs are too long to run for every value here: drag the band to see them one at a time.",
    outcome_map: |min, max| fill("Verdict for every value from {} to {} s", &[&s(min), &s(max)]),
    break_heading: "Break it",
    break_intro: [
        "Can anything go wrong with these switches? Hunt for a failure yourself first: drag the band, flip a \
         switch, pick a run on the map. Then the search runs every combination within its bounds and names the \
         failure with the least total disturbance.",
        "Can anything go wrong with these switches? Nothing here has a timing to vary: flip a switch to hunt for \
         a failure, then let the search run its one schedule.",
        "Can anything go wrong with this script? Hunt for a failure yourself first: change a value, flip a switch. \
         Then the search runs every combination of its named values within the bounds it states and \
         names the failure with the least total disturbance.",
        "Nothing to break until the script reads: the editor says what to fix.",
    ],
    found: [
        "Broken: this run ends “{}”, a safety failure: a write the lock should have kept out got in.",
        "Broken: this run ends “{}”, a liveness failure: nothing made the holder let go, and a waiter waited on it.",
        "This run holds (“{}”): no failure yet.",
    ],
    at_value: "{} {} s",
    at_off: ["{} off", "{} off or {}–{} s"],
    over_range: "{} {}–{} s",
    value_sep: ", ",
    every: ", every {} s",
    search: "Search every schedule",
    searching: "Searching",
    search_stopped: "Search stopped: the settings changed before it finished. Search again to cover these settings.",
    searched: "Ran {count} schedules in {ms} ms: {bounds}.",
    searched_one: "Ran the one schedule this scenario has, in {ms} ms: it has nothing to vary.",
    failures: [
        [
            "Safety: the smallest failure is “{title}”, at {at}.",
            "Safety: it fails with nothing varied: “{}”.",
            "Safety: no failure within these bounds.",
        ],
        [
            "Liveness: the smallest failure is “{title}”, at {at}.",
            "Liveness: it fails with nothing varied: “{}”.",
            "Liveness: no failure within these bounds.",
        ],
    ],
    failover_assumes: "No failure with WAIT on rests on the model's assumption, not a guarantee: it promotes the replica WAIT heard from, with \
                       all it acknowledged. Redis calls failover best-effort: a real one can still lose a waited-for lock.",
    show_it: ["Show the safety failure", "Show the liveness failure"],
    plane_cols: "Every run, one cell per second: {} across",
    plane_rows: ", {} down",
    real_heading: "Seen on real systems",
    real_intro: "The same scenario on real lock services from Debian's packages: Redis (one server, a primary and \
                 its replica, or five for Redlock), etcd (one member, or three for the leader crash) and a \
                 three-member ZooKeeper ensemble. Each worker is a real process: a GC pause is a real SIGSTOP and \
                 SIGCONT, a crash a SIGKILL, Redlock's clock jump N3's own wall clock moved forward. The storage is \
                 SQLite (PostgreSQL behind a proxy that holds the write, for the network delay), its fenced write \
                 one conditional UPDATE. Each caption says how fast time ran; times are shown in the scenario's \
                 seconds (locksim real, scripts/record.sh). etcd's tokens are revisions and ZooKeeper's czxids. \
                 Without WAIT, the failover stops the replica so that nothing reaches it, as the scenario assumes. \
                 Lock-delay has no real run: no packaged system offers it.",
    real_none: "No real run was recorded for this scenario with these switches.",
    real_loading: "Loading the recordings…",
    real_failed: "The recordings could not be loaded.",
    real_speed: |speed| match speed {
        "1" => "in real time".to_owned(),
        "1/2" => "at half speed".to_owned(),
        _ => fill("{} times faster", &[speed]),
    },
    real_caption: "{system}, recorded {date}, {speed}{values}: real “{real}”, simulated “{simulated}”: {same}; each event at \
                   most {jitter} s off its simulated time.",
    real_same: ["the same", "they differ"],
    open_label: "Open a run",
    open_hint: "A file written by locksim check --json (your own lock client) or locksim real --json: choose it, or \
                drop it here. It stays in this page: nothing is uploaded, and it is not part of the link.",
    open_bad: |p| {
        use crate::present::recordings::OpenProblem::*;
        let why = match p {
            NotJson => "it is not JSON".to_owned(),
            Field(name) => fill("its “{}” is missing or not what a run has", &[name]),
            Empty => "its list of runs is empty".to_owned(),
            TooBig => "it is larger than any run".to_owned(),
        };
        fill("That file is not a run of locksim check or locksim real: {}. The page keeps what it showed.", &[&why])
    },
    open_caption: "Your file: {who} on {system}, {speed}: “{real}”; the lab's own workers in the simulation: “{simulated}”.",
    open_lab: "the lab's own workers",
    open_client: "the client “{}”",
    editor_heading: "Your scenario, as a script",
    editor_label: "Script",
    editor_new: "New",
    editor_from: "Start from",
    editor_reset: "Reset",
    editor_close: "Close the editor",
    editor_help: "One setting or worker per line: “A: acquire, pause {pause=15s}, write, release”; # starts a comment. \
                  At most 4 workers, 32 steps each, 8 named values, 4 named switches, 4,000 characters. The figure \
                  follows as you type; a named value in braces, and a switch a “switch” line declares, each get a control.",
    editor_link_kept: "The page's link holds the last script that read, not this text: shorten it to share it.",
    editor_link_none: "The page's link holds the scenario you started from, not this text: shorten it to share it.",
    editor_reads: |workers, values, switches| {
        let plural = |n: usize, one: &str, many: &str| if n == 1 { format!("1 {one}") } else { format!("{n} {many}") };
        let switches = if switches == 0 { String::new() } else { format!(", {}", plural(switches, "named switch", "named switches")) };
        format!("The script reads: {}, {}{switches}.", plural(workers, "worker", "workers"), plural(values, "named value", "named values"))
    },
    editor_template: "# A new scenario: change it, and the figure follows.",
};

pub(super) static EN_READING: Reading = Reading {
    play_it: "Play it",
    heading: "Reading: leases, fencing tokens, and when not to use a lock",
    sections: &[
        (
            "Why a lock needs a lease",
            &[
                "A lock held by a process that crashes is never released, and the lock service cannot tell a \
                 dead holder from a slow one. So locks are leases: they expire unless renewed in time (Chubby, \
                 Redis keys with PX, etcd leases, ZooKeeper sessions). Without expiry the system stops; with it, \
                 the lock comes back.",
                "Taking the lock must be one atomic step: SETNX then EXPIRE leaves a lock that never expires if \
                 the client dies between the two.",
            ],
            &[ScenarioId::Crash],
        ),
        (
            "Why a lease alone is not safe",
            &[
                "The holder can stop for longer than its lease at any moment: a stop-the-world GC, a suspended or \
                 migrated VM, a page fault under swap, a write held up in the network. Stopped, it cannot read a \
                 clock or renew, so it wakes believing it still holds the lock, and writes.",
                "Checking the lease just before writing does not help: the process can stop between the check and \
                 the write. The holder cannot notice, so the protection must sit with the resource (Kleppmann's \
                 2016 article makes this case with a GC pause).",
            ],
            &[ScenarioId::CheckThenPause],
        ),
        (
            "Fencing tokens: what the storage must do",
            &[
                "With every grant the lock service hands out a number that only goes up: the fencing token. The \
                 client sends it with each write; the storage keeps the highest it has accepted and rejects any \
                 lower one, in one atomic conditional write whose result is checked: UPDATE … SET value = ?, \
                 token = ? WHERE id = ? AND token <= ?, where 0 rows affected means rejected. An equal token passes, so that one holder can write more than once.",
                "Max-token fencing only orders the writes the storage sees: if the old holder writes before the \
                 new holder's first write, both are accepted (the unfenced gap): mutual exclusion is broken, and \
                 the data is harmed if the new holder read or wrote it before the late write landed. This lab closes \
                 the gap by registering the new holder's token at the resource before it acts, its own remedy; the \
                 nearest published practice fences the resource before the new writer goes on (BookKeeper's ledger fencing). Or the resource asks the lock service whether the token is \
                 current (Chubby's sequencer check). In etcd a transaction comparing the lock key's revision does \
                 it only for data kept in etcd itself: for an external store, checking and then writing is a race. \
                 A resource that cannot check tokens (an external service, a file system) cannot be fenced: it needs idempotent work.",
            ],
            &[ScenarioId::RegisterToken],
        ),
        (
            "Redis: SET NX PX, compare-and-delete, failover and Redlock",
            &[
                "Take the lock with one command, SET lock:job <random value> NX PX 30000, and release it with a Lua \
                 script that deletes the key only if it still holds your value: a plain DEL after your lease ran \
                 out deletes the next holder's lock.",
                "Replication is asynchronous by default, and a write the primary acknowledged but never sent is \
                 lost when a replica is promoted (the Redis replication and cluster pages): the new primary can \
                 grant the same lock, and the same INCR token, again. That breaks the uniqueness DDIA asks of fencing \
                 tokens (“No two requests for a fencing token return the same value”), and it is why Kleppmann \
                 wrote that “keeping a counter on one Redis node would not be sufficient, because that node may \
                 fail”. WAIT blocks the client until replicas acknowledge its writes, or until a timeout with fewer; \
                 it “does not make Redis a strongly consistent store”: failover stays best-effort, and even a \
                 waited-for write can be lost.",
                "Redlock, by Redis's author Salvatore Sanfilippo (antirez), takes the lock on a majority of \
                 independent nodes, valid for TTL − elapsed − clock drift; a node restarted without persistence \
                 should stay down longer than the TTL. Kleppmann (2016) argued it is safe only if network delay, \
                 pauses and clock error are bounded, and that it makes no fencing token; the Redis page itself \
                 warns that a wall-clock jump can give two holders, and tells users to implement fencing tokens. \
                 antirez answered in “Is Redlock safe?”: the elapsed-time check after acquiring makes delays and \
                 pauses during acquisition harmless; a pause after acquiring hits every lock that expires; clock jumps are an operational fault, avoided by an NTP that slews instead of stepping, and Redis should move to a monotonic clock (its page still says it uses none for TTLs); a bounded error in the clocks' rate is enough; and the random value with a check-and-set \
                 can stand in for a token. Kleppmann stood by his conclusions, and where correctness depends on the \
                 lock he advises: “please don't use Redlock”. In these scenarios requests, replication and \
                 acquisition take no time, and one node's clock jumps, as in Kleppmann's first counterexample: \
                 exactly the fault antirez calls operational.",
            ],
            &[ScenarioId::UnsafeRelease, ScenarioId::Failover, ScenarioId::Redlock],
        ),
        (
            "ZooKeeper, etcd and Chubby: the token comes with consensus",
            &[
                "ZooKeeper and etcd replicate by consensus: one truth about who holds the lock, tied to a session \
                 or lease that ends when heartbeats stop. Every change gets a number that only goes up and serves \
                 as the fencing token: in ZooKeeper the lock znode's czxid, the zxid of the transaction that created \
                 it (Kleppmann names “the zxid or the znode version number”; DDIA the zxid or cversion); its recipe \
                 gives each client an ephemeral sequential znode, whose sequence number orders the waiters, each \
                 watching the one before its own. In etcd it is the lock key's create revision; etcd's \
                 documentation warns that the lock protects an external resource only if the resource checks that \
                 revision.",
                "etcd's client renews its lease every TTL/3 while it runs, which a GC pause stops too. A new leader \
                 restarts every lease at its full TTL plus an election timeout, counted from when it takes over \
                 (etcd's lessor Promote, with lease checkpointing off, the default), so a leader crash can save a \
                 paused holder but never grants twice. Simplified here: requests take no time, the group is one lane, an election takes \
                 etcd's default 1 s, and 33 and 34 stand for revisions and zxids, which are larger and usually not \
                 consecutive.",
                "Chubby calls the token a sequencer; for servers that cannot check one it offers lock-delay: after a \
                 holder fails or becomes unreachable (not on a normal release), nobody may take its lock for a while, \
                 at most a minute. \
                 The paper calls it imperfect; Consul copies it with a 15 s default. The price of consensus: every \
                 acquisition is a round trip through a quorum.",
            ],
            &[ScenarioId::Etcd, ScenarioId::Zookeeper, ScenarioId::LockDelay],
        ),
        (
            "When not to use a lock at all",
            &[
                "A distributed lock serialises work and can stall the system. First ask whether the database can do \
                 the job: a transaction, a conditional update on a version column, a unique constraint, or \
                 idempotent work that is harmless twice.",
                "Kleppmann's rule of thumb: if the lock only saves duplicate work (efficiency), one Redis lock is \
                 enough; if two holders would corrupt data (correctness), use a consensus-based lock service and \
                 fencing tokens.",
                "Sources: M. Kleppmann, “How to do distributed locking” (2016) and Designing Data-Intensive \
                 Applications (1st ed., ch. 8; 2nd ed., ch. 9); antirez, “Is Redlock safe?” (2016); Apache BookKeeper's ledger fencing; M. Burrows, “The Chubby \
                 lock service for loosely-coupled distributed systems” (OSDI 2006); the Redis documentation on SET, \
                 WAIT, replication and distributed locks; the etcd documentation on leases, the lock API and \
                 failures; the ZooKeeper lock recipe; the Consul session documentation.",
            ],
            &[],
        ),
    ],
};

pub(super) static EN_NOTES: Notes = Notes {
    loading: "Loading the lab in the state this link asks for…",
    needs_scripts: "Playing needs JavaScript and WebAssembly (in an iframe: sandbox=\"allow-scripts allow-same-origin\"). \
                    Shown below: the first frame of the source's own question, whatever state a link asks for.",
};
