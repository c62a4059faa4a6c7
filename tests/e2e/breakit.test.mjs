// End-to-end: "Break it". The reader's own find is recognised; the search shows its progress, reports what
// the core finds (the same report as `locksim search --step 20`), and "Show it" loads the run; the map's
// cells are a keyboard grid that loads runs; any input change cancels a search under way.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lab, open, done, outcome, pause, rested, textMatching } from './harness.mjs';

const env = lab();
const url = (query) => `${env.server.url}/?lang=en&${query}`;
const found = (page) => page.getAttribute('.break-it', 'data-found');

test("the reader's own find is recognised, and only after the first prediction is told", async () => {
  const predicting = await open(env.browser, url('scenario=gc-pause'), { predict: true });
  assert.equal(await predicting.locator('.break-it').count(), 0, 'hidden while the reader predicts');
  await done(predicting);

  const page = await open(env.browser, url('scenario=gc-pause&pause=5000'));
  assert.equal(await found(page), 'none');
  assert.match(await page.textContent('.break-it .found'), /This run holds/);
  await page.focus('#pause-handle');
  // 5 s → 10.5 s with the keyboard: A wakes after its lease ran out, before B's write.
  for (let i = 0; i < 55; i++) await page.keyboard.press('ArrowRight');
  await rested(page);
  assert.equal(await pause(page), '10500');
  assert.equal(await outcome(page), 'unfenced-gap');
  assert.equal(await found(page), 'safety');
  assert.match(await page.textContent('.break-it .found'), /Broken: .*Unfenced gap.*safety failure/);
  await page.click('label[for=lease]');
  assert.equal(await outcome(page), 'stalled');
  assert.equal(await found(page), 'liveness');
  await done(page);
});

test('Search shows its progress and the smallest failure, and "Show it" loads it onto the timeline', async () => {
  const page = await open(env.browser, url('scenario=gc-pause&pause=5000'), { viewport: { width: 1280, height: 900 } });
  // Record every progress value the page shows while the search runs.
  await page.evaluate(() => {
    window.progressSeen = [];
    const bar = document.querySelector('.break-it progress');
    new MutationObserver(() => {
      if (!bar.hidden) window.progressSeen.push([+bar.value, +bar.max]);
    }).observe(bar, { attributes: true });
  });
  await page.click('[data-search]');
  await page.waitForSelector('[data-show="safety"]', { timeout: 20_000 });
  const seen = await page.evaluate(() => window.progressSeen);
  assert.ok(seen.length >= 2, `progress shown while running: ${JSON.stringify(seen)}`);
  assert.ok(seen.every(([v, max]) => max === 752001 && v <= max), JSON.stringify(seen));
  assert.ok(seen.some(([v]) => v > 0), 'progress advanced');
  assert.equal(await page.isHidden('.break-it progress'), true, 'progress gone once done');
  const result = await page.textContent('.search-result');
  assert.match(result, /^Ran 752,001 schedules in \d+ ms: pause start 0–10 s × pause 0–30 s, every 0\.02 s\./);
  assert.match(result, /Safety: the smallest failure is “Unfenced gap: a stale write got in”, at pause start 0 s, pause 10 s\./);
  assert.match(result, /Liveness: no failure within these bounds\./);
  assert.equal(await page.locator('[data-show="liveness"]').count(), 0);

  await page.click('[data-show="safety"]');
  assert.equal(await pause(page), '10000');
  assert.equal(await outcome(page), 'unfenced-gap');
  assert.equal(await page.evaluate(() => document.activeElement.matches('figure.lab')), true, 'focus on the figure');
  // The search still stands for these switches: showing changed only a disturbance.
  assert.match(await page.textContent('.search-result'), /Ran 752,001/);
  // A switch is another question: the report goes.
  await page.click('label[for=fencing]');
  await textMatching(page, '.search-result', /^$/);
  await done(page);
});

test('a configuration safe by construction: none within these bounds, with the bounds', async () => {
  const page = await open(env.browser, url('scenario=register-token&register=on&fencing=on'));
  await page.click('[data-search]');
  await page.waitForFunction(() => document.querySelector('.search-result').textContent !== '', null, { timeout: 20_000 });
  const result = await page.textContent('.search-result');
  assert.match(result, /pause start 0–10 s × pause 0–30 s, every 0\.02 s\. Safety: no failure within these bounds\./);
  assert.equal(await page.locator('[data-show="safety"]').count(), 0);
  await done(page);
});

test('any input change cancels a search under way, and the page says it stopped', async () => {
  const page = await open(env.browser, url('scenario=gc-pause&pause=5000'));
  await page.click('[data-search]');
  await page.waitForFunction(() => !document.querySelector('.break-it progress').hidden);
  await page.focus('#pause-handle');
  await page.keyboard.press('ArrowRight');
  // The panels hear of the change in the frame that draws it.
  await page.waitForSelector('.break-it progress', { state: 'hidden', timeout: 2000 });
  // Said in the live region, so a screen reader hears it too, rather than vanishing.
  const stopped = /^Search stopped: the settings changed before it finished\./;
  assert.match(await page.textContent('.search-result'), stopped);
  assert.equal(await page.getAttribute('.search-result', 'aria-live'), 'polite');
  // Long enough for the search to have finished, had it gone on: no report replaces the notice.
  await page.waitForTimeout(2500);
  assert.match(await page.textContent('.search-result'), stopped);
  assert.equal(await page.locator('[data-show]').count(), 0);
  // Searching again runs for these settings.
  await page.click('[data-search]');
  await page.waitForSelector('[data-show="safety"]', { timeout: 20_000 });
  assert.match(await page.textContent('.search-result'), /^Ran 752,001 schedules/);
  await page.goto(url('scenario=gc-pause&pause=5000&lang=ja'));
  await page.click('[data-search]');
  await page.waitForFunction(() => !document.querySelector('.break-it progress').hidden);
  await page.click('label[for=fencing]');
  await textMatching(page, '.search-result', /検索を途中で止めました/, 2000);
  await done(page);
});

