//! The source's widget: A pauses for GC right after taking the lock.

use crate::scenarios::prelude::*;

/// The definition.
pub static DEF: Definition = Definition {
    id: "gc-pause",
    group: Group::Losing,
    keys: &[Key::Pause, Key::Lease, Key::Fencing],
    extras: BASE_EXTRAS,
    en: Card {
        title: "GC pause",
        blurb: "The holder freezes for longer than its lease.",
        setup: "{base}",
        prompt: "A {pause_start?pauses at # s and |}wakes after {pause} s, with lease expiry {lease} and fencing {fencing}. What happens?",
        choices: choices::BASE_EN,
    },
    ja: Card {
        title: "GC 停止",
        blurb: "持ち主が期限より長く止まる。",
        setup: "{base}",
        prompt: "A は{pause_start?#秒に止まり、|}{pause}秒後に目を覚まします（リース期限は{lease}、フェンシングは{fencing}）。何が起きる？",
        choices: choices::BASE_JA,
    },
};
