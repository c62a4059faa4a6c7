// End-to-end: what a teacher's site, a hostile message, a non-secure origin and the history throw at the page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lab, open, done, outcome, pick, embedHost } from './harness.mjs';

const env = lab();

test("every input a link sets round-trips, and the sentences use the run's own numbers", async () => {
  const page = await open(env.browser, `${env.server.url}/?ttl=60000&pause=15000&first_token=7&lang=en`);
  assert.equal(await outcome(page), 'safe');
  assert.match(await page.textContent('#narration'), /its lease until 60 s\. From 0 s to 15 s A was paused\..*B took the lock with token 8/);
  await page.waitForURL(/ttl=60000/);
  assert.match(page.url(), /first_token=7/);
  await page.reload();
  await page.waitForSelector('.app-started figure.lab[data-outcome]');
  assert.equal(await outcome(page), 'safe');
  assert.match(await page.textContent('.setup'), /a 60 s lease.*token 7/);
  await done(page);
});

test('back and forward bring their state back', async () => {
  const page = await open(env.browser, `${env.server.url}/?lang=en`);
  // The page writes its state into the address once it settles: wait for that, or it could replace the
  // entry pushed next.
  await page.waitForURL(/scenario=gc-pause/);
  await page.evaluate(() => history.pushState(null, '', '?scenario=crash&lease=off&lang=en'));
  // Each step waits for its popstate: back() and forward() return before the history has moved.
  const step = (dir) => page.evaluate((d) => new Promise((ok) => {
    addEventListener('popstate', () => ok(), { once: true });
    history[d]();
  }), dir);
  await step('back');
  await step('forward');
  await page.waitForFunction(() => document.querySelector('figure.lab').dataset.scenario === 'crash');
  assert.equal(await outcome(page), 'orphaned');
  await done(page);
});

test('picking a scenario adds a history entry: Back returns to the one before, inside the page', async () => {
  const page = await open(env.browser, `${env.server.url}/?lang=en`);
  await page.waitForURL(/scenario=gc-pause/);
  const length = await page.evaluate(() => history.length);
  await pick(page, 'crash');
  await page.waitForURL(/scenario=crash/);
  await pick(page, 'failover');
  await page.waitForURL(/scenario=failover/);
  assert.equal(await page.evaluate(() => history.length), length + 2);
  const back = () => page.evaluate(() => new Promise((ok) => {
    addEventListener('popstate', () => ok(), { once: true });
    history.back();
  }));
  await back();
  await page.waitForFunction(() => document.querySelector('figure.lab').dataset.scenario === 'crash');
  await back();
  await page.waitForFunction(() => document.querySelector('figure.lab').dataset.scenario === 'gc-pause');
  assert.match(page.url(), /^http:\/\/127\.0\.0\.1:\d+\/\?scenario=gc-pause/);
  // Dragging does not add entries: only a scenario picked does.
  await page.focus('#pause-handle');
  await page.keyboard.press('ArrowRight');
  await page.waitForURL(/pause=4100/);
  assert.equal(await page.evaluate(() => history.length), length + 2);
  await done(page);
});

test('a bad value reached by Back or Forward gets the notice a link gets', async () => {
  const page = await open(env.browser, `${env.server.url}/?scenario=crash&lang=en`);
  await page.waitForURL(/scenario=crash/);
  await page.evaluate(() => {
    history.pushState(null, '', '?scenario=gc-pause&pause=soon&lang=en');
    history.pushState(null, '', '?scenario=crash&lang=en');
  });
  const step = (dir) => page.evaluate((d) => new Promise((ok) => {
    addEventListener('popstate', () => ok(), { once: true });
    history[d]();
  }), dir);
  await step('back');
  await page.waitForFunction(() => document.querySelector('figure.lab').dataset.scenario === 'gc-pause');
  assert.equal(await page.getAttribute('[role=slider]', 'aria-valuenow'), '4000');
  assert.match(await page.textContent('[role=alert]'), /pause: “soon” is not a whole number/);
  // An entry without a problem clears the notice.
  await step('forward');
  await page.waitForFunction(() => document.querySelector('figure.lab').dataset.scenario === 'crash');
  assert.equal(await page.locator('[role=alert]').count(), 0);
  await done(page);
});

