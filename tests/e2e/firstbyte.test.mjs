// A link's DOM never states another run: read at every task from the first byte on, while the page
// arrives in small pieces and its WebAssembly is held back, the built page (which is the default run) says
// no outcome, scenario or inputs on a link to another state; once the app draws, it says the linked one's
// alone. The frame (masthead and picker, in English; the figure's empty box) shows meanwhile.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { lab, done, root } from './harness.mjs';

const env = lab();

/** A server that sends index.html 1 kB at a time, 15 ms apart, and passes every other request on. */
async function trickle() {
  const server = createServer(async (req, res) => {
    const path = new URL(req.url, 'http://x').pathname;
    if (path === '/' || path === '/index.html') {
      const body = await readFile(join(root, 'dist/index.html'));
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      for (let at = 0; at < body.length; at += 1024) {
        res.write(body.subarray(at, at + 1024));
        await new Promise((r) => setTimeout(r, 15));
      }
      return res.end();
    }
    const upstream = await fetch(`${env.server.url}${req.url}`);
    res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? '' });
    res.end(Buffer.from(await upstream.arrayBuffer()));
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => server.close() };
}

/**
 * Loads `query` with the WebAssembly held until the whole page is parsed, reading the DOM at every turn of a
 * zero-delay timer loop (started before the first byte, so between the parser's pieces) until the app has drawn: what each read found.
 */
async function watch(server, query, { locale = 'en-US', skip = false } = {}) {
  const context = await env.browser.newContext({ locale, viewport: { width: 360, height: 740 } });
  if (skip) await context.addInitScript(() => sessionStorage.setItem('fencing-lab:skip-prediction', '1'));
  await context.addInitScript(() => {
    const reads = (window.__reads = []);
    const classes = () => document.documentElement?.classList ?? { contains: () => false };
    const read = () => {
      const figures = [...document.querySelectorAll('[data-outcome], [data-scenario], [data-double-grant]')];
      const built = document.querySelector('.prerendered');
      reads.push({
        started: classes().contains('app-started'),
        built: !!built,
        stated: figures.map((f) => ({
          app: !f.closest('.prerendered'),
          outcome: f.getAttribute('data-outcome'),
          scenario: f.getAttribute('data-scenario'),
        })),
        builtFigureChildren: built?.querySelector('figure.lab')?.children.length ?? 0,
        builtCurrent: built ? built.querySelectorAll('[aria-current]').length + (built.querySelector('.picker-current')?.textContent.length ?? 0) : 0,
        frame: built && !classes().contains('app-started')
          ? ['.masthead h1', '.picker summary', 'figure.lab'].map((s) => {
            const e = built.querySelector(s);
            return e ? getComputedStyle(e).visibility : 'absent';
          })
          : null,
      });
      if (!document.querySelector('.app-started figure.lab:is([data-outcome], .unread-script)')) setTimeout(read, 0);
    };
    read();
  });
  const page = await context.newPage();
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && page.errors.push(`console: ${m.text()}`));
  let release;
  const gate = new Promise((r) => { release = r; });
  await page.route(/fencing-lab-[0-9a-f]+_bg\.wasm$/, async (route) => { await gate; await route.continue(); });
  await page.goto(`${server.url}/${query}`, { waitUntil: 'domcontentloaded' });
  release();
  await page.waitForSelector('.app-started figure.lab:is([data-outcome], .unread-script)');
  const reads = await page.evaluate(() => window.__reads);
  const final = await page.evaluate(() => {
    const f = document.querySelector('figure.lab');
    return { outcome: f.getAttribute('data-outcome'), scenario: f.getAttribute('data-scenario') };
  });
  return { page, reads, final };
}

const script = 'lease 10s\nA: acquire, work 12s, write, release\nB: idle 1s, acquire, write, release';
// A script that does not read ("at" is no step) has no run: nothing states an outcome, ever.
const unread = 'lease 10s\nA: acquire, work 12s, write, release\nB: at 1s acquire, write, release';
const links = [
  ['?scenario=redlock&jump=9000', 'redlock', {}],
  ['?pause=11000&lease=off', 'gc-pause', {}],
  ['?scenario=crash&embed=1', 'crash', {}],
  [`?script=${encodeURIComponent(script)}`, 'script', {}],
  [`?script=${encodeURIComponent(unread)}`, 'script', {}],
  ['?lang=ja', 'gc-pause', {}],
  ['', 'gc-pause', { locale: 'ja-JP' }],
  ['', 'gc-pause', { skip: true }],
];

for (const [query, scenario, options] of links) {
  test(`${query || '/'} ${JSON.stringify(options)}: from the first byte, nothing states another run`, async () => {
    const server = await trickle();
    try {
      const { page, reads, final } = await watch(server, query, options);
      if (scenario) assert.equal(final.scenario, scenario);
      const whileBuilt = reads.filter((r) => r.built && !r.started);
      assert.ok(whileBuilt.length >= 3, `read ${whileBuilt.length} times while the page was as built`);
      for (const r of reads) {
        // Only the app's own figure states a run, and only the one it ends on (the linked one); a script
        // still being read states its scenario and no outcome yet.
        for (const s of r.stated) {
          assert.equal(s.app, true, `the built page stated ${JSON.stringify(s)}`);
          const reading = s.outcome === null && s.scenario === 'script';
          assert.deepEqual(reading ? { ...s, outcome: final.outcome } : s, { app: true, ...final });
        }
        assert.equal(r.builtFigureChildren, 0, 'the built figure is an empty box');
        assert.equal(r.builtCurrent, 0, 'the built picker marks nothing current');
      }
      // The frame shows from the first read that has it: the masthead and the picker in English, the box.
      const ja = query.includes('lang=ja') || options.locale === 'ja-JP';
      const frames = whileBuilt.map((r) => r.frame).filter((f) => f && !f.includes('absent'));
      assert.ok(frames.length > 0, 'the frame was read');
      for (const f of frames) assert.deepEqual(f, ja ? ['hidden', 'hidden', 'visible'] : ['visible', 'visible', 'visible']);
      await done(page);
    } finally {
      server.close();
    }
  });
}

test('the default page, as built, states its own run from the first byte: the one the app then draws', async () => {
  const server = await trickle();
  try {
    const { page, reads, final } = await watch(server, '');
    assert.deepEqual(final, { outcome: 'fenced', scenario: 'gc-pause' });
    const built = reads.filter((r) => r.built && !r.started && r.stated.length);
    assert.ok(built.length > 0, 'the built figure was read');
    for (const r of built) for (const s of r.stated) assert.deepEqual(s, { app: false, ...final });
    await done(page);
  } finally {
    server.close();
  }
});