for (const width of [320, 360]) {
  test(`at ${width} px the map's cells are 24 px targets, the map scrolls in its box, and a tap loads a run`, async () => {
    const page = await open(env.browser, url('scenario=redlock'), { viewport: { width, height: 800 }, hasTouch: true });
    await page.waitForSelector('.plane');
    const sizes = await page.$$eval('.plane [role=gridcell]', (cells) => cells.map((c) => {
      const r = c.getBoundingClientRect();
      return [r.width, r.height];
    }));
    assert.ok(sizes.length > 100);
    assert.ok(sizes.every(([w, h]) => w >= 24 && h >= 24), `smallest ${Math.min(...sizes.flat())} px`);
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), 0, 'the page does not scroll sideways');
    // Redlock's pause (down) is set from the map: the last cell, scrolled to within the map and tapped.
    const cells = sizes.length;
    const last = page.locator(`[data-cell="${cells - 1}"]`);
    assert.match(await last.getAttribute('aria-label'), /^pause 30 s, N3's clock jump 28 s/);
    await last.scrollIntoViewIfNeeded();
    await last.tap();
    await page.waitForURL(/jump=28000&pause=30000/);
    assert.equal(await page.getAttribute('.plane .here', 'data-cell'), String(cells - 1));
    assert.ok(await page.$eval('.plane', (p) => p.scrollLeft > 0), 'the map scrolled, not the page');
    await done(page);
  });
}

test("the map is a keyboard grid: arrows move, Enter loads the cell's run", async () => {
  const page = await open(env.browser, url('scenario=gc-pause&pause=5000'));
  const cells = page.locator('.plane [role=gridcell]');
  assert.equal(await cells.count(), 11 * 31);
  assert.equal(await page.locator('.plane [tabindex="0"]').count(), 1);
  assert.equal(await page.getAttribute('.plane .here', 'data-cell'), '5', 'the current run: pause start 0, pause 5 s');
  assert.equal(await page.locator('.plane [role=row]').count(), 11);
  assert.equal(await page.locator('.plane [aria-current=true]').count(), 1);
  assert.equal(await page.getAttribute('.plane [aria-current=true]', 'data-cell'), '5');
  // The legend names the verdicts the map shows, and only those.
  const kinds = await page.$$eval('.plane [role=gridcell]', (cells) => [...new Set(cells.map((c) => c.dataset.kind))].sort());
  const legend = await page.$$eval('.plane-legend .swatch', (s) => s.map((e) => e.dataset.kind).sort());
  assert.deepEqual(legend, kinds);
  await page.focus('.plane [tabindex="0"]');
  const active = () => page.evaluate(() => document.activeElement.dataset.cell);
  for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight');
  assert.equal(await active(), '10');
  await page.keyboard.press('Enter');
  assert.equal(await pause(page), '10000');
  assert.equal(await outcome(page), await page.getAttribute('[data-cell="10"]', 'data-kind'));
  assert.equal(await page.getAttribute('.plane .here', 'data-cell'), '10');
  await page.keyboard.press('ArrowDown');
  assert.equal(await active(), '41');
  await page.keyboard.press('End');
  assert.equal(await active(), '61');
  await page.keyboard.press(' ');
  assert.equal(await outcome(page), await page.getAttribute('[data-cell="61"]', 'data-kind'));
  assert.equal(await pause(page), '30000');
  assert.equal(await page.locator('.plane [tabindex="0"]').count(), 1);
  assert.equal(await page.locator('.plane .here').count(), 1, 'the mark moved, not copied');
  // A click loads too.
  await page.click('[data-cell="0"]');
  assert.equal(await pause(page), '0');
  assert.equal(await outcome(page), 'safe');
  await done(page);
});

test('a scenario with nothing to vary has no map, and its search is one schedule; 360 px fits', async () => {
  const page = await open(env.browser, url('scenario=check-then-set'), { viewport: { width: 360, height: 800 } });
  assert.equal(await page.locator('.plane').count(), 0);
  await page.click('[data-search]');
  await page.waitForSelector('[data-show="safety"]');
  assert.match(await page.textContent('.search-result'), /^Ran the one schedule this scenario has/);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.equal(overflow, 0);
  await page.goto(url('scenario=gc-pause'));
  await page.waitForSelector('.plane');
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), 0);
  await page.locator('.break-it').screenshot({ path: 'tests/e2e/artifacts/breakit-360.png' });
  await done(page);
});

test('a linked script that never read has nothing to break: no verdict, map or search of a run not on screen', async () => {
  for (const [lang, said] of [['en', /^Nothing to break until the script reads/], ['ja', /^スクリプトが読めるまでは、壊すものがありません/]]) {
    const page = await open(env.browser, `${env.server.url}/?lang=${lang}&script=${encodeURIComponent('%')}`);
    await page.waitForSelector('figure.lab.unread-script');
    await page.waitForSelector('.break-it');
    assert.match(await page.textContent('.break-it > p'), said);
    for (const part of ['.found', '.plane', '[data-search]', '.search-result']) {
      assert.equal(await page.locator(`.break-it ${part}`).isVisible(), false, part);
    }
    // Once the text reads, the script's own search is there.
    await page.fill('.editor textarea', 'value p 1s\nA: acquire, pause {p}, write, release\nB: idle 1s, acquire, write');
    await page.waitForSelector('figure.lab[data-outcome]:not(.unread-script)');
    await page.waitForSelector('.break-it [data-search]', { state: 'visible' });
    await done(page);
  }
});
