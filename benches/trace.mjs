// Where a drag's frames go (not a test): a devtools trace of the renderer's main thread while a real pointer
// (CDP input) drags the band of one scenario at CPU×4, with the run shown as after the first prediction,
// summed by trace event (Layerize, Paint, Layout, the page's handlers as EventDispatch, …), in ms and per
// frame. `ID=redlock node benches/trace.mjs` (default etcd); `SHOWN=0` drags in predict-first mode. Needs a
// release build in dist (scripts/bench-web.sh makes one).
import { serve, launch } from '../tests/e2e/harness.mjs';

const id = process.env.ID ?? 'etcd';
const shown = process.env.SHOWN !== '0';
const server = await serve({ gzip: true });
const browser = await launch();
const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 900 } });
if (shown) await context.addInitScript(() => sessionStorage.setItem('fencing-lab:skip-prediction', '1'));
const p = await context.newPage();
const cdp = await context.newCDPSession(p);
await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
await p.goto(`${server.url}/?scenario=${id}&lang=en`);
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
await browser.startTracing(p, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'] });
await mouse('mousePressed', g.x, 1);
// 120 moves, one every 16 ms, 300 px towards the start and back.
for (let i = 1; i <= 120; i++) {
  await mouse('mouseMoved', g.x - 300 * (i <= 60 ? i / 60 : (120 - i) / 60), 1);
  await new Promise((r) => setTimeout(r, 16));
}
await mouse('mouseReleased', g.x, 0);
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
console.log(`${id}, ${shown ? 'run shown' : 'predict first'}: ${frames} frames; main thread, by trace event (ms, count, ms a frame):`);
for (const [name, [ms, n]] of [...sums].sort((a, b) => b[1][0] - a[1][0]).slice(0, 12)) {
  console.log(`  ${ms.toFixed(1).padStart(8)} ${String(n).padStart(5)} ${(ms / frames).toFixed(1).padStart(6)}  ${name}`);
}
await browser.close();
server.close();
