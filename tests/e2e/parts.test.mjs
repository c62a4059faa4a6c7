// End-to-end: a drag step sets only the figure's values that moved (computed in the wasm, present/svg.rs;
// set by `setValues` in src/app/page.js), and what it leaves is what a fresh drawing of the same state says.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lab, open, done, pause, rested } from './harness.mjs';

const env = lab();

test('a step sets the values it lists, or nothing when the part has not their elements', async () => {
  const page = await open(env.browser, `${env.server.url}/?lang=en`);
  const cases = await page.evaluate(async () => {
    const href = document.querySelector('link[rel=modulepreload][href*="/src/app/page.js"]').href;
    const { setValues } = await import(href);
    const part = () => {
      const g = document.createElementNS('http://www.w3.org/2000/svg', 'g');
      g.innerHTML = '<rect x="1"/><g><line x1="2"/><text x="3">lease ends 10 s</text></g>';
      return g;
    };
    const g = part();
    const set = setValues(g, ['0', 'x', '1.5', '3', '', '33 < 34 & "x"', '2', 'x1', '7'].join('\x1f'));
    const missing = part();
    const refused = setValues(missing, ['0', 'x', '9', '4', 'x', '9'].join('\x1f'));
    return { set, markup: g.innerHTML, refused, untouched: missing.innerHTML === part().innerHTML };
  });
  assert.deepEqual(cases, {
    set: true,
    markup: '<rect x="1.5"></rect><g><line x1="7"></line><text x="3">33 &lt; 34 &amp; "x"</text></g>',
    refused: false,
    untouched: true,
  });
  await done(page);
});

test("after a drag out and back, every scenario's lanes are what a fresh load of its link draws", async () => {
  const first = await open(env.browser, `${env.server.url}/?lang=en`);
  const ids = await first.$$eval('[data-scenario-id]', (els) => els.map((e) => e.dataset.scenarioId));
  await done(first);
  let dragged = 0;
  for (const [n, id] of ids.entries()) {
    // Both languages, and a switch off in some.
    const query = `scenario=${id}&lang=${n % 2 ? 'ja' : 'en'}${n % 3 ? '' : '&fencing=off'}`;
    const page = await open(env.browser, `${env.server.url}/?${query}`, { viewport: { width: 1280, height: 900 } });
    if (!(await page.isVisible('[role=slider] .grip'))) {
      await done(page);
      continue;
    }
    dragged++;
    await page.evaluate(() => {
      window.__set = 0;
      new MutationObserver((records) => { window.__set += records.filter((r) => r.type === 'attributes').length; })
        .observe(document.querySelector('.timeline .lanes'), { attributes: true, subtree: true });
    });
    const axis = await page.$$eval('line.grid[data-t]', (ls) => [ls[0], ls.at(-1)].map((l) => l.getBoundingClientRect().x));
    // Out towards the axis's end, then back past where it began, compared with a fresh load at each rest.
    for (const along of [0.8, 0.1]) {
      const box = await page.locator('[role=slider] .grip').boundingBox();
      const [start, y] = [box.x + box.width / 2, box.y + box.height / 2];
      const to = axis[0] + (axis[1] - axis[0]) * along;
      await page.mouse.move(start, y);
      await page.mouse.down();
      for (let i = 1; i <= 24; i++) {
        await page.mouse.move(start + ((to - start) * i) / 24, y);
        await page.waitForTimeout(10);
      }
      await page.mouse.up();
      await rested(page);
      // The address follows once the hand has rested a while.
      await page.waitForFunction(() => [...new URLSearchParams(location.search).values()]
        .includes(document.querySelector('[role=slider]').getAttribute('aria-valuenow')));
      const url = await page.evaluate(() => location.href);
      const fresh = await open(env.browser, url, { viewport: { width: 1280, height: 900 } });
      assert.equal(await pause(fresh), await pause(page), url);
      const lanes = (p) => p.$eval('.timeline .lanes', (g) => g.innerHTML);
      assert.equal(await lanes(page), await lanes(fresh), url);
      await done(fresh);
    }
    assert.ok(await page.evaluate(() => window.__set) > 10, `${id}: the steps set values in place`);
    await done(page);
  }
  assert.ok(dragged >= 9, `${dragged} scenarios with a band to drag`);
});
