#!/usr/bin/env bash
# Records every supported `locksim real` combination on real Redis, etcd and ZooKeeper and writes them, compact, to
# assets/recordings.json: an array of {scenario, inputs (only those that differ from the scenario's
# defaults), backend, version, scale (real time per scenario time), recorded (YYYY-MM-DD), real, simulated, max_jitter_ms, events}, for the page to
# draw beside its simulation. `events` is the real run's events, each as numbers (`Event::to_numbers` in
# src/sim/trace.rs): the page replays them through the core's trace builder and classifier. Needs the servers (scripts/setup.sh --real) and rustc (for Redlock's clock library); about 2 min.
#
# `scripts/record.sh PATTERN` records again only the combinations whose line below contains PATTERN (for
# example `'register-token --backend etcd'`) and keeps every other recording, with its date, as it is in
# assets/recordings.json.
set -euo pipefail
cd "$(dirname "$0")/.."
only=${1:-}
# A debug build is enough: a run's time is its scaled sleeps, not its code.
cargo build --locked --quiet --bin locksim
locksim=target/debug/locksim

# One combination per line, each at its default scale (the recording keeps it, and the caption states it):
# Redis at 0.1 (it expires a key the moment it is read after its time); etcd at 1, since etcd 3.4 revokes
# expired leases only every 500 ms of real time, which must stay under a tenth of the 10 s lease, and
# register-token on etcd at 2 (half speed), where that lateness must also stay inside the 0.5 s between B's
# grant and A's wake.
combinations=(
  "--scenario gc-pause --backend redis --pause 15000"
  "--scenario gc-pause --backend redis --pause 15000 --fencing off"
  # The gap fencing cannot close: A writes while B holds the lock but before B's first write.
  "--scenario gc-pause --backend redis --pause 11500 --b-work 3000"
  "--scenario gc-pause --backend etcd --pause 15000"
  "--scenario gc-pause --backend etcd --pause 15000 --fencing off"
  # A asks the server how much lease is left (PTTL; etcd LeaseTimeToLive) at 2 s, then is stopped.
  "--scenario check-then-pause --backend redis"
  "--scenario check-then-pause --backend redis --fencing off"
  "--scenario check-then-pause --backend etcd"
  "--scenario setnx-expire --backend redis --atomic off"
  "--scenario setnx-expire --backend redis --atomic on"
  # GET then a plain SET (SET … GET says whose lock it overwrote); with atomic on, SET NX retried.
  "--scenario check-then-set --backend redis --atomic off"
  "--scenario check-then-set --backend redis --atomic on"
  "--scenario unsafe-release --backend redis --release plain"
  "--scenario unsafe-release --backend redis --release compare"
  "--scenario crash --backend redis --lease on"
  # A's write crosses a proxy that holds it for the delay on its way to a PostgreSQL server.
  "--scenario network-delay --backend redis"
  "--scenario network-delay --backend redis --fencing off"
  # Each grant registers its token at the storage (an SQL UPDATE) before the holder acts.
  "--scenario register-token --backend redis --register on"
  "--scenario register-token --backend redis --register off"
  # On etcd at half speed: etcd's revocation, up to 500 ms of real time late, is then at most 250 ms of the
  # 0.5 s between B's grant (10 s) and A's wake (10.5 s).
  "--scenario register-token --backend etcd"
  # A Redis primary and its replica. Without sync the primary dies before A's SET and INCR reach the replica
  # (the replica is stopped from t = 0 to stand for that delay) and the promoted replica gives B token 33
  # again; with WAIT 1 it kept both. Fencing changes neither verdict: one recording per sync setting.
  "--scenario failover --backend redis --sync off"
  "--scenario failover --backend redis --sync on"
  # Five Redis servers, N3 under a preload library that moves its wall clock 9 s forward at 2 s.
  "--scenario redlock --backend redis"
  # etcd's lock recipe on one member; with a leader crash, on three, the leader SIGKILLed at 5 s.
  "--scenario etcd --backend etcd"
  "--scenario etcd --backend etcd --fencing off"
  "--scenario etcd --backend etcd --leader-crash 5000"
  # A three-member ZooKeeper ensemble at 0.5 (sessions expire on its 100 ms tick).
  "--scenario zookeeper --backend zookeeper"
  "--scenario zookeeper --backend zookeeper --fencing off"
)

