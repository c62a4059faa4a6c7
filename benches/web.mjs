// Web benchmark (not a test): bytes over the wire, pointermove → DOM latency of a 200-step drag, a toggle's
// latency, and the page's search (Break it): its speed and how long other tasks wait while it runs.
// Run through scripts/bench-web.sh, which builds the release bundle first.
import { join } from 'node:path';
import { serve, launch, open, root } from '../tests/e2e/harness.mjs';
import { SCRIPT } from './script.mjs';
import { bundle, FIRST_LOAD_BUDGET, kB } from '../scripts/bundle.mjs';

// The bundle as scripts/budget.mjs counts it (scripts/bundle.mjs): before the first interaction, and later.
const sizes = await bundle(join(root, 'dist'));
console.log('bundle (gzip -9, as served with gzip):');
for (const f of sizes.files) {
  const name = f.name + (f.later ? ' (later)' : '');
  console.log(`  ${name.padEnd(60)} ${String(f.raw).padStart(8)} B raw ${String(f.gzip).padStart(8)} B gzip`);
}
console.log(`  before the first interaction: ${sizes.first} B = ${kB(sizes.first)} gzip (budget ≤ ${kB(FIRST_LOAD_BUDGET)})`);
console.log(`  loaded later, when asked: ${sizes.later} B = ${kB(sizes.later)} gzip`);

const server = await serve();
const browser = await launch();

/** Drags the handle 200 steps in the scenario of `query`; pointermove → DOM times in ms, sorted. */
async function drag(query) {
  const page = await open(browser, `${server.url}/?${query}`, { viewport: { width: 1280, height: 900 } });
  if (query.startsWith('script=')) {
    await page.waitForSelector('.editor textarea[aria-invalid=false]');
    await page.waitForSelector('figure.lab[data-scenario=script]:not(.reading-script)');
  }
  const samples = await page.evaluate(async () => {
    const handle = document.querySelector('[role=slider]');
    const grip = handle.querySelector('.grip').getBoundingClientRect();
    const svg = document.querySelector('.timeline svg').getBoundingClientRect();
    const y = grip.y + grip.height / 2;
    const ev = (type, x) => new PointerEvent(type, { bubbles: true, clientX: x, clientY: y, pointerId: 1, button: 0, isPrimary: true });
    handle.dispatchEvent(ev('pointerdown', grip.x + grip.width / 2));
    await new Promise((r) => setTimeout(r, 50));
    const out = [];
    for (let i = 1; i <= 200; i++) {
      // Sweep right then back, 100 ms of pause per step at least, so every move changes the DOM.
      const frac = i <= 100 ? i / 100 : (200 - i) / 100;
      const x = svg.x + 140 + frac * (svg.width - 170);
      const before = handle.getAttribute('aria-valuenow');
      const changed = new Promise((resolve) => {
        const mo = new MutationObserver(() => { mo.disconnect(); resolve(performance.now()); });
        mo.observe(document.querySelector('.timeline'), { attributes: true, childList: true, subtree: true });
      });
      const t0 = performance.now();
      handle.dispatchEvent(ev('pointermove', x));
      const t1 = await Promise.race([changed, new Promise((r) => setTimeout(() => r(null), 200))]);
      if (t1 !== null && handle.getAttribute('aria-valuenow') !== before) out.push(t1 - t0);
      await new Promise((r) => requestAnimationFrame(() => r()));
    }
    handle.dispatchEvent(ev('pointerup', 0));
    return out;
  });
  samples.sort((a, b) => a - b);
  if (page.errors.length) console.log('page errors:', page.errors);
  await page.context().close();
  return samples;
}

