// End-to-end: the sample book (docs/book) as a teacher builds it with `mdbook build`: each ```lock fence is
// a figure with its verdict and an "Open in the lab" link, and each link opens the lab in the state the
// figure shows (its outcome, its language, its script).
//
// The book is FENCING_LAB_BOOK when set (scripts/test.sh builds it once, before the end-to-end tests);
// otherwise this test builds it with mdbook and mdbook-lock (built with the native tests) into a temporary
// folder.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lab, open, done, root, outcome } from './harness.mjs';

const env = lab();
let book = process.env.FENCING_LAB_BOOK;
let built = null;
before(() => {
  if (book) return;
  built = mkdtempSync(join(tmpdir(), 'fencing-lab-book-'));
  book = join(built, 'book');
  const bin = join(root, process.env.CARGO_TARGET_DIR ?? 'target', 'debug');
  execFileSync('mdbook', ['build', 'docs/book', '--dest-dir', book], {
    cwd: root, stdio: 'inherit', env: { ...process.env, PATH: `${bin}:${process.env.PATH}` },
  });
});
after(() => built && rmSync(built, { recursive: true, force: true }));

test('each figure of the built book links to the lab in the state it shows', async () => {
  const chapter = readFileSync(join(book, 'fencing.html'), 'utf8');
  // Each figure, then its link (the preprocessor writes them in that order).
  const figures = [...chapter.matchAll(/<div id="lock-[^"]+" class="fencing-lab" lang="(\w+)" data-outcome="([\w-]+)"[\s\S]*?<a href="(http:\/\/127\.0\.0\.1:8080\/[^"]+)"/g)];
  assert.equal(figures.length, 3, 'three fences, three figures');
  for (const [, lang, shown, href] of figures) {
    const link = href.replaceAll('&amp;', '&');
    const query = new URL(link).search;
    const page = await open(env.browser, `${env.server.url}/${query}`);
    assert.equal(await outcome(page), shown, `${link} opens on the outcome its figure shows`);
    assert.equal(await page.getAttribute('html', 'lang'), lang);
    // The lab holds the fence's script, as the link gives it.
    assert.equal(await page.evaluate(() => new URLSearchParams(location.search).get('script')), new URLSearchParams(query).get('script'));
    await done(page);
  }
});
