import puppeteer from 'puppeteer-core';
import { startBenchStack } from '../bench-stack.ts';
const b = await startBenchStack('shot');
const browser = await puppeteer.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu'],
});
try {
  const p1 = await browser.newPage();
  await p1.setViewport({ width: 412, height: 823 });
  await p1.setJavaScriptEnabled(false);
  await p1.goto(b.stack.apiUrl + '/login', { waitUntil: 'networkidle0' });
  await p1.screenshot({ path: '/tmp/drawn.png' });
  const p2 = await browser.newPage();
  await p2.setViewport({ width: 412, height: 823 });
  await p2.goto(b.stack.apiUrl + '/login', { waitUntil: 'networkidle0' });
  await p2.mouse.move(5, 5);
  await p2.mouse.down();
  await p2.mouse.up();
  await new Promise((r) => setTimeout(r, 3000));
  await p2.screenshot({ path: '/tmp/app.png' });
  console.log(
    await p2.evaluate(() => document.styleSheets.length + ' ' + document.querySelectorAll('style').length),
  );
} finally {
  await browser.close();
  await b.stop();
}
