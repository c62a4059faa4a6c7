// A scenario the reader writes (src/app/scripting.rs, src/app/editor.rs): typed beside the figure, read by the
// page's second module, shared by link and embed, predicted, played, dragged, challenged and searched.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lab, open, done, outcome, textMatching, pick, embedHost } from './harness.mjs';

const env = lab();

// Three workers, none of them in the catalogue: A pauses for a named value, B asks after another.
const THREE = [
  'value pause 25s, range 0s..25s',
  'value b_asks 1s, range 0s..5s',
  'lease 10s',
  'fencing off',
  'A: acquire, pause {pause}, write, release',
  'B: idle {b_asks}, acquire, work 2s, write, release',
  'C: idle 2s, acquire, write, release',
].join('\n');
const link = (text, rest = '') => `?script=${encodeURIComponent(text)}${rest}`;
const scripted = (page) => page.waitForSelector('figure.lab[data-scenario=script]:not(.reading-script)');
const laneNames = (page) => page.$$eval('.timeline .lane-labels text', (ts) => ts.map((t) => t.textContent));

test('a teacher types a three-worker scenario: figure, verdict, narration and link follow; a half-typed line is marked and the last good run stays', async () => {
  const page = await open(env.browser, `${env.server.url}/?lang=en`, { viewport: { width: 1280, height: 1000 } });
  await page.click('[data-edit-script]');
  await page.waitForSelector('.editor textarea');
  // The editor opens on the scenario on screen, as a script, and its heading names it.
  assert.match(await page.inputValue('.editor textarea'), /^A: acquire, work \{pause_start\}, pause \{pause\}/m);
  await page.fill('.editor textarea', THREE);
  await scripted(page);
  await page.waitForFunction(() => document.querySelector('.lane-labels')?.textContent.includes('C'));
  assert.deepEqual((await laneNames(page)).filter((n) => /^(Worker )?[ABC]$/.test(n)).length, 3);
  // Fencing off and a 25 s pause: A's late write lands after B's and C's and overwrites them.
  assert.equal(await outcome(page), 'corrupted');
  // (Until then it tells the catalogue state the editor opened on, whose words name A's "GC pause".)
  const told = await textMatching(page, '#narration', /C took the lock/);
  assert.match(told, /25 s/);
  // The link carries the script, readable and short.
  await page.waitForFunction(() => new URL(location).searchParams.get('script')?.includes('C: idle'));
  const url = new URL(page.url());
  assert.equal(url.searchParams.get('script'), THREE);
  assert.ok(url.search.length < 2000 && url.search.includes('A:+acquire'), url.search);
  // A half-typed line: marked at its line, said in the alert, and the figure keeps the last good run.
  await page.fill('.editor textarea', `${THREE}\nD: acq`);
  const problem = await textMatching(page, '.script-problem', /line 8/);
  assert.match(problem, /acquire/);
  assert.equal(await page.getAttribute('.script-problem', 'role'), 'alert');
  assert.equal(await page.textContent('.editor .gutter .bad'), '8');
  assert.equal(await page.getAttribute('.editor textarea', 'aria-invalid'), 'true');
  assert.equal(await outcome(page), 'corrupted');
  assert.equal(await page.inputValue('.editor textarea'), `${THREE}\nD: acq`, 'the text stays as typed');
  // Finished, it reads: four workers.
  await page.fill('.editor textarea', `${THREE}\nD: idle 3s, acquire, write, release`);
  await page.waitForFunction(() => document.querySelector('.lane-labels')?.textContent.includes('D'));
  await page.waitForSelector('.editor textarea[aria-invalid=false]');
  await textMatching(page, '.script-problem', /4 workers, 2 named values/);
  // In Japanese, the core's message in Japanese.
  await page.click('[data-lang=ja]');
  await page.fill('.editor textarea', `${THREE}\nD: acq`);
  await textMatching(page, '.script-problem', /8行/);
  await done(page);
});

