// End-to-end: the lab in a teacher's material. The Share panel's animated SVG is `locksim render --animate`'s
// for the state on screen; that SVG plays in Chromium (the playhead sweeps, marks appear only once it has
// reached them) and holds its last frame under reduced motion; the projector walks a run's moments by
// keyboard, in both languages, with the step in the link.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { lab, open, done, root, outcome } from './harness.mjs';

const env = lab();
// Built with the native tests (scripts/test.sh builds them before these).
const locksim = join(root, process.env.CARGO_TARGET_DIR ?? 'target', 'debug', 'locksim');
const render = (...args) => execFileSync(locksim, ['render', ...args], { encoding: 'utf8' });

test('the Share panel\'s animated SVG is locksim render --animate\'s, in the page\'s language and colours', async () => {
  const page = await open(env.browser, `${env.server.url}/?scenario=unsafe-release&work=10500&lang=ja`, { colorScheme: 'dark' });
  await page.click('.share summary');
  const [saved] = await Promise.all([page.waitForEvent('download'), page.click('[data-download=animated]')]);
  assert.equal(saved.suggestedFilename(), 'fencing-lab-animated.svg');
  const svg = await readFile(await saved.path(), 'utf8');
  assert.equal(svg, render('--scenario', 'unsafe-release', '--work', '10500', '--lang', 'ja', '--theme', 'dark', '--animate'));
  assert.match(svg, /@keyframes/);
  assert.match(svg, new RegExp(`data-outcome="${await outcome(page)}"`));
  await done(page);
});

/** The animated figure of `args` on a page of its own, every animation paused; returns a sampler. */
async function player(context, args) {
  const page = await context.newPage();
  await page.setContent(`<!doctype html><body style="margin:0">${render(...args, '--animate')}</body>`);
  const sample = (ms) => page.evaluate((ms) => {
    for (const a of document.getAnimations()) { a.pause(); a.currentTime = ms; }
    const playhead = document.querySelector('.playhead');
    // The marks that stand at a moment of the run: requests, releases and writes (a label may stand anywhere).
    const marks = [...document.querySelectorAll('[class^="fencing-lab-t"] :is(circle, path.release)')].map((m) => {
      const box = m.getBoundingClientRect();
      return { x: box.left + box.width / 2, visible: getComputedStyle(m).visibility === 'visible' };
    });
    const shown = [...document.querySelectorAll('[class^="fencing-lab-t"]')].filter((g) => getComputedStyle(g).visibility === 'visible');
    const hidden = getComputedStyle(playhead).visibility === 'hidden';
    const x = hidden ? null : playhead.getBoundingClientRect().left + playhead.getBoundingClientRect().width / 2;
    return { x, shown: shown.length, marks, animations: document.getAnimations().length };
  }, ms);
  return { page, sample };
}

test('an animated SVG plays in Chromium: the playhead sweeps and each mark appears once it is reached', async () => {
  const context = await env.browser.newContext();
  const { page, sample } = await player(context, ['--scenario', 'gc-pause', '--pause', '15000']);
  const svg = render('--scenario', 'gc-pause', '--pause', '15000', '--animate');
  const total = Number(svg.match(/(\d+)ms linear infinite/)[1]);
  // The playhead sweeps the run in the first part of the cycle, then the last frame holds.
  const sweep = (total * Number(svg.match(/-play \{ 0% \{[^}]*\} ([\d.]+)%/)[1])) / 100;
  let last = { x: -Infinity, shown: 0 };
  for (let i = 0; i <= 40; i += 1) {
    const at = sweep * (i / 40) - (i === 40 ? 1 : 0);
    const now = await sample(at);
    assert.ok(now.animations > 3, 'the figure is animated');
    assert.ok(now.x !== null && now.x >= last.x, `the playhead goes on at ${at} ms: ${now.x} after ${last.x}`);
    assert.ok(now.shown >= last.shown, `nothing drawn goes away at ${at} ms`);
    for (const m of now.marks) {
      if (m.visible) assert.ok(m.x <= now.x + 1, `at ${at} ms a mark at ${m.x} px shows before the playhead (${now.x} px) reaches it`);
      else assert.ok(m.x > now.x - 1, `at ${at} ms a mark at ${m.x} px is still hidden behind the playhead (${now.x} px)`);
    }
    last = now;
  }
  const first = await sample(0);
  const end = await sample(total * 0.75);
  assert.ok(first.shown < end.shown && end.marks.every((m) => m.visible), `${first.shown} marks at the start, ${end.shown} at the end`);
  assert.equal(end.x, null, 'the last frame holds without the playhead');
  await context.close();

  // Reduced motion: no animation runs, and the still frame is the last.
  const still = await env.browser.newContext({ reducedMotion: 'reduce' });
  const held = await player(still, ['--scenario', 'gc-pause', '--pause', '15000']);
  const frame = await held.sample(0);
  assert.equal(frame.animations, 0);
  assert.equal(frame.shown, end.shown, 'every mark shows');
  await still.close();
});

/** The projector's step line, caption and the link's `present=`. */
const state = (page) => page.evaluate(() => ({
  step: document.querySelector('.projector-step').textContent,
  caption: document.querySelector('.projector-caption').textContent,
  present: new URLSearchParams(location.search).get('present'),
  playhead: Number(document.querySelector('.projector .playhead')?.getAttribute('x1')),
  verdict: !document.querySelector('.projector-verdict').hidden,
  inDialog: !!document.activeElement?.closest('.projector[role=dialog]'),
}));

