// End-to-end: the site built to be hosted under a path (scripts/build-site.sh --public-url /courses/locks/),
// served under that path and nowhere else. The page built at build time, the strict Content-Security-Policy
// (the loader in a file, the boot script and style sheet by their hashes), Subresource Integrity, the later
// panels' module (named in <meta name="fencing-lab-workbench">) and the recordings all hold there, and the
// page asks for nothing outside its path.
//
// The site is FENCING_LAB_SUBPATH_SITE when set (scripts/test.sh builds it once, before the end-to-end
// tests); otherwise this test builds it into a temporary folder (a second release build: minutes).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, launch, open, done, pause, root } from './harness.mjs';

const prefix = '/courses/locks/';
const env = { server: null, browser: null, site: process.env.FENCING_LAB_SUBPATH_SITE, built: null };

before(async () => {
  if (!env.site) {
    env.built = mkdtempSync(join(tmpdir(), 'fencing-lab-subpath-'));
    env.site = join(env.built, 'site');
    execFileSync('scripts/build-site.sh', ['--public-url', prefix, '--out', env.site], { cwd: root, stdio: 'inherit' });
  }
  env.server = await serve({ site: env.site, prefix });
  env.browser = await launch();
});
after(async () => {
  await env.browser?.close();
  env.server?.close();
  if (env.built) rmSync(env.built, { recursive: true, force: true });
});

/** Every request of `context` from now on, and every one that failed or was refused, as a list it fills. */
function watch(context) {
  const seen = [];
  context.on('request', (r) => seen.push(r.url()));
  context.on('requestfailed', (r) => seen.push(`failed: ${r.url()}`));
  context.on('response', (r) => r.status() >= 400 && seen.push(`${r.status()}: ${r.url()}`));
  return seen;
}

test('the built page names its files under the path, with its policy and integrity', () => {
  const html = readFileSync(join(env.site, 'index.html'), 'utf8');
  // The page as built (the figure's outcome before any script), the loader a file under the path.
  assert.match(html, /class="?[^">]*prerendered/);
  assert.match(html, /data-outcome=/);
  assert.match(html, new RegExp(`<script type="?module"? src="?${prefix}loader-[0-9a-f]{16}\\.js`));
  const workbench = html.match(/<meta name="?fencing-lab-workbench"? content="([^"]*)">/)?.[1];
  assert.deepEqual(workbench?.split(' ').map((f) => f.replace(/-[0-9a-f]+/, '-H')),
    [`${prefix}workbench-H.js`, `${prefix}workbench-H_bg.wasm`, `${prefix}later-H.css`]);
  assert.match(html, /script-src 'self' 'sha256-[^']+' 'wasm-unsafe-eval'/);
  assert.doesNotMatch(html, /unsafe-inline/);
  // Every preload carries its hash, and names a file under the path.
  const preloads = [...html.matchAll(/<link[^>]*rel="?(?:modulepreload|preload)"?[^>]*>/g)].map(([tag]) => tag);
  assert.ok(preloads.length >= 2, 'the glue and the wasm are preloaded');
  for (const tag of preloads) {
    assert.match(tag, /integrity="?sha256-/, tag);
    assert.match(tag, new RegExp(`href="?${prefix}`), tag);
  }
});

test('under /courses/locks/: starts, loads the later module and the recordings, asks nothing above', async () => {
  const context = await env.browser.newContext({ locale: 'en-US' });
  const seen = watch(context);
  await context.addInitScript(() => sessionStorage.setItem('fencing-lab:skip-prediction', '1'));
  const page = await context.newPage();
  page.errors = [];
  page.on('console', (m) => m.type() === 'error' && page.errors.push(`console: ${m.text()}`));
  page.on('pageerror', (e) => page.errors.push(`pageerror: ${e.message}`));
  await page.goto(`${env.server.url}${prefix}`);
  await page.waitForSelector('.app-started figure.lab[data-outcome]');
  // The verdict told at once (the prediction skipped): the later panels' module comes with it.
  await page.waitForSelector('.later-panels .break-it');
  assert.equal(await page.evaluate(() => document.documentElement.classList.contains('app-failed')), false);
  // Its style sheet applied (the panels are laid out by later.css, named in the <meta> under the path).
  assert.ok(seen.some((u) => new RegExp(`${prefix}later-[0-9a-f]+\\.css$`).test(u)), 'later.css fetched under the path');
  assert.ok(seen.some((u) => new RegExp(`${prefix}workbench-[0-9a-f]+_bg\\.wasm$`).test(u)), 'the module fetched under the path');

  // The recordings, fetched when their panel opens.
  await page.click('.real summary');
  await page.waitForFunction(() => !document.querySelector('.real .real-status'));
  assert.ok(await page.locator('.real .real-run').count() > 0, 'the recordings are drawn');
  assert.ok(seen.includes(`${env.server.url}${prefix}recordings.txt`));

  const outside = seen.filter((u) => !u.startsWith(`${env.server.url}${prefix}`) && !u.startsWith('data:'));
  assert.deepEqual(outside, [], 'every request is under the path and none failed');
  await done(page);
});

test('a link with ?pause=15000 under the path', async () => {
  const page = await open(env.browser, `${env.server.url}${prefix}?scenario=gc-pause&pause=15000&lang=en`);
  assert.equal(await pause(page), '15000');
  assert.match(page.url(), new RegExp(`${prefix}\\?`), 'the address stays under the path');
  assert.ok(await page.getAttribute('figure.lab', 'data-outcome'));
  await done(page);
});
