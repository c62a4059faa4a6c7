// The names the app finds its markup by (src/app/dom.rs): each selector of `ALWAYS` finds an element on the
// first screen of the started app, in both languages, so no effect writes into nothing. Read off the Rust
// source, so a selector added there is checked here without a second list.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { lab, open, done, root } from './harness.mjs';

const env = lab();

/** `ALWAYS`'s selectors, by the constants it names. */
async function always() {
  const source = await readFile(join(root, 'src/app/dom.rs'), 'utf8');
  const value = new Map([...source.matchAll(/pub const (\w+): &str = "((?:[^"\\]|\\.)*)";/g)].map((m) => [m[1], m[2].replace(/\\"/g, '"')]));
  const list = source.match(/pub const ALWAYS: &\[&str\] = &\[([^\]]*)\]/)?.[1] ?? '';
  const names = list.split(',').map((n) => n.trim()).filter(Boolean);
  assert.ok(names.length > 20, `ALWAYS read as ${names}`);
  return names.map((n) => {
    assert.ok(value.has(n), `no constant ${n} in dom.rs`);
    return [n, value.get(n)];
  });
}

test('every selector the app relies on finds its element, in both languages', async () => {
  const selectors = await always();
  for (const query of ['lang=en', 'lang=ja&scenario=redlock']) {
    const page = await open(env.browser, `${env.server.url}/?${query}`);
    const missing = await page.evaluate((list) => list.filter(([, s]) => !document.querySelector(s)).map(([n, s]) => `${n} (${s})`), selectors);
    assert.deepEqual(missing, [], `?${query}`);
    await done(page);
  }
});

test('the default state as mounted: the slider, its range and words, the switches', async () => {
  const page = await open(env.browser, `${env.server.url}/?lang=en`);
  assert.equal(await page.getAttribute('figure.lab', 'data-outcome'), 'safe');
  assert.equal(await page.getAttribute('[role=slider]', 'aria-valuenow'), '4000');
  assert.equal(await page.getAttribute('[role=slider]', 'aria-valuemax'), '30000');
  assert.match(await page.getAttribute('[role=slider]', 'aria-valuetext'), /4 s/);
  assert.equal(await page.getAttribute('#lease', 'role'), 'switch');
  await done(page);
});