test('the projector walks every moment of a run by keyboard, keeps the step in the link, and Esc gives the page back', async () => {
  const page = await open(env.browser, `${env.server.url}/?scenario=gc-pause&pause=15000&lang=en`, { viewport: { width: 1280, height: 800 } });
  await page.click('.share summary');
  const button = page.locator('[data-download=present]');
  await button.click();
  await page.waitForSelector('.projector[role=dialog][aria-modal=true]');
  assert.equal(await page.getAttribute('.projector', 'aria-label'), 'The run, one moment at a time');
  // The page behind is inert: the keyboard stays in the dialog.
  assert.equal(await page.$eval('main, .app', (el) => el.closest('[inert]') !== null), true);
  const first = await state(page);
  assert.ok(first.inDialog, 'focus is in the dialog');
  const n = Number(first.step.match(/^Step 1 of (\d+) · /)[1]);
  assert.ok(n >= 4, `${n} steps`);
  assert.equal(first.present, '1');
  const seen = [first];
  for (let k = 2; k <= n; k += 1) {
    await page.keyboard.press(k % 2 ? 'ArrowRight' : 'Space');
    const now = await state(page);
    assert.match(now.step, new RegExp(`^Step ${k} of ${n} · `));
    assert.equal(now.present, String(k));
    assert.ok(now.playhead >= seen.at(-1).playhead, 'the playhead goes on');
    assert.notEqual(now.caption, seen.at(-1).caption);
    seen.push(now);
  }
  // Every step says something, and only the last adds the verdict: the run's own.
  assert.ok(seen.every((s) => s.caption.length > 10));
  assert.deepEqual(seen.map((s) => s.verdict), seen.map((_, i) => i === n - 1));
  assert.equal(await page.getAttribute('.projector-verdict', 'data-kind'), await outcome(page));
  // The run's story, in order: A takes token 33 first, B's token 34 comes later, and 33's late write is refused.
  const told = seen.map((s) => s.caption);
  assert.match(told[0], /33/);
  const took34 = told.findIndex((c) => /34/.test(c));
  const refused = told.findIndex((c) => /rejected|refused/.test(c));
  assert.ok(took34 > 0 && refused > took34, told.join('\n'));
  // Past the end stays at the end; back, home and end.
  await page.keyboard.press('ArrowRight');
  assert.equal((await state(page)).present, String(n));
  await page.keyboard.press('ArrowLeft');
  assert.equal((await state(page)).present, String(n - 1));
  await page.keyboard.press('Home');
  assert.equal((await state(page)).present, '1');
  await page.keyboard.press('ArrowLeft');
  assert.equal((await state(page)).present, '1');
  await page.keyboard.press('End');
  assert.equal((await state(page)).present, String(n));
  // Tab goes round the dialog's buttons, either way, and never out of it (where Escape would go unheard).
  for (let i = 0; i < 5; i++) {
    await page.keyboard.press('Tab');
    assert.ok((await state(page)).inDialog, `Tab ${i + 1} stays in the dialog`);
  }
  for (let i = 0; i < 5; i++) {
    await page.keyboard.press('Shift+Tab');
    assert.ok((await state(page)).inDialog, `Shift+Tab ${i + 1} stays in the dialog`);
  }
  // Esc: the page as it was, focus back on the button, the link without a step.
  await page.keyboard.press('Escape');
  await page.waitForSelector('.projector', { state: 'detached' });
  assert.equal(await page.evaluate(() => document.querySelectorAll('[inert]').length), 0);
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.download), 'present');
  assert.equal(await page.evaluate(() => new URLSearchParams(location.search).has('present')), false);
  assert.equal(await outcome(page), 'fenced');
  await done(page);
});

test('a link opens the projector at its step, in Japanese, on a phone; a step that is not one says so', async () => {
  const url = (step) => `${env.server.url}/?scenario=unsafe-release&lang=ja&present=${step}`;
  const page = await open(env.browser, url(2), { viewport: { width: 360, height: 740 } });
  await page.waitForSelector('.projector[role=dialog]');
  const second = await state(page);
  assert.match(second.step, /^場面 2 \/ \d+・[\d.]+秒$/);
  assert.ok(second.inDialog);
  assert.equal(second.present, '2');
  assert.match(second.caption, /[ぁ-んァ-ン一-龯]/);
  assert.equal(await page.locator('.projector-note').count(), 0);
  // The figure fits the phone's width.
  const box = await page.locator('.projector svg').boundingBox();
  assert.ok(box.width <= 360, `${box.width} px wide`);
  await page.context().close();
  for (const [given, at] of [['99', 'last'], ['abc', 1], ['0', 1]]) {
    const bad = await open(env.browser, url(given), { viewport: { width: 360, height: 740 } });
    await bad.waitForSelector('.projector-note[role=alert]');
    const now = await state(bad);
    const n = Number(now.step.match(/\/ (\d+)・/)[1]);
    const want = at === 'last' ? n : at;
    assert.equal(now.present, String(want));
    assert.match(await bad.textContent('.projector-note'), new RegExp(`「${given}」.*${n}.*${want}`));
    await bad.click('.projector-leave');
    await bad.waitForSelector('.projector', { state: 'detached' });
    await done(bad);
  }
});

test("a projector's caption is the narration's: the moment's facts, each with the reason that explains it", async () => {
  const page = await open(env.browser, `${env.server.url}/?scenario=etcd&lang=en&present=3`);
  await page.waitForSelector('.projector[role=dialog]');
  const third = await state(page);
  assert.match(third.step, /^Step 3 of \d+ · 10 s$/);
  assert.match(third.caption, /^At 10 s A's lease ran out\. Paused, A had sent no keepalive: only a running holder renews its lease\. At 10 s B took the lock with token 34/);
  await done(page);
});
