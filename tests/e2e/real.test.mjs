// End-to-end: "Seen on real systems". The runs recorded on real lock services (assets/recordings.json, by
// scripts/record.sh) for the scenario and its switches, drawn with the timeline's figure code, each with its
// system, version, date and a comparison of the verdicts. They are fetched from the page's origin when the
// panel is first opened (a loading line, then the runs; a failed request says so and offers to try again),
// and wait for the verdict.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lab, open, done, pause, settled } from './harness.mjs';

const env = lab();
const url = (query) => `${env.server.url}/?${query}`;
const runs = (page) => page.locator('.real .real-run');
/** Opens the panel and waits for the recordings to arrive. */
async function openPanel(page) {
  await page.click('.real summary');
  await page.waitForFunction(() => !document.querySelector('.real .real-status'));
}

test('the recordings for the scenario and its switches, each compared with the simulation', async () => {
  const predicting = await open(env.browser, url('lang=en'), { predict: true });
  assert.equal(await predicting.locator('.real').count(), 0, 'hidden while the reader predicts');
  await done(predicting);

  const page = await open(env.browser, url('scenario=gc-pause&lang=en'), { viewport: { width: 1280, height: 900 } });
  await openPanel(page);
  assert.equal(await runs(page).count(), 3);
  const captions = await page.locator('.real figcaption').allTextContents();
  assert.match(captions[0], /^Redis 7\.0\.15, recorded \d{4}-\d\d-\d\d, 10 times faster, pause 15 s: real “Fenced: the stale write is rejected”, simulated “Fenced: the stale write is rejected”: the same; each event at most [\d.]+ s off its simulated time\.$/);
  assert.match(captions[1], /^Redis 7\.0\.15, .*pause 11\.5 s, B's work before writing 3 s: real “Unfenced gap: a stale write got in”/);
  assert.match(captions[2], /^etcd 3\.4\.23, recorded [-0-9]+, in real time, pause 15 s: real “Fenced/);
  // Drawn as the timeline draws: lanes, a rejected write, the real tokens (etcd's are revisions).
  assert.deepEqual(await runs(page).evaluateAll((els) => els.map((e) => e.dataset.outcome)), ['fenced', 'unfenced-gap', 'fenced']);
  assert.equal(await page.locator('.real-run[data-backend=redis] .write.rejected').count(), 1);
  assert.ok(await page.locator('.real-run svg .lane-label').count() >= 9);

  // Other switches, other recordings; the panel stays open.
  await page.click('label[for=fencing]');
  await settled(page);
  assert.equal(await runs(page).count(), 2);
  assert.deepEqual(await runs(page).evaluateAll((els) => els.map((e) => e.dataset.outcome)), ['corrupted', 'corrupted']);
  assert.equal(await page.isVisible('.real figcaption'), true);
  await page.click('label[for=lease]');
  await settled(page);
  assert.equal(await runs(page).count(), 0);
  assert.match(await page.textContent('.real'), /No real run was recorded for this scenario with these switches\./);
  await page.click('label[for=lease]');

  // Dragging does not redraw the panel.
  await page.focus('#pause-handle');
  await page.keyboard.press('Home');
  assert.equal(await pause(page), '0');
  await settled(page);
  assert.equal(await runs(page).count(), 2);
  await done(page);
});

test('Japanese, a scenario with nothing to drag, and a phone', async () => {
  const page = await open(env.browser, url('scenario=setnx-expire&atomic=off&lang=ja'), { viewport: { width: 360, height: 800 } });
  await openPanel(page);
  assert.equal(await runs(page).count(), 1);
  assert.match(await page.textContent('.real figcaption'), /^Redis 7\.0\.15（\d{4}-\d\d-\d\d 記録、10倍速）：実機は「取りっぱなし：ロックが二度と外れない」、シミュレーションは「取りっぱなし：ロックが二度と外れない」で、一致しています（各イベントの時刻のずれは最大[\d.]+秒）。$/);
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), 0, 'the figure scrolls in its own box');
  await page.locator('.real').screenshot({ path: 'tests/e2e/artifacts/real-setnx-expire-360-ja.png' });
  await done(page);
});

test('the recordings load only when the panel opens; a failed request says so, and trying again works', async () => {
  const page = await open(env.browser, url('scenario=gc-pause&lang=en'), { viewport: { width: 1280, height: 900 } });
  const asked = [];
  page.on('request', (r) => { if (r.url().endsWith('/recordings.txt')) asked.push(r.url()); });
  let fail = true;
  await page.route('**/recordings.txt', (route) => (fail ? route.abort() : route.continue()));
  await page.waitForTimeout(300);
  assert.equal(asked.length, 0, 'nothing asked before the panel opens');
  await page.click('.real summary');
  await page.waitForSelector('.real .real-status[role=alert]');
  assert.match(await page.textContent('.real .real-status'), /The recordings could not be loaded\. Try again/);
  assert.equal(await runs(page).count(), 0);
  fail = false;
  await page.click('.real [data-retry]');
  await page.waitForFunction(() => !document.querySelector('.real .real-status'));
  assert.equal(await runs(page).count(), 3);
  assert.equal(new Set(asked).size, 1, 'the same file, from the same origin');
  assert.ok(asked.every((u) => u.startsWith(env.server.url)));
  // The one error logged is the request this test failed on purpose.
  assert.deepEqual(page.errors, ['console: Failed to load resource: net::ERR_FAILED']);
  page.errors.length = 0;
  await done(page);
});
