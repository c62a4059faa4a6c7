//! A checks its lease, then pauses before writing.

use crate::scenarios::prelude::*;

/// The definition.
pub static DEF: Definition = Definition {
    id: "check-then-pause",
    group: Group::Losing,
    keys: &[Key::Pause, Key::Lease, Key::Fencing],
    extras: &[Key::Ttl, Key::BRequest, Key::BWork, Key::FirstToken],
    en: Card {
        title: "Check, then pause",
        blurb: "A checks its lease just before writing, and stops right after the check.",
        setup: "As in the GC pause, but A works {check} s first, checks its lease on its own clock and, if it is still \
                 valid, pauses, then writes without checking again. The lease lasts {ttl} s; B asks at {b_request} s and writes {b_work} s \
                 after it gets the lock.",
        prompt: "A checks its lease at {check} s and, if it is still valid, pauses until {wake} s, with lease expiry {lease} and fencing {fencing}. What happens?",
        choices: choices::BASE_EN,
    },
    ja: Card {
        title: "確かめてから止まる",
        blurb: "A は書き込みの直前に期限を確かめ、その直後に止まる。",
        setup: "GC 停止と同じですが、A はまず{check}秒働いて自分の時計で期限を確かめ、まだ有効なら、そこで止まります。\
                 目覚めると、確かめ直さずに書き込みます。期限は{ttl}秒で、B は{b_request}秒にロックを求め、受け取ってから{b_work}秒後に\
                 書き込みます。",
        prompt: "A は{check}秒に期限を確かめ、まだ有効なら{wake}秒まで止まります（リース期限は{lease}、フェンシングは{fencing}）。何が起きる？",
        choices: choices::BASE_JA,
    },
};
