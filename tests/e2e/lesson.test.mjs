// End-to-end: the teaching layer (predict first, "where does it change?"), both languages, embedding,
// the share link, and the Content-Security-Policy.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lab, open, done, outcome, pause, textMatching, pick } from './harness.mjs';

const env = lab();

test("the first prediction is the source's own question: A wakes after 15 s", async () => {
  const page = await open(env.browser, `${env.server.url}/?lang=en`, { predict: true });
  assert.equal(await pause(page), '15000');
  assert.match(await page.textContent('.seed-question'), /wakes after 15 seconds/);
  // The set-up the source states, and B's timing, which decides the gap against the rejection.
  const setup = await page.textContent('.setup');
  assert.match(setup, /only while they hold the lock/);
  assert.match(setup, /token 33/);
  assert.match(setup, /B asks at 1 s, takes the lock with token 34 as soon as it is free, and writes 1 s after that/);
  assert.match(await page.textContent('.prompt'), /A wakes after 15 s, with lease expiry on and fencing on\. What happens\?/);
  // Skipped (or once told), a fresh link shows the source's default state, 4 s, with its caption.
  await page.click('.predict button.link');
  await page.goto(`${env.server.url}/?lang=en`);
  await page.waitForSelector('.badge', { state: 'visible' });
  assert.equal(await pause(page), '4000');
  // The source's question is about 15 s: it gives way at any other pause.
  await page.waitForSelector('.seed-question', { state: 'hidden' });
  // (The narration comes with the second module.)
  await textMatching(page, '#narration', /At 4 s the storage accepted A's write with token 33\. At 4 s A released the lock\./);
  await done(page);
});

test('predict first: the verdict waits for the play, then says whether the guess was right', async () => {
  for (const [guess, right] of [['fenced', true], ['safe', false]]) {
    const page = await open(env.browser, `${env.server.url}/?pause=15000&lang=en`, { predict: true });
    // The machine interface is current; the visible verdict and the run are hidden.
    assert.equal(await outcome(page), 'fenced');
    assert.equal(await page.getAttribute('.verdict', 'data-kind'), 'hidden');
    assert.equal(await page.isVisible('.badge'), false);
    assert.equal(await page.textContent('#narration'), '');
    assert.equal(await page.locator('.write').count(), 0, 'no write drawn before the play');
    assert.equal(await page.isDisabled('.predict button.primary'), true);
    assert.equal(await page.locator('.challenge').count(), 0, 'the second challenge waits for the first');
    await page.check(`input[name=prediction][value=${guess}]`);
    await page.click('.predict button.primary');
    await page.waitForSelector('.watching', { state: 'visible' });
    // Focus moved to what replaced the button.
    await page.waitForFunction(() => document.activeElement.className === 'watching');
    await page.waitForSelector('.badge', { state: 'visible', timeout: 15000 });
    await page.waitForFunction(() => document.activeElement.id === 'verdict-title');
    assert.match(await page.textContent('.badge'), /Fenced: the stale write is rejected/);
    // The judgement is in the live region, so screen readers hear it.
    assert.equal(await page.locator('[aria-live=polite] .judged').count(), 1);
    const judged = await page.textContent('.judged');
    if (right) assert.equal(judged, 'You predicted it.');
    else assert.match(judged, /You predicted “A does no harm; B gets the lock no later than a lease would let it”\. What happened instead:/);
    assert.match(await page.textContent('#narration'), /rejected A's write with token 33 \(it had seen 34\)/);
    // Predict again hides the verdict and focuses the first answer.
    await page.click('button.again');
    assert.equal(await page.getAttribute('.verdict', 'data-kind'), 'hidden');
    await page.waitForFunction(() => document.activeElement.name === 'prediction');
    await done(page);
  }
});

test('a switch flipped while a prediction plays asks again instead of judging the new run', async () => {
  const page = await open(env.browser, `${env.server.url}/?pause=15000&lang=en`, { predict: true });
  await page.check('input[name=prediction][value=fenced]');
  await page.click('.predict button.primary');
  await page.waitForSelector('.watching', { state: 'visible' });
  await page.click('label[for=fencing]');
  assert.equal(await outcome(page), 'corrupted');
  await page.waitForSelector('.predict', { state: 'visible' });
  assert.equal(await page.getAttribute('.verdict', 'data-kind'), 'hidden');
  assert.equal(await page.textContent('.judged'), '');
  await done(page);
});

test('a run changed while the reader predicts is the one the verdict tells (the hidden verdict is drawn when told)', async () => {
  const page = await open(env.browser, `${env.server.url}/?pause=5000&lang=en`, { predict: true });
  assert.equal(await outcome(page), 'safe');
  // The pause dragged by keyboard to its end while predicting: A now wakes long after its lease.
  await page.focus('[role=slider]');
  await page.keyboard.press('End');
  assert.equal(await outcome(page), 'fenced');
  assert.equal(await page.getAttribute('.verdict', 'data-kind'), 'hidden');
  await page.check('input[name=prediction][value=safe]');
  await page.click('.predict button.primary');
  await page.waitForSelector('.badge', { state: 'visible', timeout: 20000 });
  assert.equal(await page.getAttribute('.verdict', 'data-kind'), 'fenced');
  assert.match(await page.textContent('.badge'), /Fenced: the stale write is rejected/);
  assert.match(await page.textContent('.judged'), /What happened instead/);
  await done(page);
});

test('skipping the prediction is remembered for the tab only', async () => {
  const page = await open(env.browser, `${env.server.url}/?pause=15000&lang=en`, { predict: true });
  await page.click('.predict button.link');
  assert.match(await page.textContent('.badge'), /Fenced/);
  await page.waitForFunction(() => document.activeElement.id === 'verdict-title');
  assert.equal(await page.textContent('.judged'), '');
  await page.reload();
  await page.waitForSelector('.badge', { state: 'visible' });
  const other = await open(env.browser, `${env.server.url}/?pause=15000&lang=en`, { predict: true });
  assert.equal(await other.getAttribute('.verdict', 'data-kind'), 'hidden', 'a new session predicts again');
  await done(other);
  await done(page);
});

test('where does it change: the first rejection, the first change, and the map move with the settings', async () => {
  const page = await open(env.browser, `${env.server.url}/?lang=en`);
  assert.match(await page.textContent('.challenge'), /shortest pause at which the stale write is rejected/);
  await page.focus('.ghost');
  await page.keyboard.press('Home');
  for (let i = 0; i < 110; i++) await page.keyboard.press('ArrowRight');
  assert.equal(await page.inputValue('.ghost'), '11000');
  assert.equal(await page.locator('.segment').count(), 0, 'the map stays hidden until checked');
  await page.click('.challenge button.primary');
  // 11 s is within a guess's 0.1 s step of 11.001 s: right, and said to be so.
  assert.equal(await page.textContent('.boundary-result'),
    'Right, for a guess made in steps of 0.1 s: it is from 11.001 s on. The verdict first changes earlier, at 10 s: Unfenced gap: a stale write got in.');
  assert.deepEqual(await page.$$eval('.segment', (s) => s.map((e) => e.dataset.kind)), ['safe', 'unfenced-gap', 'fenced']);
  await page.click('label[for=fencing]');
  await textMatching(page, '.challenge', /newer work is overwritten/);
  assert.deepEqual(await page.$$eval('.segment', (s) => s.map((e) => e.dataset.kind)), ['safe', 'unfenced-gap', 'corrupted']);
  await page.click('label[for=lease]');
  await textMatching(page, '.boundary-result', /^It is from 10 s on; your guess of 11 s was 1 s off\.$/);
  assert.match(await page.textContent('.challenge'), /the waiter is stalled/);
  // The marker follows a mouse drag too.
  await page.locator('.strip').scrollIntoViewIfNeeded();
  const strip = await page.locator('.strip').boundingBox();
  await page.mouse.click(strip.x + strip.width / 3, strip.y + strip.height / 2);
  assert.equal(await page.inputValue('.ghost'), '10000');
  assert.equal(await page.textContent('.boundary-result'), 'Right: from 10 s on.');
  await done(page);
});

/** Every piece of text a reader can see or hear: text nodes and the names and values of controls. */
function readable() {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const t = walker.currentNode.textContent.trim();
    const el = walker.currentNode.parentElement;
    if (t && el && !el.closest('noscript') && el.checkVisibility()) out.push(t);
  }
  for (const el of [...document.querySelectorAll('[aria-label],[aria-valuetext],[title]')].filter((e) => e.checkVisibility())) {
    for (const a of ['aria-label', 'aria-valuetext', 'title']) if (el.getAttribute(a)) out.push(el.getAttribute(a));
  }
  out.push(document.title);
  return out;
}

// Names, commands and titles that stay as they are in Japanese text.
const KEEP = [
  'Is Redlock safe?',
  'How to do distributed locking', 'Designing Data-Intensive Applications',
  'The Chubby lock service for loosely-coupled distributed systems', 'Salvatore Sanfilippo', 'M. Kleppmann',
  'M. Burrows', 'lock-delay', 'lock:job', 'SETNX', 'EXPIRE', 'UPDATE', 'WHERE', 'value', 'token', 'Redlock',
  'antirez', 'ZooKeeper', 'Chubby', 'Redis', 'etcd', 'zxid', 'OSDI', 'Google', 'English', 'SET', 'DEL', 'Lua',
  'iframe', 'API', 'AND', 'GC', 'NX', 'PX', 'id', 'Consul', 'GET', 'check-and-set', 'czxid', 'INCR', 'WAIT', 'TTL',
  'znode', 'SQL', 'Ctrl', 'edition', 'SVG', 'PNG', 'Apache BookKeeper',
  'BookKeeper', 'DDIA', 'NTP', 'cversion', 'lessor', 'Promote',
];

test('Japanese: every visible string is translated, and <html lang> follows the switch', async () => {
  const page = await open(env.browser, `${env.server.url}/?pause=15000&lang=en`);
  await page.click('.lang-switch button[lang=ja]');
  await page.waitForFunction(() => document.documentElement.lang === 'ja');
  await page.click('.share summary');
  await page.click('.challenge button.primary');
  await pick(page, 'unsafe-release');
  const texts = await page.evaluate(readable);
  assert.ok(texts.length > 80, `walked ${texts.length} strings`);
  const untranslated = texts.map((t) => {
    let rest = t;
    for (const k of KEEP) rest = rest.split(k).join(' ');
    return rest.match(/[A-Za-z]{3,}/g)?.join(' ');
  }).filter(Boolean);
  assert.deepEqual(untranslated, []);
  assert.match(await page.textContent('h1'), /フェンシング・ラボ/);
  assert.match(await page.textContent('#narration'), /すでに 35 を見ていたので、B の番号 34 の書き込みを拒否しました/);
  // And back: no Japanese left in the English page but the language button's own name.
  await page.click('.lang-switch button[lang=en]');
  await page.waitForFunction(() => document.documentElement.lang === 'en');
  const english = (await page.evaluate(readable)).filter((t) => t !== '日本語' && /[\u3040-\u30ff\u4e00-\u9fff]/.test(t));
  assert.deepEqual(english, []);
  await page.waitForURL(/lang=en/);
  await done(page);
});

test('the language comes from ?lang, else the browser, else English', async () => {
  const ja = await open(env.browser, `${env.server.url}/`, { locale: 'ja-JP' });
  assert.equal(await ja.getAttribute('html', 'lang'), 'ja');
  await done(ja);
  const fr = await open(env.browser, `${env.server.url}/`, { locale: 'fr-FR' });
  assert.equal(await fr.getAttribute('html', 'lang'), 'en');
  await done(fr);
  const forced = await open(env.browser, `${env.server.url}/?lang=en`, { locale: 'ja-JP' });
  assert.equal(await forced.getAttribute('html', 'lang'), 'en');
  await done(forced);
});

test('embedded in an iframe: sizes itself, reports its state, obeys set messages', async () => {
  const context = await env.browser.newContext({ viewport: { width: 800, height: 900 } });
  const host = await context.newPage();
  const errors = [];
  host.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await host.goto(`${env.server.url}/test/host.html?embed=1&pause=15000&lang=en`);
  const messages = (type) => host.evaluate((t) => window.messages.filter((m) => m.type === t), type);
  await host.waitForFunction(() => window.messages.some((m) => m.type === 'fencing-lab:resize'));
  await host.waitForFunction(() => window.messages.some((m) => m.type === 'fencing-lab:state'));
  const state = (await messages('fencing-lab:state')).at(-1);
  assert.deepEqual(state, {
    type: 'fencing-lab:state', scenario: 'gc-pause', outcome: 'fenced', doubleGrant: false,
    pause: 15000, lease: 'on', fencing: 'on', ttl: 10000, pause_start: 0, b_request: 1000, b_work: 1000, first_token: 33,
  });
  const frame = host.frames().find((f) => f !== host.mainFrame());
  // Only the widget: no page chrome, no challenge, no reading; nothing wider than 360 px.
  assert.equal(await frame.locator('.masthead').isVisible(), false);
  assert.equal(await frame.locator('.challenge, .share').count(), 0);
  assert.equal(await frame.locator('.reading:visible').count(), 0, 'the reading is in the page, not shown');
  assert.ok(await frame.evaluate(() => document.documentElement.scrollWidth <= 360));
  const height = (await messages('fencing-lab:resize')).at(-1).height;
  const frameHeight = await host.$eval('#fencing-lab', (f) => f.getBoundingClientRect().height);
  assert.equal(frameHeight, height, 'the host sized the iframe to the reported height');
  assert.ok(height > 400, `content height ${height}`);

  await host.evaluate(() => window.send({ type: 'fencing-lab:set', pause: 15000, fencing: false }));
  await host.waitForFunction(() => window.messages.filter((m) => m.type === 'fencing-lab:state').at(-1)?.outcome === 'corrupted');
  assert.equal(await frame.getAttribute('figure.lab', 'data-outcome'), 'corrupted');
  await host.evaluate(() => window.send({ type: 'fencing-lab:set', pause: '4000', lease: 'on', fencing: 'on', lang: 'ja' }));
  await host.waitForFunction(() => window.messages.filter((m) => m.type === 'fencing-lab:state').at(-1)?.outcome === 'safe');
  assert.equal(await frame.getAttribute('html', 'lang'), 'ja');
  // Validated like URL parameters: a bad field is ignored, reported back, and shown.
  await host.evaluate(() => window.send({ type: 'fencing-lab:set', pause: 'soon', lang: 'en' }));
  await host.waitForFunction(() => window.messages.some((m) => m.type === 'fencing-lab:error'));
  // The value is isolated (U+2068 … U+2069), so a right-to-left override in it cannot reverse the sentence.
  assert.deepEqual((await messages('fencing-lab:error')).at(-1).problems, ['pause: “\u2068soon\u2069” is not a whole number']);
  assert.equal(await frame.getAttribute('[role=slider]', 'aria-valuenow'), '4000');
  const notice = await frame.textContent('[role=alert]');
  assert.match(notice, /current value was kept/);
  assert.match(notice, /pause: “soon” is not a whole number/);
  // A reply is the whole sentence, the allowed values included, not cut at 40 characters.
  const errorsBefore = (await messages('fencing-lab:error')).length;
  await host.evaluate(() => window.send({ type: 'fencing-lab:set', lease: 'maybe' }));
  await host.waitForFunction((n) => window.messages.filter((m) => m.type === 'fencing-lab:error').length > n, errorsBefore);
  assert.deepEqual((await messages('fencing-lab:error')).at(-1).problems, ['lease: “\u2068maybe\u2069” is not one of off, on']);
  // Words read as in a link, in any case: "OFF", "true" and a boolean alike.
  await host.evaluate(() => window.send({ type: 'fencing-lab:set', pause: 15000, fencing: 'OFF' }));
  await host.waitForFunction(() => window.messages.filter((m) => m.type === 'fencing-lab:state').at(-1)?.outcome === 'corrupted');
  await host.evaluate(() => window.send({ type: 'fencing-lab:set', fencing: 'true', pause: 4000 }));
  await host.waitForFunction(() => window.messages.filter((m) => m.type === 'fencing-lab:state').at(-1)?.fencing === 'on');
  // Redlock has no fencing: a host asking for it is told so, as a link is, and the scenario still changes.
  const beforeRedlock = (await messages('fencing-lab:error')).length;
  await host.evaluate(() => window.send({ type: 'fencing-lab:set', scenario: 'Redlock', fencing: true }));
  await host.waitForFunction((n) => window.messages.filter((m) => m.type === 'fencing-lab:error').length > n, beforeRedlock);
  // The reply repeats the value as the host sent it (`true`), not as a link would write it.
  assert.deepEqual((await messages('fencing-lab:error')).at(-1).problems, ['fencing: “\u2068true\u2069” is not available in redlock, so it stays off']);
  await host.waitForFunction(() => window.messages.filter((m) => m.type === 'fencing-lab:state').at(-1)?.scenario === 'redlock');
  assert.match(await frame.textContent('[role=alert]'), /fencing: “true” is not available in redlock/);
  // The scenario travels too.
  await host.evaluate(() => window.send({ type: 'fencing-lab:set', scenario: 'check-then-set' }));
  await host.waitForFunction(() => window.messages.filter((m) => m.type === 'fencing-lab:state').at(-1)?.scenario === 'check-then-set');
  const set = (await messages('fencing-lab:state')).at(-1);
  assert.deepEqual([set.outcome, set.doubleGrant, set.atomic, set.fencing], ['double-grant', true, 'off', 'on']);
  await host.evaluate(() => window.send({ type: 'fencing-lab:set', scenario: 'gc-pause', pause: 4000 }));
  await host.waitForFunction(() => window.messages.filter((m) => m.type === 'fencing-lab:state').at(-1)?.outcome === 'safe');
  // An input the scenario on screen does not read is named in the reply, not dropped (leader_crash is etcd's).
  const beforeUnused = (await messages('fencing-lab:error')).length;
  await host.evaluate(() => window.send({ type: 'fencing-lab:set', leader_crash: 5000 }));
  await host.waitForFunction((n) => window.messages.filter((m) => m.type === 'fencing-lab:error').length > n, beforeUnused);
  assert.deepEqual((await messages('fencing-lab:error')).at(-1).problems, ['\u2068leader_crash\u2069: not used by this scenario']);
  // Messages that are not ours are ignored.
  await host.evaluate(() => window.send('hello'));
  await host.evaluate(() => window.send({ type: 'other', pause: 1 }));
  assert.equal(await frame.getAttribute('figure.lab', 'data-outcome'), 'safe');
  assert.deepEqual(errors, []);
  await context.close();
});

test('embedded, the verdict told at once still comes with its lesson and narration, in either language', async () => {
  const lessons = { en: /^A dead holder that nothing expires keeps the lock for ever\.$/, ja: /^期限で外れないロックは/ };
  for (const [lang, said] of [['en', / s\b/], ['ja', /秒/]]) {
    const page = await open(env.browser, `${env.server.url}/?scenario=crash&lease=off&embed=1&lang=${lang}`);
    // Their words come with the second module, which an embedded page asks for as the page does.
    const told = await textMatching(page, '#narration', said, 20000);
    assert.doesNotMatch(told, /Loading|読み込んで/);
    await textMatching(page, '.verdict .lesson', lessons[lang]);
    await done(page);
  }
});

test('the share panel links to the exact state and gives an iframe snippet', async () => {
  const page = await open(env.browser, `${env.server.url}/?lang=ja`);
  await page.focus('#pause-handle');
  await page.keyboard.press('End');
  await page.click('label[for=fencing]');
  await page.click('.share summary');
  // The panel's body comes with the second module and, like the address bar, follows the state once the
  // reader's hand rests.
  const link = `${env.server.url}/?scenario=gc-pause&pause=30000&lease=on&fencing=off&lang=ja`;
  await page.waitForFunction((want) => document.querySelector('#share-link')?.value === want, link);
  const snippet = await page.inputValue('#share-embed');
  // Each copy button is named with its field: not two buttons both called "Copy".
  assert.equal(await page.getByRole('button', { name: 'コピー この状態へのリンク' }).count(), 1);
  assert.equal(await page.getByRole('button', { name: 'コピー ページへの埋め込み（iframe）' }).count(), 1);
  assert.match(snippet, /^<iframe id="fencing-lab" src="[^"]+\?scenario=gc-pause&pause=30000&lease=on&fencing=off&lang=ja&embed=1"/);
  // The sandbox the snippet sets is the one the README and the page's static fallback name, exactly.
  const sandbox = snippet.match(/sandbox="([^"]*)"/)[1];
  assert.equal(sandbox, 'allow-scripts allow-same-origin');
  const { readFile } = await import('node:fs/promises');
  const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8');
  // The page as built says it too, where the app cannot start.
  const built = (await (await fetch(`${env.server.url}/`)).text()).replaceAll('&quot;', '"');
  for (const [name, text] of [['README.md', readme], ['the page as built', built]]) {
    const named = [...text.matchAll(/sandbox="([^"]*)"/g)];
    assert.ok(named.length > 0, name);
    assert.deepEqual(named.map((m) => m[1]), named.map(() => sandbox), name);
  }
  assert.match(snippet, /fencing-lab:resize/);
  const again = await open(env.browser, link);
  assert.equal(await outcome(again), 'corrupted');
  assert.equal(await pause(again), '30000');
  assert.equal(await again.getAttribute('html', 'lang'), 'ja');
  await done(again);
  await done(page);
});

