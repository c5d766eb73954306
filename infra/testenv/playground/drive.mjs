// drive.mjs drives the search playground in headless Chromium and prints
// what it saw as one JSON object; infra/e2e/playground_test.go judges it.
//
//   node drive.mjs <page URL> <screenshot path>
//
// CHROMIUM names the browser (default /usr/bin/chromium, Debian's package).
import { chromium } from 'playwright-core';

const [url, screenshot] = process.argv.slice(2);
if (!url || !screenshot) {
  console.error('usage: node drive.mjs <page URL> <screenshot path>');
  process.exit(2);
}
const QUERY = 'take a screenshot of the page';
const FILTER_SERVER = 'playwright';

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const seen = { errors: [] };
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(15000);
  page.on('pageerror', (err) => seen.errors.push(`page error: ${err.message}`));
  page.on('console', (msg) => { if (msg.type() === 'error') seen.errors.push(`console: ${msg.text()}`); });
  page.on('request', (req) => { if (!req.url().startsWith(new URL(url).origin)) seen.errors.push(`off-origin request: ${req.url()}`); });

  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]');
  seen.index = await facts(page);

  // Type the query as a person would, and read the ranked results.
  await page.fill('#query', QUERY);
  await page.press('#query', 'Enter');
  seen.results = await results(page, (r) => r.length > 0 && !r[0].explained);

  // Explain: the toggle searches again with the explain option.
  await page.check('#explain');
  seen.explained = await results(page, (r) => r.length > 0 && r[0].explained);
  seen.explainFields = await page.$$eval('#results .hit:first-child .explain td.field', (tds) => tds.map((td) => td.textContent));
  seen.explainSignals = await page.$eval('#results .hit:first-child .signals', (e) => e.textContent);
  seen.explainRequests = await page.$$eval('#results .hit:first-child .explain .request', (ps) => ps.map((p) => p.textContent));

  // More results: the next page, by the result's nextCursor.
  await page.click('#more');
  seen.more = (await results(page, (r) => r.length > seen.explained.length)).map((h) => h.name);

  // The server filter keeps that server's tools only.
  await page.selectOption('#server', FILTER_SERVER);
  seen.filtered = await results(page, (r) => r.length > 0 && r.every((h) => h.server === FILTER_SERVER));
  await page.selectOption('#server', '');
  await results(page, (r) => r.length > 0 && r[0].explained && r.some((h) => h.server !== FILTER_SERVER));

  // Markup in a description is shown as text: a tool that names <script> tags.
  await page.selectOption('#server', 'playwright-executeautomation');
  await page.fill('#query', 'get the visible html of the page');
  await page.press('#query', 'Enter');
  await results(page, (r) => r.length > 0 && r[0].name.endsWith('playwright_get_visible_html'));
  seen.markup = await page.$eval('#results .hit:first-child', (hit) => ({
    text: hit.querySelector('.desc').textContent,
    elements: hit.querySelectorAll('.desc *').length + document.querySelectorAll('#results script').length,
  }));
  await page.selectOption('#server', '');

  // Another kind: prompts.
  await page.selectOption('#kind', 'prompts');
  await page.fill('#query', 'summary of a task');
  await page.press('#query', 'Enter');
  seen.prompts = await results(page, (r) => r.length > 0 && r[0].name.includes('summary'));

  // Back to the tools for the picture.
  await page.selectOption('#kind', 'tools');
  await page.fill('#query', QUERY);
  await page.press('#query', 'Enter');
  await results(page, (r) => r.length > 0 && r[0].explained && r[0].name.includes('screenshot'));
  seen.url = page.url();
  await page.screenshot({ path: screenshot });
} catch (err) {
  seen.errors.push(`driver: ${err.message}`);
} finally {
  await browser.close();
}
console.log(JSON.stringify(seen));

// facts reads the index panel.
async function facts(page) {
  await page.waitForFunction(() => document.querySelector('#fact-servers')?.textContent !== '–');
  return page.$$eval('#facts dd', (dds) => Object.fromEntries(dds.map((dd) => [dd.id.replace('fact-', ''), dd.textContent])));
}

// results waits until the shown results satisfy ok, then returns them.
async function results(page, ok) {
  const read = () => page.$$eval('#results .hit', (hits) => hits.map((h) => ({
    name: h.querySelector('.name').textContent,
    server: h.querySelector('.server').textContent,
    score: h.querySelector('.score').textContent,
    params: [...h.querySelectorAll('.params code')].map((c) => c.textContent),
    explained: !!h.querySelector('.explain'),
  })));
  const deadline = Date.now() + 15000;
  for (;;) {
    const r = await read();
    if (ok(r)) return r;
    if (Date.now() > deadline) throw new Error(`results never settled: ${JSON.stringify(r.slice(0, 3))}; status: ${await page.textContent('#status')}`);
    await page.waitForTimeout(50);
  }
}