test('hostile values are cut short and isolated, and the page stays narrow', async () => {
  const long = '9'.repeat(2000);
  const page = await open(env.browser, `${env.server.url}/?pause=${long}&lease=%E2%80%AE00051&lang=en`, { viewport: { width: 360, height: 800 } });
  const notice = await page.textContent('[role=alert]');
  assert.ok(notice.length < 300, `notice of ${notice.length} characters`);
  assert.equal(await page.locator('[role=alert] bdi').count(), 2);
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth));
  await done(page);
});

test('copy without a clipboard (a non-secure origin): the text is selected and the reader told', async () => {
  const context = await env.browser.newContext();
  await context.addInitScript(() => {
    sessionStorage.setItem('fencing-lab:skip-prediction', '1');
    Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined });
  });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${env.server.url}/?lang=en`);
  await page.click('.share summary');
  await page.click('.share-row button >> nth=0');
  await page.waitForSelector('.copy-status:has-text("selected")');
  const selected = await page.$eval('#share-link', (el) => el.selectionEnd - el.selectionStart);
  assert.ok(selected > 20, `selected ${selected} characters`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('embedded: a language-only message leaves a play alone; a sibling frame cannot steer it', async () => {
  const host = await embedHost(env, 'embed=1&pause=15000&lang=en');
  const frame = host.frames().find((f) => f !== host.mainFrame());
  await frame.click('button.play');
  await host.evaluate(() => window.send({ type: 'fencing-lab:set', lang: 'ja' }));
  await frame.waitForFunction(() => document.documentElement.lang === 'ja');
  assert.equal(await frame.getAttribute('button.play', 'aria-pressed'), 'true', 'still playing');
  // A sibling frame's message is ignored.
  await host.evaluate(() => new Promise((ok) => {
    const sib = document.createElement('iframe');
    sib.srcdoc = '<script>parent.frames[0].postMessage({type:"fencing-lab:set",pause:0},"*")<\/script>';
    sib.onload = () => setTimeout(ok, 300);
    document.body.append(sib);
  }));
  assert.equal(await frame.getAttribute('[role=slider]', 'aria-valuenow'), '15000');
  // A cyclic array as a value is reported, not thrown.
  await host.evaluate(() => { const a = []; a.push(a); window.send({ type: 'fencing-lab:set', pause: a }); });
  await host.waitForFunction(() => window.messages.some((m) => m.type === 'fencing-lab:error'));
  await host.context().close();
});

test('teachers download the figure as SVG and PNG, in the current language and colours', async () => {
  const page = await open(env.browser, `${env.server.url}/?scenario=unsafe-release&lang=ja`, { colorScheme: 'dark' });
  await page.click('.share summary');
  const [svgDownload] = await Promise.all([page.waitForEvent('download'), page.click('.downloads button >> nth=0')]);
  assert.equal(svgDownload.suggestedFilename(), 'fencing-lab.svg');
  const svg = await (await import('node:fs/promises')).readFile(await svgDownload.path(), 'utf8');
  assert.match(svg, /^<svg[^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  assert.match(svg, /ワーカー C/);
  assert.match(svg, /持ち主が二人/);
  assert.doesNotMatch(svg, /class="handle"/);
  // The page's dark background comes along, and styles are inline: the file needs no style sheet.
  assert.match(svg, /<rect width="100%" height="100%" fill="rgb\((\d+), \d+, \d+\)"/);
  assert.match(svg, /style="fill: rgb/);
  const [pngDownload] = await Promise.all([page.waitForEvent('download'), page.click('.downloads button >> nth=1')]);
  assert.equal(pngDownload.suggestedFilename(), 'fencing-lab.png');
  const png = await (await import('node:fs/promises')).readFile(await pngDownload.path());
  assert.deepEqual([...png.subarray(1, 4)], [0x50, 0x4e, 0x47]);
  assert.ok(png.length > 10_000, `PNG of ${png.length} bytes`);
  await done(page);
});

test('twenty thousand bad set messages leave the wasm memory where it was', async () => {
  const context = await env.browser.newContext();
  // Keep a handle on the app's wasm instance, to read its memory size.
  await context.addInitScript(() => {
    const streaming = WebAssembly.instantiateStreaming;
    WebAssembly.instantiateStreaming = async (...args) => {
      const result = await streaming(...args);
      window.__wasm = result.instance;
      return result;
    };
  });
  const host = await context.newPage();
  await host.goto(`${env.server.url}/test/host.html?embed=1&lang=en`);
  await host.waitForFunction(() => window.messages.some((m) => m.type === 'fencing-lab:state'));
  const frame = host.frames().find((f) => f !== host.mainFrame());
  await frame.waitForFunction(() => window.__wasm);
  const size = () => frame.evaluate(() => window.__wasm.exports.memory.buffer.byteLength);
  const send = (from, n) => host.evaluate(([from, n]) => {
    for (let i = from; i < from + n; i++) window.send({ type: 'fencing-lab:set', pause: `bad${i}`, lease: i, lang: 'xx' });
  }, [from, n]);
  // Warm up, so that the allocator has reached its working size.
  await send(0, 2000);
  await host.waitForFunction(() => window.messages.filter((m) => m.type === 'fencing-lab:error').length >= 2000);
  const before = await size();
  for (let i = 0; i < 10; i++) await send(2000 + i * 2000, 2000);
  await host.waitForFunction(() => window.messages.filter((m) => m.type === 'fencing-lab:error').length >= 22000, null, { timeout: 60000 });
  const grown = (await size()) - before;
  assert.ok(grown <= 1 << 20, `wasm memory grew by ${grown} bytes`);
  const last = (await host.evaluate(() => window.messages.filter((m) => m.type === 'fencing-lab:error'))).at(-1);
  assert.equal(last.problems.length, 3);
  await context.close();
});

test('a bad pause in a link opens where a link without one does: the first prediction\'s 15 s, and the notice says so', async () => {
  const page = await open(env.browser, `${env.server.url}/?pause=soon&lang=en`, { predict: true });
  assert.equal(await page.getAttribute('[role=slider]', 'aria-valuenow'), '15000');
  const plain = await open(env.browser, `${env.server.url}/?lang=en`, { predict: true });
  assert.equal(await plain.getAttribute('[role=slider]', 'aria-valuenow'), '15000');
  await done(plain);
  assert.match(await page.textContent('[role=alert]'), /pause: “soon” is not a whole number/);
  await done(page);
});

test('a key given twice is read at its last value, and the notice names that value, in both languages', async () => {
  const page = await open(env.browser, `${env.server.url}/?scenario=network-delay&delay=abc&delay=9000&lang=en`);
  assert.equal(await page.getAttribute('[role=slider]', 'aria-valuenow'), '9000');
  const said = await page.textContent('[role=alert]');
  assert.match(said, /This link gives a setting more than once; the page used its last value:\s*delay: “9000”/);
  assert.doesNotMatch(said, /default/, 'nothing fell back to a default');
  await done(page);
  // A bad last value falls back to the default, and is said to.
  const bad = await open(env.browser, `${env.server.url}/?scenario=network-delay&delay=9000&delay=abc&lang=ja`);
  assert.equal(await bad.getAttribute('[role=slider]', 'aria-valuenow'), '13000');
  const ja = await bad.textContent('[role=alert]');
  assert.match(ja, /既定値を使いました：\s*delay：「abc」は整数ではありません/);
  assert.doesNotMatch(ja, /最後の値/);
  await done(bad);
});

test('a script whose runs are long (a retry every 10 ms) keeps the page responsive: no map, and the challenge says why', async () => {
  const script = 'lease 10s\nexpiry off\nA: acquire, pause {pause=15s}, write\nB: idle 1s, try-acquire every 10ms, write, release\n';
  const page = await open(env.browser, `${env.server.url}/?lang=en&script=${encodeURIComponent(script)}`);
  await page.waitForSelector('.challenge .question');
  // Its 30,001 runs over the named value's range held the page for a minute: the page answers at once.
  const t0 = Date.now();
  await page.evaluate(() => 1);
  assert.ok(Date.now() - t0 < 2000, `the page answered after ${Date.now() - t0} ms`);
  assert.match(await page.textContent('.challenge .question'), /too long to run for every value here/);
  assert.ok(await page.locator('.challenge .strip-wrap').isHidden());
  // A never releases and nothing expires: B waits for ever.
  assert.equal(await outcome(page), 'orphaned');
  await done(page);
});