test('a linked script is predicted, played, dragged and challenged; Break it searches its named values and shows what it found; Back restores it', async () => {
  const page = await open(env.browser, `${env.server.url}/${link(THREE, '&lang=en')}`, { predict: true, viewport: { width: 1280, height: 1000 } });
  await scripted(page);
  // The editor opens with the link's text; the choices are the verdicts, the question names the value.
  assert.equal(await page.inputValue('.editor textarea'), THREE);
  assert.equal(await page.locator('input[name=prediction]').count(), 7);
  assert.match(await page.textContent('#prompt'), /pause/);
  await page.check('input[name=prediction][value=corrupted]');
  await page.click('[data-act=play]');
  await textMatching(page, '.judged', /^You predicted it/, 20000);
  // The band rewrites the script's value.
  await page.focus('[role=slider]');
  await page.keyboard.press('Home');
  await page.waitForFunction(() => document.querySelector('.editor textarea').value.startsWith('value pause 0s'));
  assert.equal(await outcome(page), 'safe');
  // And a slider, the other value.
  await page.focus('#value-1');
  await page.keyboard.press('End');
  await page.waitForFunction(() => document.querySelector('.editor textarea').value.includes('value b_asks 5s'));
  assert.deepEqual(await page.$eval('#value-1', (e) => [e.getAttribute('aria-valuetext'), e.nextElementSibling.textContent]), ['5 s', '5 s']);
  // "Where does it change?" over the dragged value, by its name.
  await textMatching(page, '.challenge', /shortest pause at which/);
  // Break it: every named value over its range, the bounds said; Show it loads the failure into the text.
  await page.waitForSelector('.break-it [data-search]');
  assert.match(await page.textContent('.break-it'), /this script/);
  await page.click('.break-it [data-search]');
  const report = await textMatching(page, '.search-result', /^Ran [\d,]+ schedules in \d+ ms: pause 0–25 s × b_asks 0–5 s, every [\d.]+ s\./, 30000);
  assert.match(report, /b_asks/);
  await page.click('[data-show=safety]');
  await page.waitForFunction(() => !/value pause 0s/.test(document.querySelector('.editor textarea').value));
  assert.ok(['corrupted', 'unfenced-gap', 'double-grant'].includes(await outcome(page)));
  // Another scenario, then Back: the script again, as it was.
  const before = await page.inputValue('.editor textarea');
  await pick(page, 'crash');
  await page.waitForSelector('figure.lab[data-scenario=crash]');
  await page.waitForURL(/scenario=crash/);
  await page.goBack();
  await scripted(page);
  await page.waitForFunction((t) => document.querySelector('.editor textarea')?.value === t, before);
  await done(page);
});

test('an embedding page sets a script; a bad one is answered with what is wrong and changes nothing', async () => {
  const host = await embedHost(env, 'embed=1&lang=en');
  await host.evaluate((text) => window.send({ type: 'fencing-lab:set', script: text }), THREE);
  await host.waitForFunction(() => window.messages.some((m) => m.type === 'fencing-lab:state' && m.scenario === 'script'));
  const state = await host.evaluate(() => window.messages.filter((m) => m.type === 'fencing-lab:state').at(-1));
  assert.equal(state.script, THREE);
  assert.equal(state.outcome, 'corrupted');
  assert.deepEqual(state.values, { pause: 25000, b_asks: 1000 });
  const frame = host.frames().find((f) => f !== host.mainFrame());
  await frame.waitForSelector('figure.lab[data-scenario=script]');
  assert.equal(await frame.locator('.editor textarea').count(), 0, 'no editor in an embed');
  const states = await host.evaluate(() => window.messages.length);
  await host.evaluate(() => window.send({ type: 'fencing-lab:set', script: 'A: acquire, fly' }));
  await host.waitForFunction(() => window.messages.some((m) => m.type === 'fencing-lab:error'));
  const error = await host.evaluate(() => window.messages.find((m) => m.type === 'fencing-lab:error'));
  assert.match(error.problems[0], /^script: line 1/);
  assert.equal(await frame.getAttribute('figure.lab', 'data-outcome'), 'corrupted');
  const after = await host.evaluate((n) => window.messages.slice(n).filter((m) => m.type === 'fencing-lab:state'), states);
  assert.ok(after.every((m) => m.script === THREE), 'nothing changed');
  await host.context().close();
});

