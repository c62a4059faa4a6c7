// End-to-end in Firefox ESR (Debian's), driven over WebDriver BiDi by puppeteer-core: the core flows —
// prediction, mouse drag, switches, keyboard — against the same release build as the Chromium suite.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import puppeteer from 'puppeteer-core';
import { serve } from '../e2e/harness.mjs';

let server;
let browser;
before(async () => {
  server = await serve();
  browser = await puppeteer.launch({
    browser: 'firefox',
    protocol: 'webDriverBiDi',
    executablePath: process.env.FIREFOX ?? '/usr/bin/firefox-esr',
    headless: true,
    // No network but loopback here: keep Firefox from reaching out.
    extraPrefsFirefox: { 'network.dns.disableIPv6': true, 'app.update.enabled': false, 'network.captive-portal-service.enabled': false },
  });
});
after(async () => {
  await browser?.close();
  server?.close();
});

/** A fresh page in its own context; page errors are collected. */
async function open(url, { skip = true } = {}) {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  await page.setViewport({ width: 1280, height: 900 });
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(e.message));
  if (skip) {
    await page.goto(`${server.url}/?lang=en`);
    await page.evaluate(() => sessionStorage.setItem('fencing-lab:skip-prediction', '1'));
  }
  await page.goto(url);
  await page.waitForSelector('.app-started figure.lab[data-outcome]');
  return page;
}

const outcome = (page) => page.$eval('figure.lab', (e) => e.dataset.outcome);
const value = (page) => page.$eval('#pause-handle', (e) => e.getAttribute('aria-valuenow'));

test('Firefox: predict, play, and be told', async () => {
  const page = await open(`${server.url}/?lang=en`, { skip: false });
  assert.equal(await value(page), '15000');
  assert.equal(await page.$eval('.verdict', (e) => e.dataset.kind), 'hidden');
  await page.click('input[name=prediction][value=fenced]');
  await page.click('.predict button.primary');
  await page.waitForSelector('.badge', { visible: true, timeout: 20000 });
  assert.equal(await page.$eval('.judged', (e) => e.textContent), 'You predicted it.');
  assert.match(await page.$eval('#narration', (e) => e.textContent), /rejected A's write with token 33 \(it had seen 34\)/);
  assert.deepEqual(page.errors, []);
  await page.browserContext().close();
});

test('Firefox: a mouse drag of the handle from 4 s to 15 s turns safe into fenced', async () => {
  const page = await open(`${server.url}/?lang=en`);
  assert.equal(await outcome(page), 'safe');
  const grip = await (await page.$('#pause-handle .grip')).boundingBox();
  const to = await page.$eval('line.grid[data-t="15000"]', (e) => e.getBoundingClientRect().x);
  await page.mouse.move(grip.x + grip.width / 2, grip.y + grip.height / 2);
  await page.mouse.down();
  await page.mouse.move(to, grip.y + grip.height / 2, { steps: 20 });
  await page.mouse.up();
  assert.equal(await value(page), '15000');
  assert.equal(await outcome(page), 'fenced');
  assert.deepEqual(page.errors, []);
  await page.browserContext().close();
});

test('Firefox: switches and keys re-run the core; the picker changes the scenario', async () => {
  const page = await open(`${server.url}/?pause=15000&lang=en`);
  await page.click('label[for=fencing]');
  assert.equal(await outcome(page), 'corrupted');
  await page.click('label[for=lease]');
  assert.equal(await outcome(page), 'stalled');
  // An SVG slider: focused through the DOM (puppeteer's focus() takes HTML elements only).
  await page.$eval('#pause-handle', (e) => e.focus());
  await page.keyboard.press('Home');
  assert.equal(await value(page), '0');
  assert.equal(await outcome(page), 'safe');
  await page.focus('.picker summary');
  await page.keyboard.press('Enter');
  await page.focus('[data-scenario-id=check-then-set]');
  await page.keyboard.press('Enter');
  assert.equal(await outcome(page), 'double-grant');
  assert.equal(await page.$eval('figure.lab', (e) => e.dataset.doubleGrant), 'true');
  assert.deepEqual(page.errors, []);
  await page.browserContext().close();
});
