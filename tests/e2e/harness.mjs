// Shared by the end-to-end tests and the web benchmark: a static server for dist/ on 127.0.0.1 and
// Debian's Chromium driven by playwright-core, with every console error and page error collected.
import { createServer } from 'node:http';
import { gzipSync } from 'node:zlib';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';

export const root = fileURLToPath(new URL('../..', import.meta.url));
const dist = join(root, 'dist');
const types = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.wasm': 'application/wasm',
  '.css': 'text/css', '.svg': 'image/svg+xml', '.json': 'application/json',
};

/**
 * Serves dist/ (and tests/e2e/pages/ under /test/) on a free loopback port; with `gzip`, compressed for a
 * client that accepts it, as a real host would serve the page. With `site` and `prefix` (`/courses/locks/`),
 * serves that folder under that path instead, and nothing above it, as a host serving the site under a path.
 */
export async function serve({ gzip = false, site = dist, prefix = '/' } = {}) {
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    const inside = path.startsWith(prefix) ? `/${path.slice(prefix.length)}` : null;
    const file = path.startsWith('/test/')
      ? join(root, 'tests/e2e/pages', normalize(path.slice(6)))
      : inside && join(site, normalize(inside === '/' ? 'index.html' : inside));
    try {
      if (!file) throw new Error('outside the site');
      const body = await readFile(file);
      const headers = { 'content-type': types[extname(file)] ?? 'application/octet-stream' };
      if (gzip && /\bgzip\b/.test(req.headers['accept-encoding'] ?? '')) {
        headers['content-encoding'] = 'gzip';
        res.writeHead(200, headers);
        return res.end(gzipSync(body, { level: 9 }));
      }
      res.writeHead(200, headers);
      res.end(body);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => server.close() };
}

export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
      '--disable-sync', '--disable-quic', '--no-first-run'],
  });
}

/**
 * A page that records console errors and page errors. Unless `predict: true`, the reader has already chosen
 * (earlier in this tab) to skip predicting, so the verdict shows at once.
 */
export async function open(browser, url, { predict = false, ...options } = {}) {
  const context = await browser.newContext({ locale: 'en-US', ...options });
  if (!predict) {
    await context.addInitScript(() => sessionStorage.setItem('fencing-lab:skip-prediction', '1'));
  }
  const page = await context.newPage();
  page.errors = [];
  page.on('console', (m) => m.type() === 'error' && page.errors.push(`console: ${m.text()}`));
  page.on('pageerror', (e) => page.errors.push(`pageerror: ${e.message}`));
  await page.goto(url);
  // A script that never read states no outcome: it has no run.
  await page.waitForSelector('.app-started figure.lab:is([data-outcome], .unread-script)');
  // The verdict is told at once: the later panels' module comes with it (not when embedded).
  if (!predict && !/[?&]embed=1/.test(url)) await page.waitForSelector('.later-panels .break-it');
  return page;
}

/**
 * Waits until the text of `selector` matches `pattern` (the later panels hear of a change on the next
 * animation frame), then returns it; fails with the last text seen.
 */
export async function textMatching(page, selector, pattern, timeout = 5000) {
  try {
    await page.waitForFunction(([s, p, f]) => new RegExp(p, f).test(document.querySelector(s)?.textContent ?? ''),
      [selector, pattern.source, pattern.flags], { timeout });
  } catch {}
  const text = await page.textContent(selector);
  assert.match(text, pattern);
  return text;
}

/** Waits for the next two animation frames: the later panels hear of a change on the first. */
export const settled = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

/** Waits until the reader's hand has rested (a drag or typing paused: the words around the figure follow),
 *  then for the later panels, which hear of it on the next animation frame. */
export async function rested(page) {
  await page.waitForSelector('figure.lab[data-hand=rest]');
  await settled(page);
}

/** Brings state `query` (a URL query, without `?`) as Back or Forward would: a history entry and its
 *  popstate, drawn by the app as a link's state is, without loading the page again. */
export const revisit = (page, query) => page.evaluate((q) => {
  history.pushState(null, '', `?${q}`);
  dispatchEvent(new PopStateEvent('popstate'));
}, query);

/** Picks scenario `id` in the picker as a reader would: opens its list if it is closed, then clicks the entry. */
export async function pick(page, id) {
  const entry = `[data-scenario-id=${id}]`;
  if (!(await page.isVisible(entry))) await page.click('.picker summary');
  await page.click(entry);
}

export const outcome = (page) => page.getAttribute('figure.lab', 'data-outcome');
export const pause = (page) => page.getAttribute('[role=slider]', 'aria-valuenow');

/**
 * An embedding page (tests/e2e/pages/host.html) holding the lab at `query` in an iframe, 800×900, the reader
 * having skipped predicting: once the lab has sent its first state.
 */
export async function embedHost(env, query) {
  const context = await env.browser.newContext({ viewport: { width: 800, height: 900 } });
  await context.addInitScript(() => sessionStorage.setItem('fencing-lab:skip-prediction', '1'));
  const host = await context.newPage();
  await host.goto(`${env.server.url}/test/host.html?${query}`);
  await host.waitForFunction(() => window.messages.some((m) => m.type === 'fencing-lab:state'));
  return host;
}

/** Starts the server and the browser before a test file's tests and stops them after; fields fill in then. */
export function lab() {
  const env = { server: null, browser: null };
  before(async () => {
    env.server = await serve();
    env.browser = await launch();
  });
  after(async () => {
    await env.browser?.close();
    env.server?.close();
  });
  return env;
}

/** Ends a test's page: it must have logged no console or page error. */
export async function done(page) {
  assert.deepEqual(page.errors, [], 'no console or page errors');
  await page.context().close();
}
