// End-to-end: a drag step sets only the figure's values that moved (`changes` and `drawPart` in
// src/app/page.js), and what it leaves is what a fresh drawing of the same state says.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lab, open, done, pause, rested } from './harness.mjs';

const env = lab();

test("a part's changes are its values and its elements' texts, or none when its shape changed", async () => {
  const page = await open(env.browser, `${env.server.url}/?lang=en`);
  const cases = await page.evaluate(async () => {
    const href = document.querySelector('link[rel=modulepreload][href*="/src/app/page.js"]').href;
    const { changes } = await import(href);
    const rect = '<rect class="paused" x="14.0"/>';
    const label = (s) => `<text aria-label="${s}">${s}</text>`;
    return {
      moved: changes(
        '<rect class="paused" x="14.0" width="144.0"/><g class="expiry"><line x1="110.0"/><text class="l" x="110.0">lease ends 10 s</text></g>',
        '<rect class="paused" x="14.0" width="150.5"/><g class="expiry"><line x1="112.0"/><text class="l" x="110.0">lease ends 12 s</text></g>',
      ),
      unchanged: changes(rect, rect),
      // A text with no attribute before it, empty before or after.
      filled: changes('<g><text></text></g>', '<g><text>A</text></g>'),
      emptied: changes('<text>A</text>', '<text></text>'),
      both: changes(label('A'), label('B')),
      // An element more, an element renamed, an attribute more: drawn afresh.
      more: changes(rect, rect + rect),
      renamed: changes(rect, '<line class="paused" x="14.0"/>'),
      attribute: changes(rect, '<rect class="paused" x="14.0" y="2"/>'),
      // A text beside an element is not the element's whole content; nor is the end of a tag.
      beside: changes('<g>A<rect/></g>', '<g>B<rect/></g>'),
      closed: changes('<g><rect/>A</g>', '<g><rect/>B</g>'),
      afterEnd: changes('<g><g></g>A</g>', '<g><g></g>B</g>'),
      // An escaped value changed would have to be unescaped: drawn afresh. Unchanged, it is no matter.
      escaped: changes(label('A'), label('A &lt; B')),
      escapedText: changes('<text>A</text>', '<text>A &amp; B</text>'),
      escapedValue: changes('<text x="1">A</text>', '<text x="&lt;">A</text>'),
      kept: changes('<text x="1">33 &lt; 34</text>', '<text x="2">33 &lt; 34</text>'),
    };
  });
  assert.deepEqual(cases, {
    moved: [[0, 'width', '150.5'], [2, 'x1', '112.0'], [3, '', 'lease ends 12 s']],
    unchanged: [],
    filled: [[1, '', 'A']],
    emptied: [[0, '', '']],
    both: [[0, 'aria-label', 'B'], [0, '', 'B']],
    more: null,
    renamed: null,
    attribute: null,
    beside: null,
    closed: null,
    afterEnd: null,
    escaped: null,
    escapedText: null,
    escapedValue: null,
    kept: [[0, 'x', '2']],
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
