// End-to-end: a course (docs/courses.md). The built-in course walked to its summary with the keyboard alone
// in English and Japanese (each kind of exercise accepting a right answer and rejecting a wrong one, the
// progress resumed after a reload), and a teacher's course file opened in an embed, answered with real
// pointer drags, reporting progress to its host and set to a step by it; a course that does not read is
// reported at its line and column.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lab, open, done, outcome, pause, textMatching, settled } from './harness.mjs';

const env = lab();

/** Presses Tab until `selector` has the focus (the page's own tab order), at most 80 times. */
async function tabTo(page, selector) {
  for (let i = 0; i < 80; i++) {
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
    await page.keyboard.press('Tab');
  }
  assert.fail(`Tab never reached ${selector}`);
}

/** Tabs to `selector` and presses `key` on it. */
async function press(page, selector, key = 'Enter') {
  await tabTo(page, selector);
  await page.keyboard.press(key);
}

/** Predicts `value` with the page's own choices (arrow keys in the radio group), plays, jumps to the end. */
async function predict(page, value) {
  await page.waitForSelector('.predict', { state: 'visible' });
  await tabTo(page, 'input[name=prediction]');
  for (let i = 0; i < 8 && (await page.evaluate(() => document.activeElement.value)) !== value; i++) {
    await page.keyboard.press('ArrowDown');
  }
  await page.keyboard.press('Space');
  await press(page, '.predict button.primary');
  await press(page, '.playback [data-action=end]');
}

/** Moves to the next step and waits for its heading to have the focus. */
async function next(page, title) {
  await press(page, '.course-next');
  await page.waitForFunction((t) => document.activeElement?.id === 'course-step-title' && document.activeElement.textContent === t, title);
}

const feedback = (page, pattern) => textMatching(page, '.course-feedback', pattern);

/** Checks the answer on screen (keyboard) and waits for the verdict's words. */
async function check(page, pattern) {
  await press(page, '.course-check');
  return feedback(page, pattern);
}

test('a prediction counts only of the run as the step gives it: changed first, it is not judged', async () => {
  const page = await open(env.browser, `${env.server.url}/?course=builtin&lang=en`, { predict: true, viewport: { width: 1280, height: 900 } });
  await page.waitForSelector('#course-step-title');
  // Step 1 as given is a double grant; with atomic set switched on first, the run on screen is safe.
  await page.click('label:has(#switch-atomic)');
  await predict(page, 'safe');
  assert.equal(await outcome(page), 'safe');
  await feedback(page, /^Not counted: the run was changed before the prediction\./);
  assert.match(await page.textContent('.course-progress'), /Right first time: 0 of 10/);
  await done(page);
});

