// End-to-end: the release build in real Chromium, driven by mouse, touch and keyboard.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { lab, open, done, outcome, pause, root, settled } from './harness.mjs';

const env = lab();

/** Centre of an element's box. */
async function centre(page, selector) {
  const box = await page.locator(selector).first().boundingBox();
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/** The page x of the axis grid line at `s` seconds. */
async function axisX(page, s) {
  return page.$eval(`line.grid[data-t="${s * 1000}"]`, (el) => el.getBoundingClientRect().x);
}

test('a mouse drag of the handle from 4 s to 15 s turns safe into fenced', async () => {
  const page = await open(env.browser, `${env.server.url}/?lang=en`, { viewport: { width: 1280, height: 900 } });
  assert.equal(await outcome(page), 'safe');
  const handle = await centre(page, '[role=slider] .grip');
  const to = await axisX(page, 15);
  await page.mouse.move(handle.x, handle.y);
  await page.mouse.down();
  await page.mouse.move(to, handle.y + 30, { steps: 25 });
  await page.mouse.up();
  assert.equal(await pause(page), '15000');
  assert.equal(await outcome(page), 'fenced');
  assert.match(await page.textContent('#narration'), /rejected A's write with token 33 \(it had seen 34\)/);
  assert.match(await page.textContent('.write.rejected'), /33 < 34/);
  // Dragging far past either end clamps to 0 and 30 s.
  const h2 = await centre(page, '[role=slider] .grip');
  await page.mouse.move(h2.x, h2.y);
  await page.mouse.down();
  await page.mouse.move(5000, h2.y, { steps: 5 });
  assert.equal(await pause(page), '30000');
  await page.mouse.move(-500, h2.y, { steps: 5 });
  await page.mouse.up();
  assert.equal(await pause(page), '0');
  await done(page);
});

test('while the pointer drags, the figure follows each step and the words wait; they follow once it lets go', async () => {
  const page = await open(env.browser, `${env.server.url}/?lang=en`, { viewport: { width: 1280, height: 900 } });
  // Counts what changes: the slider's value (the figure, every step) and the narration (the words).
  await page.evaluate(() => {
    const seen = (window.__seen = { steps: 0, words: 0 });
    new MutationObserver(() => seen.steps++)
      .observe(document.querySelector('[role=slider]'), { attributes: true, attributeFilter: ['aria-valuenow'] });
    new MutationObserver(() => seen.words++)
      .observe(document.querySelector('#narration'), { childList: true, characterData: true, subtree: true });
  });
  const handle = await centre(page, '[role=slider] .grip');
  const [from, to] = [await axisX(page, 5), await axisX(page, 21)];
  await page.mouse.move(handle.x, handle.y);
  await page.mouse.down();
  // Sixteen steps, a second of pause each, 20 ms apart: the hand never rests.
  for (let i = 0; i <= 16; i++) {
    await page.mouse.move(from + ((to - from) * i) / 16, handle.y);
    await page.waitForTimeout(20);
  }
  // Read at once, while the hand is still moving: the readout beside the switches follows the band, and
  // the words that wait say so (dimmed).
  const during = await page.evaluate(() => ({
    ...window.__seen,
    readout: document.querySelector('output[for=pause-handle]').textContent,
    hand: document.querySelector('figure.lab').dataset.hand,
    dimmed: getComputedStyle(document.querySelector('.verdict')).opacity,
  }));
  assert.deepEqual([during.readout, during.hand, during.dimmed], ['21 s', 'moving', '0.5']);
  await page.mouse.up();
  await settled(page);
  assert.ok(during.steps >= 12, `the figure followed the steps (${during.steps} of 17)`);
  assert.ok(during.words <= 2, `the narration waited for the hand (${during.words} changes in ${during.steps} steps)`);
  assert.equal(await pause(page), '21000');
  assert.match(await page.textContent('#narration'), /From 0 s to 21 s A was paused/);
  assert.match(await page.textContent('.prompt'), /A wakes after 21 s/);
  assert.equal(await page.$eval('.verdict', (e) => getComputedStyle(e).opacity), '1');
  await done(page);
});

test('a touch drag moves the handle too', async () => {
  const page = await open(env.browser, `${env.server.url}/?lang=en`, {
    viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true,
  });
  await page.locator('#pause-handle').scrollIntoViewIfNeeded();
  const handle = await centre(page, '[role=slider] .grip');
  const to = await axisX(page, 15);
  const cdp = await page.context().newCDPSession(page);
  const touch = (type, x) => cdp.send('Input.dispatchTouchEvent', {
    type, touchPoints: type === 'touchEnd' ? [] : [{ x, y: handle.y }],
  });
  await touch('touchStart', handle.x);
  for (let i = 1; i <= 10; i++) await touch('touchMove', handle.x + ((to - handle.x) * i) / 10);
  await touch('touchEnd');
  const value = Number(await pause(page));
  assert.ok(Math.abs(value - 15000) <= 600, `touch drag landed at ${value}`);
  assert.equal(await outcome(page), 'fenced');
  await done(page);
});

test('fencing off gives corrupted; lease off gives stalled; the URL keeps up and reopens the state', async () => {
  const page = await open(env.browser, `${env.server.url}/?pause=15000&lang=en`);
  assert.equal(await outcome(page), 'fenced');
  await page.click('label[for=fencing]');
  assert.equal(await outcome(page), 'corrupted');
  assert.match(await page.textContent('#narration'), /Fencing was off: the storage checked no tokens/);
  await page.click('label[for=lease]');
  assert.equal(await outcome(page), 'stalled');
  await page.waitForURL(/\?scenario=gc-pause&pause=15000&lease=off&fencing=off&lang=en$/);
  await page.reload();
  await page.waitForSelector('.app-started figure.lab[data-outcome]');
  assert.equal(await outcome(page), 'stalled');
  assert.equal(await page.isChecked('#lease'), false);
  assert.equal(await pause(page), '15000');
  await done(page);
});

test('the keyboard reaches every control and the focus is visible', async () => {
  const page = await open(env.browser, `${env.server.url}/?lang=en`);
  const order = [];
  for (let i = 0; i < 30; i++) {
    await page.keyboard.press('Tab');
    order.push(await page.evaluate(() => document.activeElement.id || document.activeElement.getAttribute('aria-label') || document.activeElement.textContent.trim()));
  }
  for (const id of ['lease', 'fencing', 'pause-handle']) assert.ok(order.includes(id), `${id} in ${order}`);
  await page.focus('#pause-handle');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Shift+Tab');
  const ring = await page.$eval('#pause-handle .focus-ring', (el) => getComputedStyle(el).opacity);
  assert.equal(ring, '1');
  await page.keyboard.press('PageUp');
  await page.keyboard.press('Shift+ArrowRight');
  await page.keyboard.press('ArrowRight');
  assert.equal(await pause(page), '6100');
  await page.keyboard.press('End');
  assert.equal(await outcome(page), 'fenced');
  await page.focus('#fencing');
  await page.keyboard.press('Space');
  assert.equal(await outcome(page), 'corrupted');
  await done(page);
});

test('bad URL parameters show the notice and the default outcome', async () => {
  const page = await open(env.browser, `${env.server.url}/?pause=99999&lease=perhaps&fencing=on&lang=xx`);
  assert.equal(await outcome(page), 'safe');
  const notice = await page.textContent('[role=alert]');
  assert.match(notice, /pause: 99999 is outside 0–30000/);
  assert.match(notice, /lease: “perhaps”/);
  assert.match(notice, /lang: “xx”/);
  assert.equal(await pause(page), '4000');
  await done(page);
});

test('play sweeps the playhead and reaches the end', async () => {
  const page = await open(env.browser, `${env.server.url}/?pause=15000&lang=en`);
  await page.click('button.play');
  await page.waitForSelector('line.playhead:not([hidden])', { state: 'attached' });
  assert.equal(await page.getAttribute('button.play', 'aria-pressed'), 'true');
  // Mid-run, A's rejected write has not happened yet.
  assert.equal(await page.locator('.timeline .write.rejected').count(), 0);
  await page.waitForSelector('line.playhead[hidden]', { state: 'attached', timeout: 15000 });
  assert.equal(await page.getAttribute('button.play', 'aria-pressed'), 'false');
  assert.equal(await page.locator('.timeline .write.rejected').count(), 1);
  // Stepping walks the events.
  await page.click('button[aria-label="Previous event"]');
  assert.equal(await page.locator('.timeline .write.rejected').count(), 0);
  await page.click('button[aria-label="Next event"]');
  assert.equal(await page.locator('.timeline .write.rejected').count(), 1);
  await done(page);
});

test('the scrubber reaches an end that is not on its 0.1 s steps: End shows the last write', async () => {
  // The run ends at 11.05 s, with A's rejected write.
  const page = await open(env.browser, `${env.server.url}/?pause=11050&lang=en`);
  await page.focus('input.scrub');
  await page.keyboard.press('Home');
  assert.equal(await page.locator('.timeline .write.rejected').count(), 0);
  await page.keyboard.press('End');
  await page.waitForFunction(() => document.querySelectorAll('.timeline .write.rejected').length === 1);
  assert.match(await page.textContent('.playback'), /11\.05 \/ 11\.05 s/);
  await done(page);
});

test('reduced motion steps from event to event', async () => {
  const page = await open(env.browser, `${env.server.url}/?pause=15000&lang=en`, { reducedMotion: 'reduce' });
  await page.click('button.play');
  await page.waitForSelector('line.playhead:not([hidden])', { state: 'attached' });
  const x1 = await page.getAttribute('line.playhead', 'transform');
  await page.waitForFunction((x) => document.querySelector('line.playhead')?.getAttribute('transform') !== x, x1);
  const scrub = Number(await page.inputValue('input.scrub'));
  assert.ok([1000, 10000, 11000, 15000].includes(scrub), `stepped to an event time, got ${scrub}`);
  // It stops on the last event too (A's rejected write at 15 s) before the whole run is shown.
  await page.waitForFunction(() => document.querySelector('input.scrub')?.value === '15000', null, { timeout: 10000 });
  await done(page);
});

test('screenshots at 360, 800 and 1280 px wide (kept in tests/e2e/artifacts)', async () => {
  const dir = join(root, 'tests/e2e/artifacts');
  await mkdir(dir, { recursive: true });
  const shots = [
    [320, 'pause=10500&lang=ja'], [360, 'pause=10500&lang=ja'], [800, 'pause=15000&fencing=off&lang=en'],
    [1280, 'pause=15000&lang=en'], [360, 'scenario=unsafe-release&lang=en'], [1280, 'scenario=check-then-set&lang=ja'],
    [1280, 'scenario=network-delay&delay=8500&lang=en'], [1280, 'scenario=lock-delay&lang=en'],
  ];
  for (const [width, query] of shots) {
    const page = await open(env.browser, `${env.server.url}/?${query}`, { viewport: { width, height: 900 } });
    // Nothing may stick out sideways: no horizontal scrolling at any width.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `${width}px: page is ${overflow}px too wide`);
    const name = query.match(/scenario=([a-z-]+)/)?.[1] ?? 'gc-pause';
    await page.screenshot({ path: join(dir, `timeline-${name}-${width}.png`), fullPage: true });
    await done(page);
  }
  // A teacher's 800x500 iframe: the embed alone.
  const embed = await open(env.browser, `${env.server.url}/?embed=1&pause=15000&lang=en`, { viewport: { width: 800, height: 500 } });
  assert.equal(await embed.evaluate(() => document.documentElement.scrollWidth), 800);
  await embed.screenshot({ path: join(dir, 'embed-800x500.png') });
  await done(embed);
  for (const scheme of ['dark']) {
    const page = await open(env.browser, `${env.server.url}/?pause=15000&lang=en`, { viewport: { width: 1280, height: 900 }, colorScheme: scheme });
    await page.screenshot({ path: join(dir, `timeline-1280-${scheme}.png`), fullPage: true });
    await done(page);
  }
});
