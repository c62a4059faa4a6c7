#!/usr/bin/env bash
# Records every supported `locksim real` combination on real Redis and etcd and writes them, compact, to
# assets/recordings.json: an array of {scenario, inputs (only those that differ from the scenario's
# defaults), backend, version, recorded (YYYY-MM-DD), real, simulated, max_jitter_ms, events}, for the page to
# draw beside its simulation. `events` is the real run's events, each as numbers (`Event::to_numbers` in
# src/sim/trace.rs): the page replays them through the core's trace builder and classifier. Needs the servers (scripts/setup.sh --real); about 25 s.
set -euo pipefail
cd "$(dirname "$0")/.."
# A debug build is enough: a run's time is its scaled sleeps, not its code.
cargo build --locked --quiet --bin locksim
locksim=target/debug/locksim

# One combination per line, every one at scale 0.1 (the page says time ran ten times faster). gc-pause on
# Redis at the source's 15 s pause; on etcd at 20 s, since etcd 3.4 revokes expired leases only every 500 ms
# of real time (5 s of scenario time at scale 0.1), so at 15 s B may not have written yet when A wakes.
combinations=(
  "--scenario gc-pause --backend redis --pause 15000"
  "--scenario gc-pause --backend redis --pause 15000 --fencing off"
  # The gap fencing cannot close: A writes while B holds the lock but before B's first write.
  "--scenario gc-pause --backend redis --pause 11500 --b-work 3000"
  "--scenario gc-pause --backend etcd --pause 20000 --scale 0.1"
  "--scenario gc-pause --backend etcd --pause 20000 --fencing off --scale 0.1"
  "--scenario setnx-expire --backend redis --atomic off"
  "--scenario setnx-expire --backend redis --atomic on"
  "--scenario unsafe-release --backend redis --release plain"
  "--scenario unsafe-release --backend redis --release compare"
  "--scenario crash --backend redis --lease on"
  # A Redis primary and its replica. Without sync the primary dies before A's SET and INCR reach the replica
  # (the replica is stopped from t = 0 to stand for that delay) and the promoted replica gives B token 33
  # again; with WAIT 1 it kept both. Fencing changes neither verdict: one recording per sync setting.
  "--scenario failover --backend redis --sync off"
  "--scenario failover --backend redis --sync on"
  # etcd's lock recipe on one member (no leader crash: that needs three), at 20 s for the reason above.
  "--scenario etcd --backend etcd --pause 20000 --scale 0.1"
  "--scenario etcd --backend etcd --pause 20000 --fencing off --scale 0.1"
)

runs=$(mktemp)
trap 'rm -f "$runs"' EXIT
for combination in "${combinations[@]}"; do
  start=$(date +%s%N)
  # shellcheck disable=SC2086 # one combination is several words
  "$locksim" real $combination --json 2>/dev/null >>"$runs"
  took=$((($(date +%s%N) - start) / 1000000))
  tail -n 1 "$runs" | COMBINATION="$combination" TOOK="$took" node -e '
    const r = JSON.parse(require("fs").readFileSync(0, "utf8"));
    const same = r.real === r.simulated ? "" : "   (real differs from simulated)";
    const { COMBINATION, TOOK } = process.env;
    console.error(`record: ${COMBINATION}: simulated ${r.simulated}, real ${r.real}, max jitter ${r.max_jitter_ms} ms, ${TOOK} ms${same}`);
  '
done

mkdir -p assets
RUNS="$runs" node -e '
  const fs = require("fs");
  const recorded = new Date().toISOString().slice(0, 10);
  const runs = fs.readFileSync(process.env.RUNS, "utf8").trim().split("\n").map((line) => JSON.parse(line));
  // The page says time ran ten times faster: hold every recording to it.
  const off = runs.find((r) => r.scale !== 0.1);
  if (off) throw new Error(`${off.scenario} on ${off.backend} ran at scale ${off.scale}, not 0.1`);
  const out = runs.map((r) => ({
    scenario: r.scenario,
    inputs: r.changed,
    backend: r.backend,
    version: r.version,
    recorded,
    real: r.real,
    simulated: r.simulated,
    max_jitter_ms: r.max_jitter_ms,
    events: r.events,
  }));
  fs.writeFileSync("assets/recordings.json", JSON.stringify(out) + "\n");
'
printf 'record: assets/recordings.json, %s bytes, %s bytes gzip -9\n' \
  "$(wc -c <assets/recordings.json)" "$(gzip -9c assets/recordings.json | wc -c)"
