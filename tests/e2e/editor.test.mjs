// The reader's text in the editor (src/app/editor.rs, src/present/history.rs): one editing history for
// what the reader types and what the page writes (a switch, a drag), walked by the real keyboard.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lab, open, done, rested, pick, embedHost } from './harness.mjs';

const env = lab();
const area = '.editor textarea';
const value = (page) => page.inputValue(area);
const waitValue = (page, text) => page.waitForFunction(([s, t]) => document.querySelector(s)?.value === t, [area, text]);

/** Opens the gc-pause scenario as a script in the editor, wide: the page and the script's text. */
async function editing() {
  const page = await open(env.browser, `${env.server.url}/?lang=en`, { viewport: { width: 1280, height: 1000 } });
  await page.click('[data-edit-script]');
  await page.waitForSelector(area);
  await rested(page);
  return { page, first: await value(page) };
}

/** Puts the caret at the end of the editor's text, as a reader clicking into it and pressing Ctrl+End. */
async function toEnd(page) {
  await page.click(area);
  await page.keyboard.press('Control+End');
}

/** Presses `keys` in the editor, one by one, as a reader would. */
const press = async (page, ...keys) => {
  for (const k of keys) {
    await page.keyboard.press(k);
    await rested(page);
  }
};

test('typing, then a switch the page flips, are two steps of one history: undo and redo walk exactly the texts shown', async () => {
  const { page, first } = await editing();
  assert.match(first, /^fencing on$/m);
  await toEnd(page);
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
  const { page, first } = await editing();
  await toEnd(page);
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
  const { page, first } = await editing();
  await toEnd(page);
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
  const { page, first } = await editing();
  const before = await page.getAttribute('figure.lab', 'data-outcome');
  await toEnd(page);
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
  // What Share gives is that same link, and the snippet embeds it.
  await page.click('.share summary');
  await page.waitForFunction(() => document.querySelector('#share-link')?.value === location.href);
  const embedded = new URLSearchParams(new URL((await page.inputValue('#share-embed')).match(/src="([^"]+)"/)[1]).search);
  assert.equal(embedded.get('script'), first);
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

test('a script past the limit, which its link cannot carry, comes back whole with Back and a reload', async () => {
  const { page, first } = await editing();
  await toEnd(page);
  await page.keyboard.insertText(`# ${'y'.repeat(5000)}\n`);
  await rested(page);
  const text = await value(page);
  await page.waitForFunction((t) => new URLSearchParams(location.search).get('script') === t, first);
  await pick(page, 'crash');
  await page.waitForSelector('figure.lab[data-scenario=crash]');
  await page.waitForURL(/scenario=crash/);
  await page.goBack();
  await page.waitForSelector(area, { state: 'visible', timeout: 5000 });
  await waitValue(page, text);
  assert.match(await page.textContent('.script-problem'), /at most 4000 are allowed/);
  await page.reload();
  await page.waitForSelector(area, { state: 'visible', timeout: 5000 });
  await waitValue(page, text);
  await done(page);
});

test('an edit not settled yet when another scenario is picked is in the entry Back returns to: text, figure and verdict together', async () => {
  const { page, first } = await editing();
  assert.equal(await page.getAttribute('figure.lab', 'data-outcome'), 'safe');
  // Put the caret before A's pause of 4 s and type a 1: 14 s, past the 10 s lease.
  await page.$eval(area, (a) => {
    const at = a.value.search(/pause[ =]4s/) + 6;
    a.focus();
    a.setSelectionRange(at, at);
  });
  await page.keyboard.type('1');
  const typed = await value(page);
  assert.notEqual(typed, first);
  assert.match(typed, /pause[ =]14s/);
  // Another scenario at once, before the words follow (150–300 ms).
  await pick(page, 'crash');
  await page.waitForSelector('figure.lab[data-scenario=crash]');
  await page.waitForURL(/scenario=crash/);
  await page.goBack();
  await page.waitForSelector('figure.lab[data-scenario=script]');
  // The entry opens the editor, as its link would, with the text as typed.
  await page.waitForSelector(area, { state: 'visible', timeout: 5000 });
  await waitValue(page, typed);
  await rested(page);
  assert.equal(new URL(page.url()).searchParams.get('script'), typed);
  assert.equal(await page.getAttribute('figure.lab', 'data-outcome'), 'fenced', 'the figure and verdict of the text shown');
  assert.equal(await page.getAttribute('[role=slider]', 'aria-valuenow'), '14000');
  await done(page);
});

test('messages name the thing: an invisible character by its code point, a count as a count; a link with carriage returns alone reads as lines', async () => {
  const { page, first } = await editing();
  await toEnd(page);
  await page.keyboard.type('C: acquire');
  await page.keyboard.insertText('\u200b');
  await rested(page);
  assert.match(await page.textContent('.script-problem'), /unexpected character U\+200B \(ZERO WIDTH SPACE\)/);
  await page.keyboard.press('Control+a');
  await page.keyboard.insertText('service redlock, servers 200\nA: acquire, write');
  await rested(page);
  assert.match(await page.textContent('.script-problem'), /line 1, column \d+: 200 is out of range: a whole number from 1 to 5$/);
  await done(page);
  // The same script with carriage returns alone: it reads, line by line.
  const cr = first.replace(/\n/g, '\r');
  const again = await open(env.browser, `${env.server.url}/?script=${encodeURIComponent(cr)}&lang=en`, { viewport: { width: 1280, height: 1000 } });
  await again.waitForSelector('figure.lab[data-scenario=script]:not(.reading-script)');
  await again.waitForSelector(area);
  await rested(again);
  assert.equal(await again.inputValue(area), first);
  assert.equal(await again.getAttribute(area, 'aria-invalid'), 'false');
  assert.equal(await again.getAttribute('figure.lab', 'data-outcome'), 'safe');
  await done(again);
});

test('a linked script that never read says so in the figure\'s place, never an empty box; closed or embedded, it says nothing is drawn', async () => {
  const page = await open(env.browser, `${env.server.url}/?script=${encodeURIComponent('A: acquire, fly')}&lang=en`, { viewport: { width: 1000, height: 900 } });
  await page.waitForSelector('figure.lab.unread-script');
  await rested(page);
  const status = page.locator('.script-status');
  assert.equal(await status.textContent(), 'Nothing to draw until the script reads.');
  assert.ok(await status.isVisible());
  // No run on screen, so no outcome stated (the catalogue's run behind it is not the reader's).
  const attrs = () => page.$eval('figure.lab', (f) => [f.dataset.outcome ?? null, f.dataset.doubleGrant ?? null]);
  assert.deepEqual(await attrs(), [null, null]);
  // The placeholder stands where the figure would, beside the editor.
  const [s, e] = [await status.boundingBox(), await page.locator('.editor').boundingBox()];
  assert.ok(s.x < e.x && s.y < e.y + e.height, JSON.stringify([s, e]));
  await page.click('.editor [data-editor=close]');
  assert.match(await status.textContent(), /^The script could not be read: line 1, column 13: .*\. Nothing is drawn until it reads\.$/);
  await done(page);
  // Once the text reads, its run's outcome is stated.
  const fixed = await open(env.browser, `${env.server.url}/?script=${encodeURIComponent('A: acquire, fly')}&lang=en`);
  await fixed.waitForSelector('figure.lab.unread-script');
  await fixed.fill('.editor textarea', 'A: acquire, write, release');
  await fixed.waitForSelector('figure.lab[data-outcome=safe][data-double-grant=false]:not(.unread-script)');
  await done(fixed);
  const ja = await open(env.browser, `${env.server.url}/?script=${encodeURIComponent('A: acquire, fly')}&lang=ja&embed=1`, { viewport: { width: 600, height: 600 } });
  await ja.waitForSelector('figure.lab.unread-script');
  assert.match(await ja.textContent('.script-status'), /^スクリプトを読めませんでした：.*。読めるまで図は描かれません。$/);
  await done(ja);
  // Its host hears the script, and no outcome.
  const host = await embedHost(env, `embed=1&lang=en&script=${encodeURIComponent('A: acquire, fly')}`);
  await host.frameLocator('iframe').locator('figure.lab.unread-script').waitFor();
  const last = await host.evaluate(() => window.messages.filter((m) => m.type === 'fencing-lab:state').at(-1));
  assert.equal(last.scenario, 'script');
  assert.ok(!('outcome' in last) && !('doubleGrant' in last), JSON.stringify(last));
  await host.context().close();
});

test('the embed protocol names every field it did not apply, keeps nothing for later and echoes values as sent; a link names a value beside its script', async () => {
  const host = await embedHost(env, 'embed=1&lang=en');
  const errors = () => host.evaluate(() => window.messages.filter((m) => m.type === 'fencing-lab:error').map((m) => m.problems));
  const reply = async (msg, n) => {
    await host.evaluate((m) => window.send(m), msg);
    await host.waitForFunction((k) => window.messages.filter((m) => m.type === 'fencing-lab:error').length >= k, n);
    return (await errors())[n - 1];
  };
  assert.deepEqual(await reply({ type: 'fencing-lab:set', script: 'A: acquire, write', pause: 3000 }, 1),
    ['\u2068pause\u2069: not applied to a script; set it in the script’s text']);
  await host.waitForFunction(() => window.messages.some((m) => m.type === 'fencing-lab:state' && m.scenario === 'script'));
  assert.deepEqual(await reply({ type: 'fencing-lab:set', bogus: 1 }, 2), ['unknown setting “\u2068bogus\u2069”']);
  // A pause sent to the script on screen is not applied, nor kept for the scenario that comes next.
  assert.match((await reply({ type: 'fencing-lab:set', pause: 9000 }, 3))[0], /pause\u2069: not applied to a script/);
  await host.evaluate(() => window.send({ type: 'fencing-lab:set', scenario: 'gc-pause' }));
  await host.waitForFunction(() => window.messages.filter((m) => m.type === 'fencing-lab:state').at(-1)?.scenario === 'gc-pause');
  assert.equal((await host.evaluate(() => window.messages.filter((m) => m.type === 'fencing-lab:state').at(-1))).pause, 4000);
  // Values as sent: a boolean where a number belongs is repeated as `true`.
  assert.deepEqual(await reply({ type: 'fencing-lab:set', scenario: 'network-delay', delay: true }, 4),
    ['delay: “\u2068true\u2069” is not a whole number']);
  // A null is sent, so it is answered, not taken for a field left out.
  assert.deepEqual(await reply({ type: 'fencing-lab:set', delay: null }, 5),
    ['delay: “\u2068null\u2069” is not a whole number']);
  // Past the notice's eight, the reply still names every field: a bad value after nine unknown ones too.
  const many = Object.fromEntries([...Array(9).keys()].map((k) => [`a${k}`, 1]));
  const all = await reply({ type: 'fencing-lab:set', ...many, delay: 'soon' }, 6);
  assert.equal(all.length, 10);
  assert.equal(all.at(-1), 'delay: “\u2068soon\u2069” is not a whole number');
  const frame = host.frames().find((f) => f !== host.mainFrame());
  // The page's notice lists the first eight.
  await frame.waitForFunction(() => document.querySelectorAll('.notice li').length > 1);
  assert.equal(await frame.locator('.notice li').count(), 8);
  await host.context().close();
  const page = await open(env.browser, `${env.server.url}/?script=${encodeURIComponent('A: acquire, write')}&pause=3000&lang=en`);
  assert.match(await page.textContent('.app'), /pause: not applied to a script; set it in the script’s text/);
  await done(page);
});

test('the embed protocol answers a script past the limit as the editor does: by how much, and the run on screen stays', async () => {
  const host = await embedHost(env, 'embed=1&lang=en&pause=15000');
  const states = () => host.evaluate(() => window.messages.filter((m) => m.type === 'fencing-lab:state'));
  const before = (await states()).at(-1);
  assert.equal(before.outcome, 'fenced');
  const long = `# ${'x'.repeat(4100)}\nA: acquire, write`;
  await host.evaluate((m) => window.send(m), { type: 'fencing-lab:set', script: long });
  await host.waitForFunction(() => window.messages.some((m) => m.type === 'fencing-lab:error'));
  const errors = await host.evaluate(() => window.messages.filter((m) => m.type === 'fencing-lab:error'));
  assert.deepEqual(errors.map((m) => m.problems), [[
    `script: the script has ${long.length} characters; at most 4000 are allowed (${long.length - 4000} too many)`,
  ]]);
  // Nothing was applied: no state of another run was told, and the frame still draws the one before.
  const frame = host.frames().find((f) => f !== host.mainFrame());
  assert.equal(await frame.getAttribute('figure.lab', 'data-outcome'), 'fenced');
  assert.equal(await frame.getAttribute('figure.lab', 'data-scenario'), 'gc-pause');
  assert.ok((await states()).every((s) => s.scenario === 'gc-pause' && s.outcome === 'fenced'));
  // A script within the limit is then taken as usual.
  await host.evaluate((m) => window.send(m), { type: 'fencing-lab:set', script: 'A: acquire, write' });
  await host.waitForFunction(() => window.messages.filter((m) => m.type === 'fencing-lab:state').at(-1).scenario === 'script');
  await host.context().close();
});

test("the browser's own Undo (its Edit menu, a context menu) walks the page's one history, not the browser's", async () => {
  const { page, first } = await editing();
  await toEnd(page);
  await page.keyboard.type('# a');
  await rested(page);
  const typed = await value(page);
  // The page rewrites the text (a switch), then the reader types again.
  await page.click('label:has(#fencing)');
  await page.waitForFunction((s) => /^fencing off$/m.test(document.querySelector(s).value), area);
  await rested(page);
  const flipped = await value(page);
  await toEnd(page);
  await page.keyboard.type('# b');
  await rested(page);
  // What Edit ▸ Undo does: the browser's own undo command (Chromium announces it only afterwards, as an
  // input of `historyUndo`). Left to itself it would take back the last key alone; the page's history
  // takes back the run of typing as one step.
  await page.evaluate(() => document.execCommand('undo'));
  await rested(page);
  assert.equal(await value(page), flipped);
  // The keys go on through the same history, past the switch.
  await press(page, 'Control+z');
  assert.equal(await value(page), typed, 'the switch undone, the typing before it kept');
  assert.equal(await page.isChecked('#fencing'), true, 'the switch shows the text');
  await press(page, 'Control+z', 'Control+Shift+z', 'Control+Shift+z');
  assert.equal(await value(page), flipped);
  await done(page);
});

test('while the script does not read, a switch or the handle leaves the text alone; once it reads, they edit it', async () => {
  const { page } = await editing();
  await toEnd(page);
  await page.keyboard.type('C: wirte');
  await rested(page);
  await page.waitForSelector('.script-problem');
  const outcome = await page.getAttribute('figure.lab', 'data-outcome');
  const broken = await value(page);
  // The text is the reader's to fix: a switch or a key on the handle does not rewrite it under them (it
  // would rewrite a line the run on screen does not show, and a switch could not be flipped back).
  await page.click('label:has(#fencing)');
  await page.focus('#pause-handle');
  await press(page, 'ArrowRight');
  assert.equal(await value(page), broken);
  assert.equal(await page.isChecked('#fencing'), true, 'the switch shows the run on screen');
  assert.equal(await page.getAttribute('figure.lab', 'data-outcome'), outcome);
  // Undone to the text that reads, with fencing on: the switch edits it again.
  await page.focus(area);
  await press(page, 'Control+z');
  await page.waitForFunction((s) => /^fencing on$/m.test(document.querySelector(s).value) && !/wirte/.test(document.querySelector(s).value), area);
  await page.click('label:has(#fencing)');
  await page.waitForFunction(() => document.querySelector('#fencing')?.checked === false);
  await page.waitForFunction((s) => /^fencing off$/m.test(document.querySelector(s).value), area);
  await done(page);
});

test('a named switch opened from the catalogue is a control: flipping it rewrites its line and the run', async () => {
  const page = await open(env.browser, `${env.server.url}/?scenario=setnx-expire&lang=en`, { viewport: { width: 1280, height: 1000 } });
  await page.click('[data-edit-script]');
  await page.waitForSelector(area);
  await rested(page);
  const first = await value(page);
  assert.match(first, /^switch atomic off$/m);
  assert.match(first, /^A: \{atomic\? acquire \| acquire without expiry\}, crash$/m);
  assert.equal(await page.getAttribute('figure.lab', 'data-outcome'), 'orphaned');
  assert.equal(await page.isChecked('#switch-atomic'), false);
  // A keyboard user reaches it and flips it with Space, as any switch.
  await page.focus('#switch-atomic');
  await page.keyboard.press('Space');
  await waitValue(page, first.replace('switch atomic off', 'switch atomic on'));
  await page.waitForFunction(() => document.querySelector('figure.lab')?.dataset.outcome === 'safe');
  assert.equal(await page.isChecked('#switch-atomic'), true, 'the switch shows the text');
  await done(page);
});

test('"Start from" opens a catalogue scenario as its script file is written, comments and all', async () => {
  const { readFileSync } = await import('node:fs');
  const { page } = await editing();
  await page.selectOption('select[data-editor=from]', 'redlock');
  const file = readFileSync(new URL('../../src/scenarios/catalogue/redlock.lock', import.meta.url), 'utf8');
  await waitValue(page, file);
  assert.match(file, /^# Redlock/);
  await page.waitForFunction(() => document.querySelector('figure.lab')?.dataset.scenario === 'script'
    && document.querySelector('figure.lab')?.dataset.outcome === 'corrupted');
  await done(page);
});

test('a scenario opened as a script is told as before, and a worker added to it by the same rule', async () => {
  const page = await open(env.browser, `${env.server.url}/?scenario=etcd&lang=en`, { viewport: { width: 1280, height: 1000 } });
  await page.click('[data-edit-script]');
  await page.waitForSelector(area);
  await rested(page);
  const told = () => page.textContent('#narration');
  await page.waitForFunction(() => /A had sent no keepalive/.test(document.querySelector('#narration')?.textContent ?? ''));
  // A third worker: no longer etcd's scenario, and told by the same rule, with its own facts.
  await toEnd(page);
  await page.keyboard.type('C: idle 2s, acquire, write\n');
  await rested(page);
  await page.waitForFunction(() => /At 2 s C asked for the lock/.test(document.querySelector('#narration')?.textContent ?? ''));
  assert.match(await told(), /A had sent no keepalive/);
  await done(page);
});

test('opened from its button the editor takes the focus, and closing it gives the focus back to that button', async () => {
  const page = await open(env.browser, `${env.server.url}/?lang=en`, { viewport: { width: 1280, height: 1000 } });
  await page.focus('[data-edit-script]');
  await page.keyboard.press('Enter');
  await page.waitForFunction((s) => document.activeElement === document.querySelector(s), area);
  await rested(page);
  // The controls drawn again for the script keep it where it went.
  assert.equal(await page.evaluate(() => document.activeElement.id), 'script-text');
  await page.focus('.editor [data-editor=close]');
  await page.keyboard.press('Enter');
  await page.waitForSelector('.editor', { state: 'hidden' });
  assert.equal(await page.evaluate(() => document.activeElement.id), 'edit-script');
  await rested(page);
  assert.equal(await page.evaluate(() => document.activeElement.id), 'edit-script');
  await done(page);
  // A link that opens the editor leaves the focus where the page starts it.
  const linked = await open(env.browser, `${env.server.url}/?script=${encodeURIComponent('A: acquire, write, release')}&lang=en`);
  await linked.waitForSelector(area);
  await rested(linked);
  assert.notEqual(await linked.evaluate(() => document.activeElement.id), 'script-text');
  await done(linked);
});

test('the editor keeps its size whatever is typed, and its line numbers scroll with the text', async () => {
  const { page, first } = await editing();
  const box = () => page.evaluate(() => {
    const [box, gutter, text] = ['.editor-box', '.editor .gutter', '.editor textarea'].map((s) => document.querySelector(s));
    return { height: box.getBoundingClientRect().height, gutter: gutter.scrollTop, text: text.scrollTop, numbers: gutter.querySelectorAll('span').length };
  });
  const before = await box();
  await toEnd(page);
  for (let i = 1; i <= 30; i++) await page.keyboard.type(`\n# line ${i}`);
  await rested(page);
  const after = await box();
  assert.equal(after.height, before.height, 'thirty more lines, the same box');
  assert.equal(after.numbers, first.split('\n').length + 30);
  // The caret at the end is in view, and the numbers beside it are its lines'.
  assert.ok(after.text > 0, `the text scrolled (${after.text} px)`);
  assert.equal(after.gutter, after.text);
  await done(page);
});
