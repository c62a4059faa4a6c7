// The page built at build time (present::page) and the app taking it over (app/takeover.rs): the figure
// and the question before any WebAssembly, the same page once the app starts (no flash, no jump, no lost
// click), only the frame for a link to another state or language, and a page that says what it needs
// where the app cannot start.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lab, done, settled } from './harness.mjs';

const env = lab();

/** A page whose WebAssembly is held back until `release()`: the page as built, for as long as a test needs. */
async function held(path, { width = 360, height = 740, locale = 'en-US', skip = false } = {}) {
  const context = await env.browser.newContext({ viewport: { width, height }, locale });
  if (skip) await context.addInitScript(() => sessionStorage.setItem('fencing-lab:skip-prediction', '1'));
  await context.addInitScript(() => {
    window.__shift = 0;
    new PerformanceObserver((list) => { for (const e of list.getEntries()) if (!e.hadRecentInput) window.__shift += e.value; })
      .observe({ type: 'layout-shift', buffered: true });
  });
  const page = await context.newPage();
  page.errors = [];
  page.on('console', (m) => m.type() === 'error' && page.errors.push(`console: ${m.text()}`));
  page.on('pageerror', (e) => page.errors.push(`pageerror: ${e.message}`));
  let release;
  const gate = new Promise((r) => { release = r; });
  await page.route(/fencing-lab-[0-9a-f]+_bg\.wasm$/, async (route) => { await gate; await route.continue(); });
  await page.goto(`${env.server.url}${path}`);
  await page.waitForSelector('figure.lab');
  page.release = async () => {
    release();
    await page.waitForSelector('.app-started figure.lab[data-outcome]');
    await settled(page);
  };
  return page;
}

/** The regions of the app's part of the page, each as markup with attributes in order, for comparing. */
const regions = (page) => page.evaluate(() => {
  const root = document.querySelector('#app > .app');
  const norm = (el) => {
    const c = el.cloneNode(true);
    for (const e of [c, ...c.querySelectorAll('*')]) {
      // Until the app starts its buttons wait, and its handle says so; and the figure is drawn at two widths.
      if (e.tagName === 'BUTTON' && !e.matches('[data-act=play]')) e.removeAttribute('disabled');
      e.removeAttribute('aria-disabled');
      const attrs = [...e.attributes].map((a) => [a.name, a.value]).sort();
      for (const [n] of attrs) e.removeAttribute(n);
      for (const [n, v] of attrs) e.setAttribute(n, v);
    }
    c.classList.remove('prerendered');
    c.querySelector('.timeline')?.replaceChildren();
    const walker = document.createTreeWalker(c, NodeFilter.SHOW_COMMENT);
    const comments = [];
    while (walker.nextNode()) comments.push(walker.currentNode);
    for (const n of comments) n.remove();
    return c.outerHTML;
  };
  const out = { root: norm(root).replace(/>[\s\S]*$/, '>') };
  for (const child of root.children) out[child.className || child.tagName] = norm(child);
  return out;
});

/** The figure's drawing (axis, lane names, lanes) in the SVG the reader sees. */
const drawing = (page) => page.evaluate(() => {
  const svg = [...document.querySelectorAll('.timeline svg')].find((s) => s.getBoundingClientRect().width > 0);
  return ['.axis', '.lane-labels', '.lanes'].map((s) => svg.querySelector(s).innerHTML);
});

/** Where the reader sees the parts of the first screen. */
const boxes = (page) => page.evaluate(() => Object.fromEntries(
  ['.masthead', '.picker summary', '.setup', '.prompt', '.timeline', '.controls', '.choices', '.reading:not([hidden]) h2']
    .map((s) => [s, [...document.querySelectorAll(s)].filter((e) => e.getClientRects().length)
      .map((e) => { const r = e.getBoundingClientRect(); return [Math.round(r.x), Math.round(r.y), Math.round(r.width), Math.round(r.height)]; })[0]])));

for (const [width, height] of [[360, 740], [1280, 800]]) {
  test(`at ${width}×${height} the page as built is the app's first frame: the same regions, the same drawing, the same boxes, no shift`, async () => {
    const page = await held('/', { width, height });
    const built = { regions: await regions(page), drawing: await drawing(page), boxes: await boxes(page) };
    // The set-up, the question and the figure start on the first screen.
    for (const s of ['.setup', '.prompt', '.timeline']) assert.ok(built.boxes[s][1] < height, `${s} at y = ${built.boxes[s][1]}`);
    await page.release();
    const app = { regions: await regions(page), drawing: await drawing(page), boxes: await boxes(page) };
    assert.deepEqual(Object.keys(app.regions), Object.keys(built.regions));
    for (const key of Object.keys(built.regions)) assert.equal(app.regions[key], built.regions[key], key);
    // At these widths the figure was built at the box's own width: the app draws the very same figure.
    assert.deepEqual(app.drawing, built.drawing);
    assert.deepEqual(app.boxes, built.boxes);
    assert.ok(await page.evaluate(() => window.__shift) <= 0.02, `layout shift ${await page.evaluate(() => window.__shift)}`);
    await done(page);
  });
}

