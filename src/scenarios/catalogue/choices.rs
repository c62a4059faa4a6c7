//! Answers several scenarios share: the base scenario's, and those of scenarios whose lease is always on.

use crate::sim::OutcomeKind::{self, *};

/// The base scenario's answers, in English.
pub const BASE_EN: &[(OutcomeKind, &str)] = &[
    (Safe, "A does no harm; B gets the lock no later than a lease would let it"),
    (Stalled, "With no lease to free the lock, B waits until A lets go"),
    (Fenced, "A's late write is rejected by the storage"),
    (UnfencedGap, "A's late write is accepted before B's first write: both write"),
    (Corrupted, "A's late write is accepted after B's and overwrites it"),
];

/// The same in Japanese.
pub const BASE_JA: &[(OutcomeKind, &str)] = &[
    (Safe, "A は誰にも害を与えない。B は遅くとも、リースでロックが外れる時刻にはロックを取れる"),
    (Stalled, "ロックを外すリースがないので、B は A がロックを返すまで待たされる"),
    (Fenced, "A の遅れた書き込みは、資源に拒否される"),
    (UnfencedGap, "A の遅れた書き込みが B の最初の書き込みより先に受け付けられ、二人とも書き込む"),
    (Corrupted, "A の遅れた書き込みが B の書き込みのあとに受け付けられ、B の仕事を上書きする"),
];

/// The answers of scenarios whose lease is always on (etcd, ZooKeeper, registration): none stalls, in
/// English.
pub const ALWAYS_LEASED_EN: &[(OutcomeKind, &str)] = &[
    (Safe, "A does no harm: no conflict"),
    (Fenced, "A's late write is rejected by the storage"),
    (UnfencedGap, "A's late write is accepted before B's first write: both write"),
    (Corrupted, "A's late write is accepted after B's and overwrites it"),
];

/// The same in Japanese.
pub const ALWAYS_LEASED_JA: &[(OutcomeKind, &str)] = &[
    (Safe, "A は誰にも害を与えない。衝突はない"),
    (Fenced, "A の遅れた書き込みは、資源に拒否される"),
    (UnfencedGap, "A の遅れた書き込みが B の最初の書き込みより先に受け付けられ、二人とも書き込む"),
    (Corrupted, "A の遅れた書き込みが B の書き込みのあとに受け付けられ、B の仕事を上書きする"),
];
