// The reader's text in the editor (src/app/editor.rs, src/present/history.rs): one editing history for
// what the reader types and what the page writes (a switch, a drag), walked by the real keyboard.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lab, open, done, rested } from './harness.mjs';

const env = lab();
const area = '.editor textarea';
const value = (page) => page.inputValue(area);
const waitValue = (page, text) => page.waitForFunction(([s, t]) => document.querySelector(s)?.value === t, [area, text]);

/** Opens the gc-pause scenario as a script in the editor; its text. */
async function editing(page) {
  await page.click('[data-edit-script]');
  await page.waitForSelector(area);
  await rested(page);
  return value(page);
}

/** Presses `keys` in the editor, one by one, as a reader would. */
const press = async (page, ...keys) => {
  for (const k of keys) {
    await page.keyboard.press(k);
    await rested(page);
  }
};

test('typing, then a switch the page flips, are two steps of one history: undo and redo walk exactly the texts shown', async () => {
  const page = await open(env.browser, `${env.server.url}/?lang=en`, { viewport: { width: 1280, height: 1000 } });
  const first = await editing(page);
  assert.match(first, /^fencing on$/m);
  await page.click(area);
  await page.keyboard.press('Control+End');
  await page.keyboard.type('# hello');
  await rested(page);
  const typed = await value(page);
  assert.equal(typed, `${first}# hello`);
  // The page rewrites the script: fencing off.
  await page.click('label:has(#fencing)');
  await page.waitForFunction((s) => /^fencing off$/m.test(document.querySelector(s).value), area);
  await rested(page);
  const flipped = await value(page);
  assert.ok(flipped.endsWith('# hello') && flipped.split('# hello').length === 2, flipped);
  await page.focus(area);
  await press(page, 'Control+z');
  assert.equal(await value(page), typed, 'the switch undone, the typing kept');
  assert.equal(await page.getAttribute('figure.lab', 'data-outcome'), 'safe');
  await press(page, 'Control+z');
  assert.equal(await value(page), first, 'the run of typing is one step');
  await press(page, 'Control+z');
  assert.equal(await value(page), first, 'nothing before the first text');
  await press(page, 'Control+Shift+z');
  assert.equal(await value(page), typed);
  await press(page, 'Control+y');
  assert.equal(await value(page), flipped, 'Ctrl+Y redoes too, and the text is never doubled');
  assert.ok(await page.isChecked('#fencing') === false, 'the switch shows the text');
  await press(page, 'Meta+z');
  assert.equal(await value(page), typed, 'Cmd+Z, as on macOS');
  // The page's link holds the text on screen.
  await page.waitForFunction((t) => new URLSearchParams(location.search).get('script') === t, typed);
  await done(page);
});

test('a paste, then a drag of the band with a pause in the middle: the drag is one step, undone whole', async () => {
  const page = await open(env.browser, `${env.server.url}/?lang=en`, { viewport: { width: 1280, height: 1000 } });
  const first = await editing(page);
  await page.click(area);
  await page.keyboard.press('Control+End');
  await page.evaluate(() => navigator.clipboard?.writeText?.('x').catch(() => {}));
  // A paste, as the browser delivers one (the clipboard is not reachable headless).
  await page.evaluate((s) => {
    const a = document.querySelector(s);
    a.setRangeText('# pasted\n', a.value.length, a.value.length, 'end');
    a.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertFromPaste' }));
  }, area);
  await rested(page);
  const pasted = await value(page);
  assert.equal(pasted, `${first}# pasted\n`);
  const grip = await page.locator('[role=slider] .grip').first().boundingBox();
  const [x, y] = [grip.x + grip.width / 2, grip.y + grip.height / 2];
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + 60, y, { steps: 6 });
  // The hand rests mid-drag: the words follow, the editor shows the text, and the drag goes on.
  await page.waitForTimeout(450);
  await page.mouse.move(x + 140, y, { steps: 6 });
  await page.mouse.up();
  await rested(page);
  const dragged = await value(page);
  assert.notEqual(dragged, pasted);
  assert.ok(dragged.endsWith('# pasted\n'));
  await page.focus(area);
  await press(page, 'Control+z');
  assert.equal(await value(page), pasted, 'the whole drag undone in one step');
  await press(page, 'Control+z');
  assert.equal(await value(page), first, 'then the paste');
  await press(page, 'Control+Shift+z', 'Control+Shift+z');
  assert.equal(await value(page), dragged);
  await done(page);
});

test('a text told back late never takes away keys typed since', async () => {
  const page = await open(env.browser, `${env.server.url}/?lang=en`, { viewport: { width: 1280, height: 1000 } });
  const first = await editing(page);
  await page.click(area);
  await page.keyboard.press('Control+End');
  // Keys with pauses around the moment the words follow (150–300 ms).
  for (const [i, c] of [...'# abcdefgh'].entries()) {
    await page.keyboard.type(c);
    await page.waitForTimeout(120 + (i % 4) * 60);
  }
  await rested(page);
  await page.waitForTimeout(300);
  assert.equal(await value(page), `${first}# abcdefgh`);
  await done(page);
});

test('a paste past the limit is kept whole and said at once; the figure and the link keep the last script that read, and the link reopens', async () => {
  const page = await open(env.browser, `${env.server.url}/?lang=en`, { viewport: { width: 1280, height: 1000 } });
  const first = await editing(page);
  const before = await page.getAttribute('figure.lab', 'data-outcome');
  await page.click(area);
  await page.keyboard.press('Control+End');
  const filler = `# ${'x'.repeat(19998)}\n`;
  await page.keyboard.insertText(filler);
  await rested(page);
  const text = await value(page);
  assert.equal(text.length, first.length + filler.length, 'everything pasted is kept');
  const over = text.length - 4000;
  const said = await page.textContent('.script-problem');
  assert.ok(said.includes(`the script has ${text.length} characters; at most 4000 are allowed (${over} too many)`), said);
  assert.match(said, /link holds the last script that read, not this text/);
  assert.equal(await page.getAttribute('figure.lab', 'data-outcome'), before, 'the last good run stays drawn');
  // The link keeps the last script that read: short enough to reopen.
  await page.waitForFunction((t) => new URLSearchParams(location.search).get('script') === t, first);
  const url = page.url();
  assert.ok(url.length < 4000, `${url.length}`);
  const again = await open(env.browser, url, { viewport: { width: 1280, height: 1000 } });
  await again.waitForSelector(area);
  assert.equal(await again.inputValue(area), first);
  await done(again);
  // Undone, the link follows the text again.
  await page.focus(area);
  await press(page, 'Control+z');
  assert.equal(await value(page), first);
  await page.waitForSelector('.script-problem:not(.bad)');
  await done(page);
});

test('in Japanese, a script past the limit says by how much and that the link holds the scenario before it', async () => {
  const long = `# ${'x'.repeat(4100)}\nA: acquire`;
  const page = await open(env.browser, `${env.server.url}/?script=${encodeURIComponent(long)}&lang=ja`, { viewport: { width: 1280, height: 1000 } });
  await page.waitForSelector(area);
  await rested(page);
  assert.equal((await value(page)).length, long.length);
  const said = await page.textContent('.script-problem');
  assert.ok(said.includes(`スクリプトが${long.length}文字あります。4000文字までです（${long.length - 4000}文字多すぎます）。`), said);
  assert.match(said, /始めたシナリオが入っています/);
  await page.waitForFunction(() => !new URLSearchParams(location.search).has('script'));
  await done(page);
});
