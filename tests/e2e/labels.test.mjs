// End-to-end: every text label of the timeline lies inside its SVG and no two labels overlap, measured by
// their bounding boxes in Chromium (not by eye): all thirteen scenarios in both languages at 320, 360 and
// 1280 px and at 200 % zoom, plus the states a careful tester found labels outside or over each other.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lab, open, done, revisit, settled } from './harness.mjs';

const env = lab();

const SCENARIOS = ['gc-pause', 'check-then-pause', 'network-delay', 'setnx-expire', 'check-then-set',
  'unsafe-release', 'crash', 'lock-delay', 'register-token', 'failover', 'redlock', 'etcd', 'zookeeper'];

// Beyond each scenario's defaults: its other switches, and the states the tester reported.
const STATES = [
  'scenario=gc-pause&pause=15000&fencing=off',
  'scenario=gc-pause&pause=10500',
  'scenario=gc-pause&pause=15000&lease=off',
  'scenario=check-then-set&atomic=on',
  'scenario=setnx-expire&atomic=on',
  'scenario=unsafe-release&release=compare',
  'scenario=unsafe-release&fencing=off',
  'scenario=lock-delay&lockdelay=off',
  'scenario=lock-delay&pause=28000&fencing=off',
  'scenario=register-token&register=off',
  'scenario=register-token&pause=0',
  'scenario=failover&sync=on',
  'scenario=redlock&pause=30000&jump=28000',
  'scenario=redlock&jump=1000',
  'scenario=etcd&leader_crash=5000',
  'scenario=etcd&leader_crash=1&pause=30000&pause_start=9000',
  'scenario=etcd&pause=4000',
  'scenario=etcd&leader_crash=9000',
];

// 200 %: a 1280 px window zoomed to 200 % lays the page out 640 CSS px wide, at two device pixels each.
const VIEWS = [
  { name: '320 px', viewport: { width: 320, height: 900 } },
  { name: '360 px', viewport: { width: 360, height: 900 } },
  { name: '1280 px', viewport: { width: 1280, height: 900 } },
  { name: '200 %', viewport: { width: 640, height: 450 }, deviceScaleFactor: 2 },
];

/** The figure's text labels and shapes that must stay clear of them, as client rectangles. */
function measure() {
  const svg = document.querySelector('.timeline svg');
  const box = (el) => {
    const r = el.getBoundingClientRect();
    return { l: r.left, t: r.top, r: r.right, b: r.bottom };
  };
  const shown = (el) => el.getClientRects().length > 0 && !el.closest('[hidden]');
  const texts = [...svg.querySelectorAll('text')]
    .filter((t) => t.textContent.trim() && shown(t))
    .map((t) => ({ text: t.textContent, cls: t.getAttribute('class'), ...box(t) }));
  const rects = [...svg.querySelectorAll('.lanes rect')]
    .filter((r) => shown(r) && r.getBBox().width > 0)
    .map((r) => ({ cls: r.getAttribute('class'), ...box(r) }));
  return { svg: box(svg), texts, rects };
}

/** What is wrong with one state's labels: outside the SVG, or overlapping another. */
function problems({ svg, texts, rects }) {
  const found = [];
  const slack = 0.5;
  for (const t of texts) {
    if (t.l < svg.l - slack || t.r > svg.r + slack || t.t < svg.t - slack || t.b > svg.b + slack) {
      found.push(`"${t.text}" (${t.cls}) outside the figure: x ${t.l.toFixed(1)}–${t.r.toFixed(1)} of ${svg.l.toFixed(1)}–${svg.r.toFixed(1)}`);
    }
  }
  // Glyph boxes include the font's line gap: two labels overlap when they share more than a sliver.
  const over = (a, b) => Math.min(a.r, b.r) - Math.max(a.l, b.l) > 1 && Math.min(a.b, b.b) - Math.max(a.t, b.t) > 3;
  for (let i = 0; i < texts.length; i++) {
    for (let j = i + 1; j < texts.length; j++) {
      if (over(texts[i], texts[j])) found.push(`"${texts[i].text}" overlaps "${texts[j].text}"`);
    }
  }
  // Labels over the marks they would hide: a lane's name under a strip's keys (Redlock's N1–N3 at 200 %),
  // a lease's end or "no leader" over a hold, a hold's name half in and half out of its bar.
  const crosses = (a, b) => Math.min(a.r, b.r) - Math.max(a.l, b.l) > 1 && Math.min(a.b, b.b) - Math.max(a.t, b.t) > 1;
  const inside = (a, b) => a.l >= b.l - 1 && a.r <= b.r + 1;
  const holds = rects.filter((r) => /^lease /.test(r.cls));
  for (const t of texts) {
    if (t.cls === 'lane-label') {
      for (const r of rects.filter((r) => crosses(t, r))) found.push(`lane name "${t.text}" under a ${r.cls} bar`);
    }
    if (t.cls === 'expiry-label') {
      for (const r of holds.filter((r) => crosses(t, r))) found.push(`"${t.text}" over a hold (${r.cls})`);
    }
    if (/^lease-label/.test(t.cls)) {
      const over = holds.filter((r) => crosses(t, r));
      if (over.length && !over.some((r) => inside(t, r))) found.push(`"${t.text}" half out of its bar`);
    }
  }
  return found;
}

for (const lang of ['en', 'ja']) {
  test(`every label inside its figure and clear of the others, ${lang}`, async () => {
    const failures = [];
    for (const view of VIEWS) {
      const { name, ...options } = view;
      const page = await open(env.browser, `${env.server.url}/?lang=${lang}`, options);
      assert.equal(await page.getAttribute('html', 'lang'), lang);
      const queries = [...SCENARIOS.map((s) => `scenario=${s}`), ...STATES];
      for (const q of queries) {
        // Each state as Back or Forward brings it (the app draws it as it draws a link's), without
        // loading the page again: 232 loads took most of a minute per language.
        await revisit(page, `${q}&lang=${lang}`);
        const id = new URLSearchParams(q).get('scenario');
        await page.waitForSelector(`.app-started figure.lab[data-scenario=${id}][data-outcome]`);
        await settled(page);
        await page.waitForSelector('.timeline svg .lanes text', { state: 'attached' });
        // The state drawn is the one asked for, inputs too.
        if (q === 'scenario=gc-pause&pause=15000&fencing=off') assert.equal(await page.getAttribute('figure.lab', 'data-outcome'), 'corrupted');
        for (const p of problems(await page.evaluate(measure))) failures.push(`${name} ?${q}: ${p}`);
      }
      await done(page);
    }
    assert.deepEqual(failures, []);
  });
}

test('the legend names only what the figure can draw: no GC pause where nothing pauses', async () => {
  const page = await open(env.browser, `${env.server.url}/?lang=en`);
  const legend = () => page.$$eval('.legend li', (l) => l.map((e) => e.textContent));
  for (const [q, paused] of [['gc-pause', true], ['failover', false], ['unsafe-release', false],
    ['crash', false], ['etcd', true], ['redlock', true]]) {
    await page.goto(`${env.server.url}/?scenario=${q}&lang=en`);
    await page.waitForSelector('.legend li');
    const items = await legend();
    const purple = await page.locator('.timeline .lanes rect.paused').count();
    assert.equal(items.some((i) => /GC pause|clock jump/.test(i)), paused, `${q}: ${items}`);
    if (!paused) assert.equal(purple, 0, `${q} draws no purple band`);
  }
  await done(page);
});