test('in Japanese at 360 px the editor fits the phone, says what is wrong in Japanese, and its controls work', async () => {
  const page = await open(env.browser, `${env.server.url}/${link(THREE, '&lang=ja')}`, { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
  await scripted(page);
  await page.waitForSelector('.editor textarea');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(overflow <= 360, `page width ${overflow}`);
  const box = await page.locator('.editor textarea').boundingBox();
  assert.ok(box.x >= 0 && box.x + box.width <= 360, JSON.stringify(box));
  assert.match(await page.textContent('.editor h2'), /スクリプト/);
  assert.match(await page.textContent('.setup'), /スクリプト/);
  await page.fill('.editor textarea', 'A: acquire, wirte');
  await textMatching(page, '.script-problem', /1行.*write/);
  await page.fill('.editor textarea', THREE);
  await textMatching(page, '.script-problem', /3/);
  await page.tap('.editor [data-editor=close]');
  await page.waitForSelector('.editor-slot .editor', { state: 'hidden' });
  assert.equal(await page.isVisible('[data-edit-script]'), true);
  await page.screenshot({ path: 'tests/e2e/artifacts/script-ja-360.png', fullPage: true });
  await done(page);
});

test('a broken or overlong script in a link says what is wrong, keeps the text, and never leaves the page blank', async () => {
  const page = await open(env.browser, `${env.server.url}/${link('A: acquire, wirte', '&lang=en')}`, { viewport: { width: 1280, height: 900 } });
  await page.waitForSelector('.editor textarea');
  assert.equal(await page.inputValue('.editor textarea'), 'A: acquire, wirte');
  await textMatching(page, '.script-problem', /line 1.*did you mean "write"/);
  // Nothing to draw: no empty frame above the editor, which is on the first screen.
  assert.equal(await page.isVisible('.timeline'), false);
  assert.ok((await page.locator('.editor textarea').boundingBox()).y < 900);
  // Closed, the editor's message is said above the figure instead.
  await page.click('.editor [data-editor=close]');
  await textMatching(page, '.script-status', /line 1/);
  assert.equal(await page.isVisible('[data-edit-script]'), true, 'the editor can be opened again');
  await done(page);
  const long = `# ${'x'.repeat(4100)}\nA: acquire`;
  const again = await open(env.browser, `${env.server.url}/${link(long, '&lang=en')}`, { viewport: { width: 1280, height: 900 } });
  await again.waitForSelector('.editor textarea');
  await textMatching(again, '.script-problem', /4113 characters; at most 4000/);
  assert.equal((await again.inputValue('.editor textarea')).length, long.length);
  // The catalogue is one pick away.
  await pick(again, 'gc-pause');
  await again.waitForSelector('figure.lab[data-scenario=gc-pause]');
  await done(again);
});

test("a script's verdict is taught in words its run bears out, and a catalogue run's in its own, in both languages", async () => {
  // A's late write lands in B's lease, and B never writes: no "new holder's first write" to land before.
  const gap = 'lease 10s\nfencing off\nA: acquire, pause 12s, write\nB: idle 11s, acquire';
  const cases = [
    [link(gap, '&lang=en'), 'A stale write landed while another worker held the lock, and the storage accepted it.'],
    [link(gap, '&lang=ja'), '別のワーカーがロックを持っている間に古い書き込みが届き、資源はそれを受け付けました。'],
    ['?lang=en&pause=15000&fencing=off', 'A worker that had lost the lock overwrote newer work.'],
    ['?lang=ja&pause=15000&fencing=off', 'ロックを失っていたワーカーが、新しい持ち主の仕事を上書きしました。'],
  ];
  for (const [query, lesson] of cases) {
    const page = await open(env.browser, `${env.server.url}/${query}`, { viewport: { width: 1280, height: 900 } });
    await textMatching(page, '.verdict .told .lesson', new RegExp(`^${lesson.replace(/[.()]/g, '\\$&')}$`), 10000);
    assert.equal(await page.isVisible('.verdict .lesson'), true);
    await done(page);
  }
});
