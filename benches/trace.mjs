// Where a drag's frames go (not a test): a devtools trace of the renderer's main thread while a real pointer
// (CDP input) drags the band of one scenario at CPU×4, with the run shown as after the first prediction,
// summed by trace event (Layerize, Paint, Layout, the page's handlers as EventDispatch, …), in ms and per
// frame. `ID=redlock node benches/trace.mjs` (default etcd); `SHOWN=0` drags in predict-first mode;
// `TYPE=1` types in the script editor instead (load.mjs's typing: 40 keys, one every 100 ms). Also prints
// where each layout began. Needs a release build in dist (scripts/bench-web.sh makes one).
import { serve, launch } from '../tests/e2e/harness.mjs';
import { SCRIPT } from './script.mjs';

const typing = process.env.TYPE === '1';
const id = typing ? 'script' : process.env.ID ?? 'etcd';
const shown = process.env.SHOWN !== '0';
const server = await serve({ gzip: true });
const browser = await launch();
const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 900 } });
if (shown) await context.addInitScript(() => sessionStorage.setItem('fencing-lab:skip-prediction', '1'));
const p = await context.newPage();
const cdp = await context.newCDPSession(p);
await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
await p.goto(typing ? `${server.url}/?script=${encodeURIComponent(SCRIPT)}&lang=en` : `${server.url}/?scenario=${id}&lang=en`);
await p.waitForFunction(() => document.documentElement.classList.contains('app-started')
  && document.querySelector('[role=slider]:not([hidden]) .grip'));
// The later panels in place (with the run shown), as a reader who drags after predicting finds them.
await p.waitForTimeout(1500);
const g = await p.evaluate(() => {
  const r = document.querySelector('[role=slider] .grip').getBoundingClientRect();
  return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
});
const mouse = (type, x, buttons) =>
  cdp.send('Input.dispatchMouseEvent', { type, x, y: g.y, button: 'left', buttons, clickCount: type === 'mouseMoved' ? 0 : 1 });
if (typing) {
  await p.evaluate(() => {
    const area = document.querySelector('.editor textarea');
    area.focus();
    area.setSelectionRange(13, 13);
  });
}
await browser.startTracing(p, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'] });
if (typing) {
  // 40 keys, each of which changes the run: the pause's "20s" loses its "2" and gets it back.
  for (let i = 0; i < 20; i++) {
    await p.keyboard.press('Backspace');
    await new Promise((r) => setTimeout(r, 100));
    await p.keyboard.type('2');
    await new Promise((r) => setTimeout(r, 100));
  }
} else {
  await mouse('mousePressed', g.x, 1);
  // 120 moves, one every 16 ms, 300 px towards the start and back.
  for (let i = 1; i <= 120; i++) {
    await mouse('mouseMoved', g.x - 300 * (i <= 60 ? i / 60 : (120 - i) / 60), 1);
    await new Promise((r) => setTimeout(r, 16));
  }
  await mouse('mouseReleased', g.x, 0);
}
const events = JSON.parse((await browser.stopTracing()).toString()).traceEvents;
const main = events.find((e) => e.name === 'thread_name' && e.args.name === 'CrRendererMain'
  && events.some((x) => x.pid === e.pid && x.name === 'EventDispatch'));
const sums = new Map();
for (const e of events) {
  if (e.ph !== 'X' || e.pid !== main.pid || e.tid !== main.tid) continue;
  const [ms, n] = sums.get(e.name) ?? [0, 0];
  sums.set(e.name, [ms + e.dur / 1000, n + 1]);
}
const frames = sums.get('Commit')?.[1] ?? 1;
console.log(`${typing ? 'typing in the editor' : id}, ${shown ? 'run shown' : 'predict first'}: ${frames} frames; main thread, by trace event (ms, count, ms a frame):`);
for (const [name, [ms, n]] of [...sums].sort((a, b) => b[1][0] - a[1][0]).slice(0, 16)) {
  console.log(`  ${ms.toFixed(1).padStart(8)} ${String(n).padStart(5)} ${(ms / frames).toFixed(1).padStart(6)}  ${name}`);
}
// Where each layout began (its root: the document, or a box that can be laid out alone) and what it cost.
const roots = new Map();
for (const e of events) {
  if (e.ph !== 'X' || e.name !== 'Layout' || e.pid !== main.pid || e.tid !== main.tid) continue;
  const root = (e.args?.endData?.layoutRoots ?? []).map((r) => r.nodeName).join(', ') || '?';
  const ms = roots.get(root) ?? [];
  roots.set(root, [...ms, e.dur / 1000]);
}
console.log('Layout by where it began (count, ms each from–to):');
for (const [root, ms] of roots) {
  console.log(`  ${String(ms.length).padStart(5)} ${Math.min(...ms).toFixed(1)}–${Math.max(...ms).toFixed(1)}  ${root}`);
}
// The page's handlers by event type (nested dispatches counted in their own type too).
const byType = new Map();
for (const e of events) {
  if (e.ph !== 'X' || e.name !== 'EventDispatch' || e.pid !== main.pid || e.tid !== main.tid) continue;
  const type = e.args?.data?.type ?? '?';
  const [ms, n] = byType.get(type) ?? [0, 0];
  byType.set(type, [ms + e.dur / 1000, n + 1]);
}
console.log('EventDispatch by event type (ms, count, ms each):');
for (const [type, [ms, n]] of [...byType].sort((a, b) => b[1][0] - a[1][0]).slice(0, 8)) {
  console.log(`  ${ms.toFixed(1).padStart(8)} ${String(n).padStart(5)} ${(ms / n).toFixed(1).padStart(6)}  ${type}`);
}
if (process.env.INSIDE) {
  // What runs inside one type of event but outside another nested in it: INSIDE=textInput,input.
  const [outer, inner] = process.env.INSIDE.split(',');
  const mine = events.filter((e) => e.ph === 'X' && e.pid === main.pid && e.tid === main.tid);
  const span = (type) => mine.filter((e) => e.name === 'EventDispatch' && e.args?.data?.type === type);
  const outers = span(outer), inners = inner ? span(inner) : [];
  const within = (e, o) => e.ts >= o.ts && e.ts + e.dur <= o.ts + o.dur;
  const sums2 = new Map();
  for (const e of mine) {
    if (e.name === 'EventDispatch' || !outers.some((o) => within(e, o)) || inners.some((i) => within(e, i))) continue;
    const [ms, n] = sums2.get(e.name) ?? [0, 0];
    sums2.set(e.name, [ms + e.dur / 1000, n + 1]);
  }
  console.log(`inside ${outer}${inner ? `, outside ${inner}` : ''}:`);
  for (const [name, [ms, n]] of [...sums2].sort((a, b) => b[1][0] - a[1][0]).slice(0, 10)) {
    console.log(`  ${ms.toFixed(1).padStart(8)} ${String(n).padStart(5)}  ${name}`);
  }
}
await browser.close();
server.close();