test('the built-in course, English, keyboard alone: each kind of exercise rejects a wrong answer and accepts a right one', async () => {
  const page = await open(env.browser, `${env.server.url}/?course=builtin&lang=en`, { predict: true, viewport: { width: 1280, height: 900 } });
  await page.waitForSelector('#course-step-title');
  assert.equal(await page.textContent('#course-step-title'), 'Why a lock service');
  assert.match(await page.textContent('.course-progress'), /Step 1 of 10 · Right first time: 0 of 10/);
  assert.match(await page.textContent('.course-cite'), /Source: “Why it came about” \(なぜ生まれたか\)/);
  // A prediction: the run is hidden until the reader predicts; the first prediction counts.
  assert.equal(await page.getAttribute('.verdict', 'data-kind'), 'hidden');
  await predict(page, 'double-grant');
  await feedback(page, /^Your first prediction was right\.$/);
  await next(page, 'Taking it in one step');
  await predict(page, 'safe');
  await feedback(page, /Your first prediction was not right/);
  assert.equal(await outcome(page), 'orphaned');
  // Reach: a wrong check names what the run did (its narration) and offers the hint; a switch then answers it.
  await next(page, 'The lease');
  assert.equal(await page.getAttribute('.verdict', 'data-kind'), 'orphaned', 'an exercise shows its run');
  assert.equal(await page.isVisible('.course-hint'), false);
  await check(page, /^Not yet: your run ended “Orphaned: the lock is never freed”\. .*B/);
  assert.match(await page.textContent('.course-hint'), /Hint: Lease expiry is off/);
  // A wrong try is kept like the marks: after a reload the hint is still offered, and the right answer that
  // follows counts as after a hint, not first time (the summary's third mark below).
  await page.reload();
  await page.waitForSelector('#course-step-title');
  assert.equal(await page.textContent('#course-step-title'), 'The lease');
  await textMatching(page, '.course-hint', /Hint: Lease expiry is off/);
  await page.focus('#course-step-title');
  await press(page, '#lease', 'Space');
  assert.equal(await outcome(page), 'safe');
  await check(page, /^Right\./);
  await next(page, 'The pause past the lease');
  await press(page, '[role=slider]', 'End');
  assert.equal(await outcome(page), 'corrupted');
  await check(page, /^Right\./);
  // Progress is kept: a reload opens the same step with the marks so far.
  await page.reload();
  await page.waitForSelector('#course-step-title');
  assert.equal(await page.textContent('#course-step-title'), 'The pause past the lease');
  await textMatching(page, '.course-progress', /Step 4 of 10 · Right first time: 2 of 10/);
  assert.match(await page.evaluate(() => location.search), /&course=builtin$/);
  await page.focus('#course-step-title');
  await next(page, 'Checking first does not help');
  await predict(page, 'corrupted');
  await feedback(page, /right/);
  await next(page, 'Fencing tokens');
  await press(page, '[role=slider]', 'End');
  assert.equal(await outcome(page), 'fenced');
  await check(page, /^Right\./);
  // Find: the failure with fencing switched off is not the task; the same failure with it on is.
  await next(page, 'The gap fencing leaves');
  await press(page, '#fencing', 'Space');
  await press(page, '[role=slider]', 'Home');
  for (let i = 0; i < 10; i++) await page.keyboard.press('PageUp');
  assert.equal(await pause(page), '10000');
  assert.equal(await outcome(page), 'unfenced-gap');
  await check(page, /the task keeps the switches as the step gave them/);
  await press(page, '#fencing', 'Space');
  assert.equal(await outcome(page), 'unfenced-gap');
  await check(page, /^Right\./);
  // Prove: graded by the search within its stated bounds.
  await next(page, 'What each device protects');
  await press(page, '#fencing', 'Space');
  await check(page, /the search found a run that went wrong, “Stalled.*”, at lease expiry off, fencing on, pause 10000 ms\. Searched: pause 0\.\.30000 ms step 1 ms, 30001 runs\./);
  await press(page, '#lease', 'Space');
  await check(page, /^Right\./);
  await next(page, 'Replicated services');
  await predict(page, 'corrupted');
  await feedback(page, /right/);
  await next(page, 'Consensus and fencing');
  await predict(page, 'fenced');
  await feedback(page, /right/);
  // The summary: what was right first time, what needed a hint, and a link to it.
  await next(page, 'Summary');
  assert.match(await page.textContent('.course-score'), /Right first time: 6 of 10/);
  const marks = await page.$$eval('.course-summary li', (li) => li.map((l) => l.dataset.mark).join(''));
  assert.equal(marks, 'rahrrrhhrr');
  assert.match(await page.textContent('.course-summary li:nth-child(3)'), /The lease — right after a hint/);
  const link = await page.inputValue('.course-link');
  assert.match(link, /\?course=builtin&course-done=rahrrrhhrr&lang=en$/);
  // The shared link shows that result.
  await page.goto(link);
  await page.waitForSelector('#course-step-title');
  assert.equal(await page.textContent('#course-step-title'), 'A shared result');
  assert.match(await page.textContent('.course-score'), /Right first time: 6 of 10/);
  await done(page);
});

