//! Redlock over five servers; one server's clock jumps.

use crate::scenarios::prelude::*;

/// Whose clock jumps: N3.
pub const JUMP_NODE: usize = 2;

/// When N3's clock jumps (2 s).
pub const JUMP_AT: Ms = 2_000;

/// The clock-drift allowance for a 10 s lease: the reference implementations' 1 % of the TTL plus 2 ms.
pub const REDLOCK_DRIFT: Ms = 102;

/// The definition.
pub static DEF: Definition = Definition {
    id: "redlock",
    group: Group::Replicated,
    keys: &[Key::Jump],
    extras: &[Key::Pause],
    en: Card {
        title: "Redlock and a clock jump",
        blurb: "One server's clock jumps; its key expires early and a second worker gets a majority.",
        setup: "Five independent Redis servers, N1–N5: a worker holds the lock while it holds a majority (three) of \
                 10 s keys. A reaches only N1–N3 and takes them at 0 s, writes 5 s later and releases; at 2 s N3's \
                 clock jumps forward by the amount you drag. B asks at 3 s, tries again every second, and writes 1 s \
                 after it gets a majority. Such a jump is the fault antirez calls operational, avoided by an NTP that slews; Redis keys still expire by the wall clock. Redlock's values are random: no token orders the writes, and this storage \
                 does no check-and-set.{pause? A pauses # s right after taking the lock.|}",
        prompt: "N3's clock jumps {jump} s ahead{pause?, and A pauses # s|}. What happens?",
        choices: &[
            (Safe, "B gets a majority only after A has written"),
            (UnfencedGap, "A writes late, while B holds the lock but before B writes: both writes stand"),
            (DoubleGrant, "B gets a majority while A still holds the lock, and both write at once"),
            (Corrupted, "A's write lands after B's and overwrites it"),
        ],
    },
    ja: Card {
        title: "Redlock と時計の飛び",
        blurb: "1台の時計が飛んでキーが早く消え、別のワーカーが過半数を取る。",
        setup: "互いに独立した5台の Redis（N1〜N5）。ワーカーは、期限10秒のキーを過半数（3台）で押さえている間だけ\
                 ロックを持ちます。A は N1〜N3 にしか届かず、0秒にその3台を取り、5秒後に書き込んでロックを返します。2秒に N3 の\
                 時計が、ドラッグした分だけ先に飛びます。B は3秒にロックを求め、1秒ごとにやり直し、過半数を取ってから1秒後に書き込みます。\
                 このような飛びは、antirez が運用の誤りと呼び、少しずつ合わせる NTP で避けられるとした故障です。Redis のキーは今も壁時計で期限が切れます。\
                 Redlock の値は乱数なので書き込みを順序づける番号はなく、この資源は check-and-set もしません。{pause?A はロックを取った直後に#秒止まります。|}",
        prompt: "N3 の時計が{jump}秒先に飛び{pause?、A は#秒止まり|}ます。何が起きる？",
        choices: &[
            (Safe, "B が過半数を取れるのは、A が書き込んだあと"),
            (UnfencedGap, "B がロックを取ったあと、B が書き込む前に A が遅れて書き込み、両方の書き込みが残る"),
            (DoubleGrant, "A がまだロックを持っているうちに B も過半数を取り、二人が同時に書き込む"),
            (Corrupted, "A の書き込みが B の書き込みのあとに届き、B の仕事を上書きする"),
        ],
    },
};
