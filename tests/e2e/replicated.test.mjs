// End-to-end: the replicated lock services (Redis failover, Redlock, etcd, ZooKeeper) from the picker, their
// drags and switches, their server lanes, at 360 and 1280 px, in both languages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lab, open, done, outcome, pick, rested } from './harness.mjs';

const env = lab();
const double = (page) => page.getAttribute('figure.lab', 'data-double-grant');
const narration = (page) => page.textContent('#narration');

for (const width of [360, 1280]) {
  test(`at ${width} px: each is picked, played and told, and its switches change the verdict`, async () => {
    const page = await open(env.browser, `${env.server.url}/?lang=en`, { viewport: { width, height: 900 } });

    // Redis failover: the promoted replica grants the lock again with the same token; with WAIT the model keeps it.
    await pick(page, 'failover');
    assert.equal(await page.getAttribute('figure.lab', 'data-scenario'), 'failover');
    assert.deepEqual([await outcome(page), await double(page)], ['corrupted', 'true']);
    assert.match(await narration(page), /At 2 s B took the lock with token 33/);
    assert.match(await narration(page), /A's token 33 is not lower than the 33 the storage had seen, so fencing let it through/);
    assert.deepEqual(await page.$$eval('.timeline .lane-labels text', (t) => t.map((e) => e.textContent)),
      ['Worker A', 'Worker B', 'Primary', 'Replica', 'Lock (primary)', 'Storage']);
    assert.equal(await page.isVisible('#pause-handle'), false);
    await page.click('label[for=sync]');
    assert.deepEqual([await outcome(page), await double(page)], ['safe', 'false']);
    assert.match(await narration(page), /At 2 s the replica was promoted, with the lock's key and counter\..* At 4 s B took the lock with token 34/);
    assert.equal(await page.locator('.timeline text', { hasText: 'promoted, with the key' }).count(), 1);

    // Redlock: fencing shown but unavailable, with the reason; five servers; the jump dragged on N3.
    await pick(page, 'redlock');
    assert.deepEqual([await outcome(page), await double(page)], ['corrupted', 'true']);
    // Unavailable but reachable by Tab, so its reason is heard; a click or Space changes nothing.
    assert.equal(await page.getAttribute('#fencing', 'aria-disabled'), 'true');
    // (Forced: aria-disabled is, rightly, not clickable for playwright; a reader's click still lands.)
    await page.click('label[for=fencing]', { force: true });
    await page.focus('#fencing');
    await page.keyboard.press('Space');
    assert.equal(await page.isChecked('#fencing'), false);
    assert.deepEqual([await outcome(page), await double(page)], ['corrupted', 'true']);
    assert.match(await page.textContent('#fencing-hint'), /random, so there is nothing to order/);
    assert.equal(await page.getAttribute('#fencing', 'aria-describedby'), 'fencing-hint');
    const names = await page.$$eval('.timeline .lane-labels text', (t) => t.map((e) => e.textContent));
    for (const n of ['N1', 'N2', 'N3', 'N4', 'N5', 'Majority']) assert.ok(names.includes(n), `${n} in ${names}`);
    assert.match(await narration(page), /At 3 s B took the lock, valid until 12\.898 s by its own clock/);
    // The handle sits on N3's strip.
    const strip = await page.locator('.timeline .lane-labels text', { hasText: 'N3' }).boundingBox();
    const grip = await page.locator('#pause-handle .grip').boundingBox();
    assert.ok(Math.abs(grip.y + grip.height / 2 - (strip.y + strip.height / 2)) < 12, 'the grip is on N3');
    await page.focus('#pause-handle');
    assert.equal(await page.getAttribute('#pause-handle', 'aria-valuetext'), "N3's clock jumps 9 s ahead, to 11 s");
    for (let i = 0; i < 80; i++) await page.keyboard.press('ArrowLeft');
    await rested(page);
    assert.equal(await page.getAttribute('#pause-handle', 'aria-valuenow'), '1000');
    assert.deepEqual([await outcome(page), await double(page)], ['safe', 'false']);
    assert.match(await narration(page), /At 5 s the storage accepted A's write\. At 5 s A released the lock\. At 5 s B took the lock/);

    // etcd: the leader's crash re-arms A's lease, which outlives its pause; fencing off overwrites B.
    await pick(page, 'etcd');
    assert.deepEqual([await outcome(page), await double(page)], ['fenced', 'false']);
    assert.match(await narration(page), /At 10 s A's lease ran out\. Paused, A had sent no keepalive: only a running holder renews its lease\. At 10 s B took the lock with token 34/);
    await page.click('label[for=leader_crash]');
    assert.equal(await outcome(page), 'safe');
    assert.match(await narration(page), /At 5 s the leader crashed; a new one was ready at 6 s\. At 6 s the new leader restarted A's lease, to 17 s\./);
    assert.equal(await page.locator('.timeline text', { hasText: 'lease ends 17 s' }).count(), 1);
    assert.equal(await page.locator('.timeline text', { hasText: 'no leader' }).count(), 1);
    await page.waitForURL(/leader_crash=5000/);
    await page.click('label[for=leader_crash]');
    await page.click('label[for=fencing]');
    assert.deepEqual([await outcome(page), await double(page)], ['corrupted', 'false']);

    // ZooKeeper: the session's end frees the lock; B's znode's czxid fences A.
    await pick(page, 'zookeeper');
    assert.deepEqual([await outcome(page), await double(page)], ['fenced', 'false']);
    assert.match(await narration(page), /At 10 s A's lease ran out\. Paused, A had sent no keepalive.* At 10 s B took the lock with token 34/);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `${overflow}px too wide`);
    // The five servers on a phone and on a desktop (kept in tests/e2e/artifacts).
    await pick(page, 'redlock');
    await page.locator('figure.lab').screenshot({ path: `tests/e2e/artifacts/timeline-redlock-${width}.png` });
    await done(page);
  });
}

test('a pointer drags the clock jump on N3 and the verdict follows', async () => {
  const page = await open(env.browser, `${env.server.url}/?scenario=redlock&lang=en`, { viewport: { width: 1280, height: 900 } });
  await page.locator('#pause-handle').scrollIntoViewIfNeeded();
  const grip = await page.locator('#pause-handle .grip').boundingBox();
  const to = await page.$eval('line.grid[data-t="3000"]', (el) => el.getBoundingClientRect().x);
  await page.mouse.move(grip.x + grip.width / 2, grip.y + grip.height / 2);
  await page.mouse.down();
  await page.mouse.move(to, grip.y + grip.height / 2, { steps: 10 });
  await page.mouse.up();
  // 2 s + 1 s: N3's key outlives A's job.
  assert.equal(await page.getAttribute('#pause-handle', 'aria-valuenow'), '1000');
  assert.equal(await outcome(page), 'safe');
  await done(page);
});

test('the replicated services speak Japanese, and a link opens an exact state', async () => {
  const page = await open(env.browser, `${env.server.url}/?scenario=redlock&jump=0&pause=15000&lang=ja`);
  assert.deepEqual([await outcome(page), await double(page)], ['corrupted', 'false']);
  assert.match(await page.textContent('.setup'), /A はロックを取った直後に15秒止まります。/);
  assert.match(await narration(page), /20秒に資源は A の書き込みを受け付けました。/);
  assert.match(await page.textContent('#fencing-hint'), /乱数/);
  await pick(page, 'failover');
  assert.match(await narration(page), /レプリカ/);
  const bad = await open(env.browser, `${env.server.url}/?scenario=etcd&leader_crash=soon&lang=en`);
  assert.equal(await outcome(bad), 'fenced');
  assert.match(await bad.textContent('[role=alert]'), /leader_crash: “soon” is not a whole number/);
  await done(bad);
  await done(page);
});

test("the keyboard flips the leader crash and keeps focus on it, as on every switch", async () => {
  for (const browserLang of ['en', 'ja']) {
    const page = await open(env.browser, `${env.server.url}/?scenario=etcd&lang=${browserLang}`);
    const focused = () => page.evaluate(() => document.activeElement.id);
    for (const id of ['leader_crash', 'fencing']) {
      // Tab from the switch before it (or the page's start) lands on it; Space flips it, twice.
      await page.focus(`#${id}`);
      const before = await page.isChecked(`#${id}`);
      await page.keyboard.press('Space');
      assert.equal(await page.isChecked(`#${id}`), !before, `${id} flipped`);
      assert.equal(await focused(), id, `${id} keeps focus`);
      await page.keyboard.press('Space');
      assert.equal(await page.isChecked(`#${id}`), before);
      assert.equal(await focused(), id, `${id} keeps focus`);
    }
    // From the leader crash, Tab goes on to fencing: focus is in the page's order, not back at <body>.
    await page.focus('#leader_crash');
    await page.keyboard.press('Space');
    await page.keyboard.press('Tab');
    assert.equal(await focused(), 'fencing');
    await done(page);
  }
});

test("Redlock's fencing asked for by a link is refused with a notice, in both languages", async () => {
  const page = await open(env.browser, `${env.server.url}/?scenario=redlock&fencing=ON&lang=en`);
  assert.equal(await outcome(page), 'corrupted');
  assert.equal(await page.isChecked('#fencing'), false);
  assert.match(await page.textContent('[role=alert]'), /fencing: “ON” is not available in redlock, so it stays off/);
  const ja = await open(env.browser, `${env.server.url}/?scenario=Redlock&fencing=true&lang=JA`);
  assert.equal(await ja.getAttribute('figure.lab', 'data-scenario'), 'redlock');
  assert.match(await ja.textContent('[role=alert]'), /redlock では「true」は使えないため/);
  const off = await open(env.browser, `${env.server.url}/?scenario=redlock&fencing=off&leader_crash=TRUE&lang=en`);
  assert.equal(await off.locator('[role=alert]').count(), 0);
  const crash = await open(env.browser, `${env.server.url}/?scenario=etcd&leader_crash=true&lang=en`);
  assert.equal(await crash.locator('[role=alert]').count(), 0);
  assert.equal(await crash.isChecked('#leader_crash'), true);
  for (const p of [page, ja, off, crash]) await done(p);
});