test('the built-in course, Japanese, keyboard alone: to the summary, the core showing its answers', async () => {
  const page = await open(env.browser, `${env.server.url}/?course=builtin&lang=ja`, { predict: true, viewport: { width: 360, height: 800 } });
  await page.waitForSelector('#course-step-title');
  assert.equal(await page.textContent('#course-step-title'), 'なぜロックサービスか');
  assert.match(await page.textContent('.course-cite'), /出典：「なぜ生まれたか」/);
  const course = [
    ['なぜロックサービスか', 'predict', 'double-grant'],
    ['一息で取る', 'predict', 'orphaned'],
    ['リース（期限）', 'answer', 'safe'],
    ['期限を越える停止', 'answer', 'corrupted'],
    ['先に確かめても防げない', 'predict', 'corrupted'],
    ['フェンシングトークン', 'answer', 'fenced'],
    ['フェンシングの隙間', 'answer', 'unfenced-gap'],
    ['それぞれが守るもの', 'answer', null],
    ['レプリケーション', 'predict', 'corrupted'],
    ['合意とフェンシング', 'predict', 'fenced'],
  ];
  for (const [i, [title, how, kind]] of course.entries()) {
    if (i > 0) await next(page, title);
    await textMatching(page, '.course-progress', new RegExp(`ステップ ${i + 1} / 10`));
    if (how === 'predict') {
      await predict(page, kind);
      await feedback(page, /^最初の予想は正解でした。$/);
    } else {
      await press(page, '.course-answer');
      await feedback(page, /^正しい答え：/);
      await press(page, '.course-show');
      await settled(page);
      if (kind) assert.equal(await outcome(page), kind, title);
      else await check(page, /^正解です。/);
    }
  }
  await next(page, 'まとめ');
  assert.match(await page.textContent('.course-score'), /一度で正解：10 問中 5 問/);
  assert.match(await page.textContent('.course-summary'), /3\. リース（期限） — 答えを見た/);
  await done(page);
});