test('strict Content-Security-Policy, and no network request after load but the later panels\' module', async () => {
  const html = await (await fetch(`${env.server.url}/`)).text();
  // The built page is minified: attribute order and quotes may change.
  const meta = html.match(/<meta[^>]*http-equiv="?Content-Security-Policy[^>]*>/i)?.[0] ?? '';
  const csp = meta.match(/content="([^"]+)"/)?.[1] ?? '';
  // Scripts from the page's own origin, the one inline boot script by its hash, and compiling the wasm.
  assert.match(csp, /script-src 'self' 'sha256-[A-Za-z0-9+/=]+' 'wasm-unsafe-eval';/);
  assert.match(csp, /style-src 'self' 'sha256-[A-Za-z0-9+/=]+';/);
  assert.doesNotMatch(csp, /unsafe-inline|'unsafe-eval'/);
  // The one inline script is the boot script the policy names by its hash.
  const inline = [...html.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
  assert.equal(inline.length, 1);
  const { createHash } = await import('node:crypto');
  assert.ok(csp.includes(`'sha256-${createHash('sha256').update(inline[0]).digest('base64')}'`));

  const page = await open(env.browser, `${env.server.url}/?lang=en`, { predict: true });
  // The policy is in force: an injected inline script does not run.
  await page.evaluate(() => {
    const s = document.createElement('script');
    s.textContent = 'window.__inline = true';
    document.head.append(s);
  });
  assert.equal(await page.evaluate(() => window.__inline), undefined);
  page.errors = page.errors.filter((e) => !/Content Security Policy/.test(e));

  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.check('input[name=prediction][value=safe]');
  await page.click('.predict button.primary');
  await page.waitForSelector('.badge', { state: 'visible', timeout: 15000 });
  await page.focus('#pause-handle');
  await page.keyboard.press('End');
  await page.click('label[for=lease]');
  await page.click('.lang-switch button[lang=ja]');
  await page.click('.challenge button.primary');
  await page.click('.share summary');
  for (const id of ['check-then-set', 'unsafe-release', 'network-delay']) await pick(page, id);
  await page.waitForTimeout(300);
  // Only the later panels' module and its style sheet, once, from the page's own origin, when the verdict
  // was told.
  assert.deepEqual(requests.map((u) => u.replace(/-[0-9a-f]{16}/, '-HASH')).sort(),
    [`${env.server.url}/later-HASH.css`, `${env.server.url}/workbench-HASH.js`, `${env.server.url}/workbench-HASH_bg.wasm`]);
  await done(page);
});
