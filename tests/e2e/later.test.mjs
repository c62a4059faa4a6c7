// The later panels ("Seen on real systems", "Where does it change?", "Break it") and the narration's words are
// a module of their own, fetched from the page's own origin at the reader's first pick (src/app/later.rs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lab, open, done } from './harness.mjs';

const env = lab();

test('the later module loads at the first pick, not before; its panels wait for the verdict; a failed load says so, and trying again works', async () => {
  const page = await open(env.browser, `${env.server.url}/?lang=en`, { predict: true, viewport: { width: 1280, height: 900 } });
  const asked = [];
  page.on('request', (r) => { if (/\/workbench-[0-9a-f]+(_bg\.wasm|\.js)$/.test(r.url())) asked.push(r.url()); });
  let fail = true;
  await page.route(/\/workbench-/, (route) => (fail ? route.abort() : route.continue()));
  // Before any interaction nothing of it is fetched: a drag or a switch does not need it.
  await page.focus('[role=slider]');
  await page.keyboard.press('End');
  await page.click('label[for=fencing]');
  await page.waitForTimeout(300);
  assert.equal(asked.length, 0, 'nothing asked before the reader picks an answer');
  // The first pick asks for it; the panels would give the answer away, so they wait for the verdict.
  await page.check('input[name=prediction][value=fenced]');
  await page.waitForFunction(() => true);
  await page.waitForTimeout(300);
  assert.ok(asked.length > 0, 'asked at the first pick');
  assert.equal(await page.locator('.break-it, .challenge, .real, .later-note').count(), 0);
  await page.click('[data-act=skip]');
  await page.waitForSelector('.later-note[role=alert]');
  assert.match(await page.textContent('.later-note'), /could not be loaded\. Try again$/);
  assert.equal(await page.textContent('#narration'), 'The account of this run could not be loaded: try again below.');
  // The lab above keeps working.
  await page.focus('[role=slider]');
  await page.keyboard.press('Home');
  assert.equal(await page.getAttribute('figure.lab', 'data-outcome'), 'safe');
  fail = false;
  await page.click('.later [data-retry]');
  await page.waitForSelector('.break-it h2');
  assert.equal(await page.locator('.later-note').count(), 0, 'the line goes once they are in');
  // The narration tells the run on screen: no pause, so A wrote and released long before B asked.
  const told = await page.textContent('#narration');
  assert.match(told, /^At 0 s A took the lock with token 33.* At 0 s A released the lock\. At 1 s B took the lock/);
  assert.doesNotMatch(told, /could not be loaded|Loading/);
  assert.deepEqual(await page.$$eval('.later-panels > *', (els) => els.map((e) => e.className)), ['real', 'challenge', 'break-it', 'course-entry']);
  assert.ok(asked.every((u) => u.startsWith(env.server.url)), 'from the page\'s own origin');
  // The mirror follows the lab: the map marks the run on screen, and a cell loads its run into the lab.
  await page.click('[data-cell="3"]');
  await page.waitForFunction(() => document.querySelector('[data-cell="3"]').classList.contains('here'));
  const pause = await page.getAttribute('[role=slider]', 'aria-valuenow');
  assert.notEqual(pause, '0');
  // The errors logged are the requests this test failed on purpose.
  assert.ok(page.errors.length > 0 && page.errors.every((e) => /Failed to load resource|Failed to fetch dynamically imported module/.test(e)), page.errors.join('\n'));
  page.errors.length = 0;
  await done(page);
});

test('the later panels come with their style sheet: a sheet that cannot be loaded is a failed load, and once in, the panels are styled as they appear', async () => {
  const page = await open(env.browser, `${env.server.url}/?lang=en`, { predict: true, viewport: { width: 1280, height: 900 } });
  let fail = true;
  await page.route(/\/later-[0-9a-f]+\.css$/, (route) => (fail ? route.abort() : route.continue()));
  // None of its rules is in the page before.
  assert.equal(await page.evaluate(() => [...document.styleSheets].some((s) => /later-/.test(s.href ?? ''))), false);
  await page.check('input[name=prediction][value=fenced]');
  await page.click('[data-act=skip]');
  await page.waitForSelector('.later-note[role=alert]');
  assert.match(await page.textContent('.later-note'), /could not be loaded\. Try again$/);
  assert.equal(await page.locator('.break-it, .challenge').count(), 0);
  fail = false;
  await page.click('.later [data-retry]');
  await page.waitForSelector('.challenge .strip');
  // A rule of style/later.css applies from the first frame the panels are in.
  assert.equal(await page.$eval('.challenge .strip', (el) => getComputedStyle(el).height), '34px');
  assert.equal(await page.$eval('.break-it .plane', (el) => getComputedStyle(el).display), 'grid');
  // The failed request is logged; the failure itself is the panel's to tell, never an uncaught error (a
  // sheet that fails while the module is still on its way was one).
  assert.ok(page.errors.length > 0 && page.errors.every((e) => /Failed to load resource/.test(e)), page.errors.join('\n'));
  page.errors.length = 0;
  await done(page);
});

test('the share panel\'s body comes with the later module when the panel opens: a loading line, a failed load says so, and trying again draws it', async () => {
  const page = await open(env.browser, `${env.server.url}/?lang=en`, { predict: true, viewport: { width: 1280, height: 900 } });
  let fail = true;
  await page.route(/\/workbench-/, (route) => (fail ? route.abort() : route.continue()));
  // Nothing of the body in the page before: only the summary.
  assert.equal(await page.locator('.share #share-link, .share [data-download]').count(), 0);
  await page.click('.share summary');
  await page.waitForSelector('.share .share-status .later-note[role=alert]');
  assert.match(await page.textContent('.share-status'), /The link, the snippet, the downloads and the projector could not be loaded\. Try again$/);
  // The lab keeps working meanwhile.
  await page.focus('[role=slider]');
  await page.keyboard.press('End');
  fail = false;
  await page.click('.share-status [data-retry]');
  await page.waitForSelector('.downloads [data-download=svg]');
  assert.equal(await page.textContent('.share-status'), '', 'the line goes once the body is here');
  const [saved] = await Promise.all([page.waitForEvent('download'), page.click('.downloads [data-download=svg]')]);
  assert.equal(saved.suggestedFilename(), 'fencing-lab.svg');
  assert.ok(page.errors.length > 0 && page.errors.every((e) => /Failed to load resource|Failed to fetch dynamically imported module/.test(e)), page.errors.join('\n'));
  page.errors.length = 0;
  await done(page);
});
