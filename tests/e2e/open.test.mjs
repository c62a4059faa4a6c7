// End-to-end: "Open a run" in "Seen on real systems". A file of `locksim check --json` (here the Python
// reference client that sends no token, in the GC pause: tests/e2e/pages/run-check.json), chosen or dropped
// on the panel, is read in the page and drawn as the timeline draws a run, with its client, its verdicts and
// its narration; nothing is uploaded and the link does not change. A file that does not read says why, in
// the page's language, and the run drawn before stays.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { lab, open, done, root } from './harness.mjs';

const env = lab();
const fixture = join(root, 'tests/e2e/pages/run-check.json');
const opened = (page) => page.locator('.real .opened-run');

test('a run file of locksim check opens, is drawn with its verdict and narration, and stays out of the link', async () => {
  const page = await open(env.browser, `${env.server.url}/?scenario=crash&lang=en`, { viewport: { width: 1280, height: 900 } });
  const requests = [];
  page.on('request', (r) => requests.push(r.method()));
  await page.click('.real summary');
  await page.waitForSelector('.real input[type=file][data-open-run]');
  const before = page.url();
  await page.setInputFiles('.real input[data-open-run]', fixture);
  await page.waitForSelector('.real .opened-run[data-outcome=corrupted]');
  assert.equal(await opened(page).count(), 1);
  assert.equal(await opened(page).getAttribute('data-scenario'), 'gc-pause');
  const caption = await page.textContent('.opened-run figcaption');
  assert.match(caption, /^Your file: the client “\/usr\/bin\/python3 examples\/clients\/python\/lock_client\.py --mistake no-token” on Redis 7\.0\.15, 10 times faster: “Corrupted/);
  assert.match(caption, /the lab's own workers in the simulation: “Fenced/);
  // Drawn as the timeline draws: lanes for A and B, the write that got in after B's.
  assert.ok(await page.locator('.opened-run svg .lane-label').count() >= 3);
  assert.ok((await page.textContent('.opened-run .open-told')).length > 40, 'narrated');
  // The lab's own state and link are untouched; nothing was sent anywhere.
  assert.equal(page.url(), before);
  assert.equal(await page.getAttribute('figure.lab', 'data-scenario'), 'crash');
  assert.ok(requests.every((m) => m === 'GET'), `requests: ${requests}`);

  // A file that does not read: why, and the run drawn before stays.
  await page.setInputFiles('.real input[data-open-run]', { name: 'notes.json', mimeType: 'application/json', buffer: Buffer.from('not json') });
  await page.waitForSelector('.real .open-status[role=alert]');
  assert.match(await page.textContent('.open-status'), /That file is not a run of locksim check or locksim real: it is not JSON\. The page keeps what it showed\./);
  assert.equal(await opened(page).count(), 1);

  // In Japanese, the same run and message.
  await page.click('.lang-switch button[lang=ja]');
  await page.waitForFunction(() => /^あなたのファイル/.test(document.querySelector('.opened-run figcaption')?.textContent ?? ''));
  assert.match(await page.textContent('.open-status'), /JSON ではありません/);
  assert.equal(await opened(page).count(), 1);
  await done(page);
});

test('a run dropped on the panel opens it and draws it; a run with a worker it does not have is refused', async () => {
  const page = await open(env.browser, `${env.server.url}/?lang=ja`, { viewport: { width: 1280, height: 900 } });
  await page.waitForSelector('.real summary');
  const text = await readFile(fixture, 'utf8');
  const drop = async (body) => {
    const dt = await page.evaluateHandle((t) => {
      const dt = new DataTransfer();
      dt.items.add(new File([t], 'run.json', { type: 'application/json' }));
      return dt;
    }, body);
    await page.dispatchEvent('.real', 'drop', { dataTransfer: dt });
  };
  // Dropped on the closed panel: it opens.
  await drop(text);
  await page.waitForSelector('.real details[open] .opened-run[data-outcome=corrupted]');
  assert.match(await page.textContent('.opened-run figcaption'), /^あなたのファイル：クライアント「/);
  const bad = JSON.parse(text);
  bad.events[0] = [0, 0, 7];
  await drop(JSON.stringify(bad));
  await page.waitForSelector('.real .open-status[role=alert]');
  assert.match(await page.textContent('.open-status'), /実行記録ではありません（「events」がないか、実行記録の値ではありません）/);
  assert.equal(await opened(page).count(), 1);
  await done(page);
});