test('a reader scrolled down to the reading stays there when the app takes over', async () => {
  const page = await held('/', { width: 360, height: 740 });
  // Scrolled there and settled (the reading is laid out once it comes into view, so scroll twice).
  for (let i = 0; i < 2; i++) {
    await page.evaluate(() => document.querySelector('.reading[lang=en] section:nth-of-type(3)').scrollIntoView());
    await settled(page);
  }
  const before = await page.evaluate(() => [scrollY, document.querySelector('.reading[lang=en] section:nth-of-type(3)').getBoundingClientRect().top]);
  await page.release();
  const after = await page.evaluate(() => [scrollY, document.querySelector('.reading[lang=en] section:nth-of-type(3)').getBoundingClientRect().top]);
  assert.deepEqual(after, before);
  assert.ok(await page.evaluate(() => window.__shift) <= 0.02);
  await done(page);
});

test('an answer picked, a switch flipped and the focus before the app starts are kept', async () => {
  const page = await held('/', { width: 1280, height: 800 });
  // Buttons wait for the app; the choices, the switches and the picker work already.
  assert.equal(await page.isDisabled('[data-act=skip]'), true);
  assert.equal(await page.getAttribute('.prerendered .handle', 'aria-disabled'), 'true');
  await page.check('input[name=prediction][value=corrupted]');
  await page.click('label[for=fencing]');
  await page.focus('#fencing');
  await page.release();
  assert.equal(await page.isChecked('input[name=prediction][value=corrupted]'), true);
  assert.equal(await page.isDisabled('[data-act=play]'), false, 'the answer counts: Play is on');
  assert.equal(await page.isChecked('#fencing'), false);
  assert.equal(await page.getAttribute('figure.lab', 'data-outcome'), 'corrupted', 'the switch counts: fencing is off');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'fencing');
  // And it plays as any answer does.
  await page.click('[data-act=play]');
  await page.waitForSelector('.badge', { state: 'visible', timeout: 15000 });
  assert.match(await page.textContent('.judged'), /You predicted it/);
  await done(page);
});

test('a picker opened before the app starts stays open, and its links lead to their states', async () => {
  const page = await held('/', { width: 360, height: 740 });
  await page.click('.picker summary');
  assert.equal(await page.getAttribute('[data-scenario-id=crash]', 'href'), '?scenario=crash&lang=en');
  await page.release();
  assert.equal(await page.isVisible('[data-scenario-id=crash]'), true);
  await page.click('[data-scenario-id=crash]');
  assert.equal(await page.getAttribute('figure.lab', 'data-scenario'), 'crash');
  assert.equal(await page.isVisible('[data-scenario-id=crash]'), false, 'the list closes on the scenario picked');
  assert.equal(await page.textContent('.picker-current'), 'Holder crashes');
  assert.equal(await page.evaluate(() => document.activeElement.tagName), 'SUMMARY');
  await done(page);
});

test('a link to another state shows the frame (masthead, picker, the figure\'s box) and a loading line, never the built figure as if it were the linked one', async () => {
  const page = await held('/?scenario=redlock&jump=9000');
  assert.equal(await page.evaluate(() => document.documentElement.classList.contains('pending')), true);
  assert.equal(await page.isVisible('.note-loading[lang=en]'), true);
  // The frame: the masthead and the picker (nothing marked current), and the figure's box, emptied of the
  // built run (tests/e2e/firstbyte.test.mjs reads it from the first byte on).
  for (const s of ['.prerendered .masthead h1', '.prerendered .picker summary', '.prerendered figure.lab']) {
    assert.equal(await page.$eval(s, (e) => getComputedStyle(e).visibility), 'visible', s);
  }
  assert.equal(await page.textContent('.prerendered .picker-current'), '');
  assert.equal(await page.$$eval('.prerendered figure.lab > *', (e) => e.length), 0);
  assert.ok((await page.$eval('.prerendered figure.lab', (e) => e.getBoundingClientRect().height)) > 300, 'the box holds its room');
  await page.release();
  assert.equal(await page.getAttribute('figure.lab', 'data-scenario'), 'redlock');
  assert.equal(await page.$eval('.timeline', (e) => getComputedStyle(e).visibility), 'visible');
  assert.equal(await page.isVisible('.note-loading'), false);
  await done(page);
});