for (const [name, query] of [
  ['gc-pause (2 workers)', 'lang=en'],
  ['unsafe-release (3 workers, the heaviest)', 'scenario=unsafe-release&lang=en'],
  ['redlock (5 servers, the jump on N3)', 'scenario=redlock&lang=en'],
  ['a script (3 workers, its editor open)', `script=${encodeURIComponent(SCRIPT)}&lang=en`],
]) {
  const samples = await drag(query);
  const q = (p) => samples[Math.min(samples.length - 1, Math.floor(p * samples.length))];
  console.log(`drag in ${name}: ${samples.length} pointermoves that changed the value`);
  console.log(`  pointermove → DOM updated: p50 ${q(0.5).toFixed(2)} ms, p95 ${q(0.95).toFixed(2)} ms, max ${samples.at(-1).toFixed(2)} ms (target p95 < 4 ms)`);
}
const page = await open(browser, `${server.url}/?lang=en`, { viewport: { width: 1280, height: 900 } });
// A toggle re-runs the core and recomputes the outcome map of every pause 0..30000 ms (the challenge strip).
const toggles = await page.evaluate(async () => {
  const handle = document.querySelector('[role=slider]');
  handle.dispatchEvent(new KeyboardEvent('keydown', { key: 'End', bubbles: true, cancelable: true }));
  await new Promise((r) => setTimeout(r, 50));
  const box = document.querySelector('#fencing');
  const figure = document.querySelector('figure.lab');
  const out = [];
  for (let i = 0; i < 60; i++) {
    const changed = new Promise((resolve) => {
      const mo = new MutationObserver(() => { mo.disconnect(); resolve(performance.now()); });
      mo.observe(figure, { attributes: true, attributeFilter: ['data-outcome'], subtree: false });
    });
    // Pause 30 s: fencing on and off give different verdicts, so every click changes data-outcome.
    const t0 = performance.now();
    box.click();
    const t1 = await Promise.race([changed, new Promise((r) => setTimeout(() => r(null), 500))]);
    if (t1 !== null) out.push(t1 - t0);
    await new Promise((r) => requestAnimationFrame(() => r()));
  }
  return out;
});
toggles.sort((a, b) => a - b);
const tq = (p) => toggles[Math.min(toggles.length - 1, Math.floor(p * toggles.length))];
console.log(`toggle fencing (${toggles.length} clicks; core run + outcome map of 30001 pauses + redraw):`);
console.log(`  click → data-outcome updated: p50 ${tq(0.5).toFixed(2)} ms, p95 ${tq(0.95).toFixed(2)} ms`);
if (page.errors.length) console.log('page errors:', page.errors);
await page.context().close();

// "Break it": the page's search of every scenario at its defaults (the whole grid, time-sliced), and how
// long any other task waits meanwhile.
console.log('search on the page (Break it), each scenario at its defaults:');
for (const id of ['gc-pause', 'check-then-pause', 'network-delay', 'unsafe-release', 'lock-delay', 'register-token', 'crash',
  'failover', 'redlock', 'etcd', 'zookeeper']) {
  const p = await open(browser, `${server.url}/?scenario=${id}&lang=en`, { viewport: { width: 1280, height: 900 } });
  const r = await p.evaluate(async () => {
    const result = document.querySelector('.search-result');
    const late = [];
    let running = true;
    // A message to itself, re-sent on arrival: unlike a timer, it is not clamped to 4 ms, so its lateness
    // is how long the search held the main thread.
    const channel = new MessageChannel();
    let sent = 0;
    channel.port1.onmessage = () => { late.push(performance.now() - sent); if (running) ping(); };
    const ping = () => { sent = performance.now(); channel.port2.postMessage(0); };
    const t0 = performance.now();
    document.querySelector('[data-search]').click();
    ping();
    await new Promise((resolve) => {
      const mo = new MutationObserver(() => { if (result.textContent) { mo.disconnect(); resolve(); } });
      mo.observe(result, { childList: true, characterData: true, subtree: true });
    });
    running = false;
    late.sort((a, b) => a - b);
    return { wall: performance.now() - t0, text: result.textContent, p95: late[Math.floor(late.length * 0.95)] ?? 0, max: late.at(-1) ?? 0 };
  });
  const ran = r.text.match(/Ran ([\d,]+|the one) schedule/)?.[1] ?? '?';
  const schedules = ran === 'the one' ? '1' : ran;
  const rate = Number(schedules.replace(/,/g, '')) / (r.wall / 1000);
  console.log(`  ${id.padEnd(17)} ${schedules.padStart(9)} schedules in ${r.wall.toFixed(0).padStart(4)} ms` +
    (Number.isFinite(rate) ? ` (${(rate / 1e6).toFixed(2)} M/s)` : '') +
    `; a task waits p95 ${r.p95.toFixed(1)} ms, max ${r.max.toFixed(1)} ms`);
  if (p.errors.length) console.log('page errors:', p.errors);
  await p.context().close();
}
await browser.close();
server.close();