runs=$(mktemp)
errors=$(mktemp)
trap 'rm -f "$runs" "$errors"' EXIT
if [[ -n "$only" ]]; then
  # The recordings kept must be the ones of these combinations, in this order.
  COMBINATIONS=$(printf '%s\n' "${combinations[@]}") node -e '
    const kept = JSON.parse(require("fs").readFileSync("assets/recordings.json", "utf8"));
    const lines = process.env.COMBINATIONS.trim().split("\n");
    const word = (c, flag) => c.split(" ")[c.split(" ").indexOf(flag) + 1];
    const off = lines.findIndex((c, i) => !kept[i] || kept[i].scenario !== word(c, "--scenario")
      || kept[i].backend !== word(c, "--backend"));
    if (kept.length !== lines.length || off >= 0) {
      throw new Error(`assets/recordings.json does not hold these combinations (line ${off + 1}): record them all`);
    }
  '
  matched=0
fi
for index in "${!combinations[@]}"; do
  combination=${combinations[$index]}
  if [[ -n "$only" && "$combination" != *"$only"* ]]; then
    # Kept as recorded: the run from assets/recordings.json, as one line.
    INDEX="$index" node -e '
      const kept = JSON.parse(require("fs").readFileSync("assets/recordings.json", "utf8"));
      console.log(JSON.stringify({ kept: kept[Number(process.env.INDEX)] }));
    ' >>"$runs"
    continue
  fi
  matched=$((${matched:-0} + 1))
  start=$(date +%s%N)
  # shellcheck disable=SC2086 # one combination is several words
  # A run that could not keep its timing (the machine stalled) gives no verdict: it is tried again, twice.
  for try in 1 2 3; do
    if "$locksim" real $combination --json 2>"$errors" >>"$runs"; then
      break
    elif ((try == 3)) || ! grep "could not keep its timing" "$errors" >/dev/null; then
      printf 'record: %s failed:\n' "$combination" >&2
      cat "$errors" >&2
      exit 1
    fi
    printf 'record: %s: %s\n' "$combination" "$(tail -n 1 "$errors")" >&2
  done
  took=$((($(date +%s%N) - start) / 1000000))
  tail -n 1 "$runs" | COMBINATION="$combination" TOOK="$took" node -e '
    const r = JSON.parse(require("fs").readFileSync(0, "utf8"));
    const same = r.real === r.simulated ? "" : "   (real differs from simulated)";
    const { COMBINATION, TOOK } = process.env;
    console.error(`record: ${COMBINATION}: simulated ${r.simulated}, real ${r.real}, max jitter ${r.max_jitter_ms} ms, ${TOOK} ms${same}`);
  '
done

if [[ -n "$only" ]] && ((matched == 0)); then
  printf 'record: no combination contains %s\n' "$only" >&2
  exit 2
fi

mkdir -p assets
RUNS="$runs" node -e '
  const fs = require("fs");
  const recorded = new Date().toISOString().slice(0, 10);
  const runs = fs.readFileSync(process.env.RUNS, "utf8").trim().split("\n").map((line) => JSON.parse(line));
  // Every recording keeps its timing: a real run over the bound gives no verdict (locksim exits 1).
  const late = runs.find((r) => !r.kept && r.max_jitter_ms * 10 >= r.inputs.ttl);
  if (late) throw new Error(`${late.scenario} on ${late.backend}: jitter ${late.max_jitter_ms} ms`);
  const out = runs.map((r) => r.kept || ({
    scenario: r.scenario,
    inputs: r.changed,
    backend: r.backend,
    version: r.version,
    scale: r.scale,
    recorded,
    real: r.real,
    simulated: r.simulated,
    max_jitter_ms: r.max_jitter_ms,
    events: r.events,
  }));
  fs.writeFileSync("assets/recordings.json", JSON.stringify(out) + "\n");
  // What the page fetches when its panel opens: one line per run, read by src/present/recordings.rs.
  const lines = [
    "# Real runs for the page (scripts/record.sh writes this beside recordings.json; tests/recordings.rs checks they agree).",
    "# scenario\tinputs\tbackend\tversion\trecorded\tsimulated\treal\tmax_jitter_ms\tspeed\tevents",
    ...out.map((r) => [
      r.scenario,
      Object.entries(r.inputs).map(([k, v]) => `${k}=${v}`).join(",") || "-",
      r.backend, r.version, r.recorded, r.simulated, r.real, r.max_jitter_ms,
      // How fast it ran: 10 (ten times faster), 1 (in real time), 1/2 (half speed).
      r.scale > 1 ? `1/${Math.round(r.scale)}` : Math.round(1 / r.scale),
      r.events.map((e) => e.join(",")).join(" "),
    ].join("\t")),
  ];
  fs.writeFileSync("assets/recordings.txt", lines.join("\n") + "\n");
'
printf 'record: assets/recordings.json and assets/recordings.txt (what the page fetches: %s bytes, %s gzip -9)\n' \
  "$(wc -c <assets/recordings.txt)" "$(gzip -9c assets/recordings.txt | wc -c)"
