// End-to-end: the scenario catalogue. Each scenario is picked by keyboard, its dragged input driven to both
// ends, and its outcomes checked against the core's (the same values `locksim --scenario ID` prints).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lab, open, done, outcome, pause, pick, revisit, settled } from './harness.mjs';

const env = lab();

// id → [outcome at its defaults, double grant, outcome at the dragged input's minimum, at its maximum]
const CATALOGUE = {
  'gc-pause': ['safe', 'false', 'safe', 'fenced'],
  'check-then-pause': ['fenced', 'false', 'safe', 'fenced'],
  'network-delay': ['fenced', 'false', 'safe', 'fenced'],
  'setnx-expire': ['orphaned', 'false'],
  'check-then-set': ['double-grant', 'true'],
  'unsafe-release': ['fenced', 'true', 'safe', 'safe'],
  crash: ['safe', 'false'],
  'lock-delay': ['safe', 'false', 'safe', 'fenced'],
  'register-token': ['fenced', 'false', 'safe', 'fenced'],
  failover: ['corrupted', 'true'],
  redlock: ['corrupted', 'true', 'safe', 'corrupted'],
  etcd: ['fenced', 'false', 'safe', 'fenced'],
  zookeeper: ['fenced', 'false', 'safe', 'fenced'],
};

test('each scenario is picked by keyboard and played from its defaults, its input driven to both ends', async () => {
  const page = await open(env.browser, `${env.server.url}/?lang=en`, { viewport: { width: 1280, height: 900 } });
  // Every scenario the picker offers has its row here: a new definition cannot go untested.
  const offered = await page.$$eval('[data-scenario-id]', (els) => els.map((e) => e.dataset.scenarioId));
  assert.deepEqual([...offered].sort(), Object.keys(CATALOGUE).sort());
  for (const [id, [atDefaults, double, atMin, atMax]] of Object.entries(CATALOGUE)) {
    // The picker's line opens the list; the entry is chosen with Enter.
    await page.focus('.picker summary');
    await page.keyboard.press('Enter');
    await page.focus(`[data-scenario-id=${id}]`);
    await page.keyboard.press('Enter');
    assert.equal(await page.getAttribute('figure.lab', 'data-scenario'), id);
    assert.equal(await page.getAttribute(`[data-scenario-id=${id}]`, 'aria-current'), 'true');
    // The list closes on it, and the focus stays on the line that now names it.
    assert.equal(await page.isVisible(`[data-scenario-id=${id}]`), false);
    assert.equal(await page.evaluate(() => document.activeElement.tagName), 'SUMMARY');
    assert.equal(await page.textContent('.picker-current'), await page.textContent(`[data-scenario-id=${id}] .scenario-title`));
    assert.equal(await outcome(page), atDefaults, `${id} at its defaults`);
    assert.equal(await page.getAttribute('figure.lab', 'data-double-grant'), double, `${id} double grant`);
    assert.ok((await page.textContent('#narration')).length > 40, `${id} is narrated`);
    if (atMin) {
      assert.equal(await page.isVisible('#pause-handle'), true, `${id} has a handle`);
      await page.focus('#pause-handle');
      await page.keyboard.press('Home');
      assert.equal(await outcome(page), atMin, `${id} at its minimum`);
      await page.keyboard.press('End');
      assert.equal(await outcome(page), atMax, `${id} at its maximum`);
    } else {
      assert.equal(await page.isVisible('#pause-handle'), false, `${id} has nothing to drag`);
    }
  }
  await done(page);
});