test("a teacher's course file in an embed: pointer drags answer it, the host hears the progress and sets the step", async () => {
  const context = await env.browser.newContext({ viewport: { width: 800, height: 1200 } });
  await context.addInitScript(() => sessionStorage.setItem('fencing-lab:skip-prediction', '1'));
  const host = await context.newPage();
  const errors = [];
  host.on('pageerror', (e) => errors.push(e.message));
  await host.goto(`${env.server.url}/test/host.html?embed=1&lang=en&course=/test/two-steps.course`);
  const heard = (pattern) => host.waitForFunction((p) => window.messages.some((m) => m.type === 'fencing-lab:progress' && new RegExp(p).test(JSON.stringify(m))), pattern.source);
  await heard(/"course":"two-steps","step":1,"steps":2,"correct":null,"score":0/);
  const frame = host.frames().find((f) => f !== host.mainFrame());
  await frame.waitForSelector('#course-step-title');
  assert.equal(await frame.textContent('#course-step-title'), 'Reject the late write');
  // The embed is 360 px wide: the course fits it.
  assert.ok(await frame.evaluate(() => document.documentElement.scrollWidth <= 360));
  /** Drags the pause band's handle to `to` (a fraction of the axis) with the mouse. */
  const drag = async (to) => {
    const box = await frame.locator('[role=slider] .grip').first().boundingBox();
    const axis = await frame.$eval('line.grid[data-t="0"]', (l) => l.getBoundingClientRect().x);
    const end = await frame.$eval('line.grid[data-t="30000"]', (l) => l.getBoundingClientRect().x);
    await host.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await host.mouse.down();
    await host.mouse.move(axis + (end - axis) * to, box.y + box.height / 2, { steps: 12 });
    await host.mouse.up();
  };
  // A wrong answer, then the right one.
  await frame.click('.course-check');
  await textMatching(frame, '.course-feedback', /^Not yet: your run ended “Safe/);
  await heard(/"step":1,"steps":2,"correct":false,"score":0/);
  await drag(0.6);
  assert.equal(await frame.getAttribute('figure.lab', 'data-outcome'), 'fenced');
  await frame.click('.course-check');
  await textMatching(frame, '.course-feedback', /^Right\./);
  await heard(/"step":1,"steps":2,"correct":true,"score":0,"marks":"h-"/);
  // The host sets the step.
  await host.evaluate(() => window.send({ type: 'fencing-lab:course', step: 2 }));
  await frame.waitForFunction(() => document.querySelector('#course-step-title')?.textContent === 'The gap');
  await heard(/"step":2,"steps":2,"correct":null/);
  await host.evaluate(() => window.send({ type: 'fencing-lab:course', step: 9 }));
  await host.waitForFunction(() => window.messages.some((m) => m.type === 'fencing-lab:error' && /step: expected a whole number from 1 to 3/.test(m.problems[0])));
  await drag(10.5 / 30);
  assert.equal(await frame.getAttribute('figure.lab', 'data-outcome'), 'unfenced-gap');
  await frame.click('.course-check');
  await heard(/"step":2,"steps":2,"correct":true,"score":1,"marks":"hr"/);
  // Left, the course hears no more: a message for it reaches nothing (it once trapped in the page).
  await frame.click('.course-leave');
  await frame.waitForSelector('#course-step-title', { state: 'detached' });
  await host.evaluate(() => window.send({ type: 'fencing-lab:course', step: 1 }));
  await host.evaluate(() => window.send({ type: 'fencing-lab:set', scenario: 'crash' }));
  await host.waitForFunction(() => window.messages.some((m) => m.type === 'fencing-lab:state' && m.scenario === 'crash'));
  assert.equal(await frame.locator('#course-step-title').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a course from the link itself; one that does not read is told at its line and column, and the lab works on', async () => {
  const text = 'course inline\nstep\ntitle Crash\ntask Switch the lease on.\ngoal reach safe\nscenario crash lease=off\n';
  const page = await open(env.browser, `${env.server.url}/?lang=en&course=${encodeURIComponent(text)}`);
  await page.waitForSelector('#course-step-title');
  assert.equal(await page.textContent('#course-step-title'), 'Crash');
  assert.equal(await outcome(page), 'orphaned');
  await page.click('label[for=lease]');
  await page.click('.course-check');
  await textMatching(page, '.course-feedback', /^Right\./);
  // What the reader shares keeps the course (docs/courses.md), and the state on screen.
  await page.click('.share summary');
  const kept = `&course=${encodeURIComponent(text)}`;
  await page.waitForFunction(() => document.querySelector('#share-link')?.value === location.href);
  assert.ok((await page.inputValue('#share-link')).endsWith(kept));
  assert.ok((await page.inputValue('#share-embed')).includes(`embed=1${kept}"`), 'the snippet keeps the course too');
  await done(page);
  const bad = 'step\ntask t\ngoal rech fenced\nscenario gc-pause\n';
  const broken = await open(env.browser, `${env.server.url}/?lang=ja&course=${encodeURIComponent(bad)}`);
  await textMatching(broken, '.course-error', /^コースを読めません：3行目 6文字目：目標（predict、reach、find、prove）が来るはずの所に「rech」があります（「reach」のことですか？）$/);
  assert.equal(await outcome(broken), 'safe');
  await done(broken);
});

test('the course taken from the page goes on past its first step: it outlives the panel that opened it', async () => {
  const page = await open(env.browser, `${env.server.url}/?lang=en`, { viewport: { width: 1280, height: 900 } });
  // The first step asks a prediction, which hides the verdict and the panels with "Take the course" in
  // them: the course opened from there must live on.
  await page.click('.course-entry button');
  await page.waitForFunction(() => document.activeElement?.id === 'course-step-title');
  assert.match(await page.textContent('.course-progress'), /Step 1 of 10/);
  await page.waitForSelector('.course-entry', { state: 'detached' });
  await page.click('.course-next');
  await page.waitForFunction(() => /Step 2 of 10/.test(document.querySelector('.course-progress')?.textContent));
  await page.click('.course-next');
  await page.waitForFunction(() => /Step 3 of 10/.test(document.querySelector('.course-progress')?.textContent));
  assert.equal(await page.textContent('#course-step-title'), 'The lease');
  await done(page);
});