test('the figure reports its first paint (elementtiming="figure"): the built one on the default page, only the app\'s on a link to another state', async () => {
  // The lane names each reported paint names, and whether it is in the app's page (not the built one).
  const painted = (page) => page.evaluate(() => new Promise((r) => {
    const seen = [];
    new PerformanceObserver((l) => { for (const e of l.getEntries()) seen.push(e); }).observe({ type: 'element', buffered: true });
    setTimeout(() => r(seen.filter((e) => e.identifier === 'figure')
      .map((e) => ({ name: e.element?.textContent ?? null, app: !!e.element?.closest('#app > .app:not(.prerendered)') }))), 300);
  }));
  const built = await held('/');
  assert.deepEqual(await painted(built), [{ name: 'Worker A', app: false }], 'the built figure, before any WebAssembly');
  await built.release();
  await done(built);
  const linked = await held('/?scenario=redlock&jump=9000');
  assert.deepEqual(await painted(linked), [], 'nothing painted of the hidden built figure');
  await linked.release();
  assert.deepEqual(await painted(linked), [{ name: 'Worker A', app: true }], "the app's figure of the linked state");
  await done(linked);
});

test('Japanese from the first paint: the frame and the Japanese reading, no English, until the app draws Japanese', async () => {
  for (const [path, locale] of [['/?lang=ja', 'en-US'], ['/', 'ja-JP']]) {
    const page = await held(path, { locale });
    assert.equal(await page.getAttribute('html', 'lang'), 'ja', path);
    const shown = await page.evaluate(() => document.body.innerText);
    assert.doesNotMatch(shown, /Fencing Lab|What happens|Worker A|GC pause|Reading:/, `${path} ${locale}`);
    assert.match(shown, /読み込んでいます/);
    // The reading is there in Japanese (below the first screen, where the browser does not draw it yet).
    assert.deepEqual(await page.evaluate(() => ['en', 'ja'].map((l) => getComputedStyle(document.querySelector(`.reading[lang=${l}]`)).display)), ['none', 'block']);
    await page.release();
    assert.equal(await page.textContent('h1'), 'フェンシング・ラボ');
    assert.match(await page.evaluate(() => document.body.innerText), /何が起きる/);
    await done(page);
  }
});

test('a reader who skips predicting gets the frame, not a prediction the app would not show', async () => {
  const page = await held('/', { skip: true });
  assert.equal(await page.evaluate(() => document.documentElement.classList.contains('pending')), true);
  await page.release();
  assert.equal(await page.isVisible('.badge'), true);
  await done(page);
});

test('without JavaScript: the figure, the question, its choices and the reading, and one line saying what needs scripts', async () => {
  for (const width of [360, 1280]) {
    const context = await env.browser.newContext({ javaScriptEnabled: false, viewport: { width, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${env.server.url}/`);
    assert.equal(await page.locator('.timeline svg:visible .lanes rect.paused').count(), 1, 'the band to 15 s');
    assert.match(await page.textContent('.prompt'), /A wakes after 15 s/);
    assert.equal(await page.locator('input[name=prediction]').count(), 5);
    assert.equal(await page.isVisible('.reading[lang=en] h2'), true);
    assert.equal(await page.isVisible('.reading[lang=ja]'), false);
    assert.match(await page.textContent('.note-no-app[lang=en]'), /needs JavaScript and WebAssembly/);
    assert.equal(await page.isVisible('.note-no-app[lang=en]'), true);
    // The app's own controls are not offered.
    assert.equal(await page.isVisible('.picker'), false);
    assert.equal(await page.isVisible('.lang-switch'), false);
    await context.close();
  }
});

test('sandboxed without the same origin, the embed shows the figure as built and says what it needs', async () => {
  const context = await env.browser.newContext();
  const host = await context.newPage();
  const errors = [];
  host.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await host.goto(`${env.server.url}/test/sandboxed.html`);
  const frame = host.frames().find((f) => f !== host.mainFrame());
  await frame.waitForSelector('.note-no-app[lang=en]', { state: 'visible' });
  assert.match(await frame.textContent('.note-no-app[lang=en]'), /sandbox="allow-scripts allow-same-origin"/);
  assert.equal(await frame.locator('.timeline svg:visible .lanes rect.paused').count(), 1);
  assert.match(await frame.textContent('.prompt'), /A wakes after 15 s/);
  // Embedded: only the widget.
  assert.equal(await frame.isVisible('.reading[lang=en]'), false);
  assert.equal(await frame.isVisible('.masthead'), false);
  assert.ok(errors.every((e) => /CORS|Failed to load|module script|origin 'null'/i.test(e)), errors.join('\n'));
  await context.close();
});