test("the switches are the scenario's own and change its outcome", async () => {
  const page = await open(env.browser, `${env.server.url}/?scenario=setnx-expire&lang=en`);
  assert.equal(await page.locator('#lease').count(), 0);
  await page.click('label[for=atomic]');
  assert.equal(await outcome(page), 'safe');
  assert.match(await page.textContent('#narration'), /At 10 s A's lease ran out\. At 10 s B took the lock with token 34/);
  await pick(page, 'unsafe-release');
  // A switch is on when its safety device is: the scenario opens with a plain DEL, so compare-and-delete is off.
  assert.equal(await page.isChecked('#release'), false);
  assert.match(await page.innerText('label[for=release]'), /Compare-and-delete release\s*off\b/);
  await page.click('label[for=release]');
  assert.equal(await page.isChecked('#release'), true);
  assert.equal(await outcome(page), 'safe');
  assert.equal(await page.getAttribute('figure.lab', 'data-double-grant'), 'false');
  await page.click('label[for=release]');
  await page.click('label[for=fencing]');
  assert.equal(await outcome(page), 'corrupted');
  // A double grant is drawn as two holds overlapping, the overlap marked.
  assert.equal(await page.locator('.overlap').count(), 1);
  assert.equal(await page.locator('.lease.w-c').count(), 1);
  await done(page);
});

test('a link with scenario= reopens it with its inputs; an unknown id falls back with a notice', async () => {
  const page = await open(env.browser, `${env.server.url}/?scenario=network-delay&delay=8500&lang=en`);
  assert.equal(await outcome(page), 'unfenced-gap');
  assert.equal(await pause(page), '8500');
  await page.waitForURL(/\?scenario=network-delay&delay=8500&lease=on&fencing=on&lang=en$/);
  await page.reload();
  await page.waitForSelector('.app-started figure.lab[data-outcome]');
  assert.equal(await page.getAttribute('figure.lab', 'data-scenario'), 'network-delay');
  assert.equal(await outcome(page), 'unfenced-gap');
  const unknown = await open(env.browser, `${env.server.url}/?scenario=paxos&lang=en`);
  assert.equal(await unknown.getAttribute('figure.lab', 'data-scenario'), 'gc-pause');
  assert.match(await unknown.textContent('[role=alert]'), /scenario: “paxos” is not one of/);
  await done(unknown);
  await done(page);
});

test("gc-pause picked in place opens where its link does: on the source's question while a prediction is asked", async () => {
  const page = await open(env.browser, `${env.server.url}/?scenario=crash&lang=en`, { predict: true });
  await pick(page, 'gc-pause');
  await page.waitForFunction(() => document.querySelector('figure.lab')?.dataset.scenario === 'gc-pause');
  assert.equal(await pause(page), '15000');
  await page.waitForURL(/\?scenario=gc-pause&pause=15000&/);
  const linked = await open(env.browser, `${env.server.url}/?scenario=gc-pause&lang=en`, { predict: true });
  assert.equal(await pause(linked), '15000');
  await done(linked);
  await done(page);
  // With the run shown at once (predictions skipped), both open at the scenario's defaults.
  const shown = await open(env.browser, `${env.server.url}/?scenario=crash&lang=en`);
  await pick(shown, 'gc-pause');
  await shown.waitForFunction(() => document.querySelector('figure.lab')?.dataset.scenario === 'gc-pause');
  assert.equal(await pause(shown), '4000');
  await done(shown);
});

test('the reading links each section to the scenario that shows it', async () => {
  const page = await open(env.browser, `${env.server.url}/?lang=en`);
  await page.click('[data-play-scenario=register-token]');
  assert.equal(await page.getAttribute('figure.lab', 'data-scenario'), 'register-token');
  assert.equal(await outcome(page), 'fenced');
  await done(page);
});

test('every scenario fits a 360 px phone', async () => {
  const page = await open(env.browser, `${env.server.url}/?lang=ja`, { viewport: { width: 360, height: 800 } });
  for (const id of Object.keys(CATALOGUE)) {
    // Each as Back or Forward brings it, the later panels too (they hear of it on the next frame).
    await revisit(page, `scenario=${id}&lang=ja`);
    await page.waitForSelector(`figure.lab[data-scenario=${id}]`);
    await settled(page);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `${id}: ${overflow}px too wide`);
  }
  await done(page);
});

test('where does it change, when the verdict comes back: the answer gives the stretch', async () => {
  const page = await open(env.browser, `${env.server.url}/?scenario=unsafe-release&lang=en`);
  assert.match(await page.textContent('.challenge'), /shortest job end at which the stale write is rejected/);
  await page.click('.challenge button.primary');
  assert.match(await page.textContent('.boundary-result'), /from 10 s to 14\.999 s/);
  assert.deepEqual(await page.$$eval('.segment', (s) => s.map((e) => e.dataset.kind)), ['safe', 'fenced', 'double-grant', 'safe']);
  // The marker starts on its own 0.1 s steps, and says what its value is.
  assert.equal(await page.getAttribute('.ghost', 'aria-valuetext'), `guess ${Number(await page.inputValue('.ghost')) / 1000} s`);
  await done(page);
});
