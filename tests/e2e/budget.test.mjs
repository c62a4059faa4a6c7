// The first-load budget check (scripts/budget.mjs) on the release build and on copies of it with bytes
// planted: over the budget by 1 kB it fails and says by how much; the later loads count apart, against their
// own budget.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { execFile } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { root } from './harness.mjs';
import { bundle, FIRST_LOAD_BUDGET, LATER_BUDGET } from '../../scripts/bundle.mjs';

/** Runs the check on `dist`: its exit code and output. */
function check(dist) {
  return new Promise((ok) => {
    execFile('node', [join(root, 'scripts/budget.mjs'), dist], (error, stdout, stderr) =>
      ok({ code: error ? error.code : 0, out: stdout + stderr }));
  });
}

/** `n` bytes that gzip cannot shrink (a fixed xorshift stream, so every run plants the same bytes). */
function noise(n) {
  const out = Buffer.alloc(n);
  let x = 0x9e3779b9;
  for (let i = 0; i < n; i++) {
    x ^= x << 13; x ^= x >>> 17; x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

test('the release build is within the first-load budget, and the check says by how much', async () => {
  const built = await bundle(join(root, 'dist'));
  const { code, out } = await check(join(root, 'dist'));
  assert.equal(code, 0, out);
  assert.match(out, new RegExp(`first load: ${built.first} B`));
  assert.match(out, new RegExp(`within budget by ${FIRST_LOAD_BUDGET - built.first} B`));
});

test('a first load planted 1 kB over the budget fails the check; the same bytes loaded later do not', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'budget-'));
  try {
    const dist = join(dir, 'dist');
    await cp(join(root, 'dist'), dist, { recursive: true });
    const { first } = await bundle(dist);
    // Noise gzips to a little more than its length: shrink the planted file until it lands 1,000 B over.
    let n = FIRST_LOAD_BUDGET + 1000 - first;
    for (;;) {
      await writeFile(join(dist, 'planted.js'), noise(n));
      const over = (await bundle(dist)).first - FIRST_LOAD_BUDGET;
      if (over <= 1000) break;
      n -= over - 1000;
    }
    const planted = (await bundle(dist)).first;
    assert.ok(planted > FIRST_LOAD_BUDGET && planted <= FIRST_LOAD_BUDGET + 1000, `planted ${planted}`);
    let run = await check(dist);
    assert.equal(run.code, 1, run.out);
    assert.match(run.out, new RegExp(`the first load is ${planted - FIRST_LOAD_BUDGET} B over its budget`));
    assert.match(run.out, /planted\.js/);

    // The same bytes in a file the page loads only when asked are printed apart and pass. They stand in for
    // the recordings (2.4 kB), so that the later loads have room for them whatever their own headroom.
    await rm(join(dist, 'planted.js'));
    await rm(join(dist, 'recordings.txt'));
    await writeFile(join(dist, 'workbench-planted.js'), noise(n));
    run = await check(dist);
    assert.equal(run.code, 0, run.out);
    assert.match(run.out, new RegExp(`first load: ${first} B`));

    // Past the later loads' own budget, it fails and names them.
    const { later } = await bundle(dist);
    await writeFile(join(dist, 'workbench-planted.js'), noise(n + LATER_BUDGET - later + 1000));
    run = await check(dist);
    assert.equal(run.code, 1, run.out);
    assert.match(run.out, /the later loads are \d+ B over their budget/);
    assert.match(run.out, /workbench-planted\.js/);
    assert.doesNotMatch(run.out, /the first load is/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
