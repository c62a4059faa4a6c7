// Not a test: screenshots of the figure for looking at. node scripts/shots.mjs OUT_DIR WIDTH query...
import { serve, launch, open } from '../tests/e2e/harness.mjs';
const [out, width, ...queries] = process.argv.slice(2);
const server = await serve();
const browser = await launch();
for (const q of queries) {
  const page = await open(browser, `${server.url}/?${q}`, { viewport: { width: Number(width), height: 900 } });
  await page.waitForTimeout(300);
  const fig = await page.$('figure.lab');
  await fig.screenshot({ path: `${out}/${q.replace(/[^a-z0-9]+/gi, '_')}-${width}.png` });
  if (page.errors.length) console.log(q, page.errors);
  await page.context().close();
}
await browser.close();
server.close();
