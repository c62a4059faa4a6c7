// What the built page costs a reader, counted one way for the budget check (scripts/budget.mjs) and the
// web bench (benches/web.mjs): each file's gzip -9 size, as served with gzip, split into what the page
// fetches before its first interaction and what it fetches later, only when asked (the later panels' module
// and its style sheet, once the first prediction is told; the recordings, when their panel opens).
import { readdir, readFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';

/** The first load's budget in bytes of gzip -9 (160 kB). */
export const FIRST_LOAD_BUDGET = 160_000;

/** The later loads' own budget (400 kB): what the page fetches at the first prediction (the second module,
 * its style sheet) and when the recordings' panel opens. About 2 s on the slow-phone profile's 1.6 Mbps. */
export const LATER_BUDGET = 400_000;

const counted = /\.(wasm|js|css|html|txt)$/;
const later = (name) => /^(workbench|later)-/.test(name) || name === 'recordings.txt';

/** Every counted file of the built site `dist`: `{ name, raw, gzip, later }`, and the totals. */
export async function bundle(dist) {
  const files = [];
  for (const name of (await walk(dist)).sort()) {
    if (!counted.test(name)) continue;
    const raw = await readFile(join(dist, name));
    const base = name.split('/').pop();
    files.push({ name, raw: raw.length, gzip: gzipSync(raw, { level: 9 }).length, later: later(base) });
  }
  const sum = (pick) => files.filter(pick).reduce((n, f) => n + f.gzip, 0);
  return { files, first: sum((f) => !f.later), later: sum((f) => f.later) };
}

/** The files under `dir`, as paths relative to it. */
async function walk(dir) {
  const out = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    if (e.isDirectory()) out.push(...(await walk(join(dir, e.name))).map((f) => `${e.name}/${f}`));
    else out.push(e.name);
  }
  return out;
}

/** kB with one decimal, as the README writes them. */
export const kB = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;
