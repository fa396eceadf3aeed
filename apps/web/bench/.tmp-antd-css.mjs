import puppeteer from 'puppeteer-core';
const browser = await puppeteer.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--headless'] });
const page = await browser.newPage();
await page.goto(process.argv[2], { waitUntil: 'load', timeout: 120000 });
await page.waitForSelector('#root[data-hydrated="true"]', { timeout: 120000 });
await new Promise((r) => setTimeout(r, 3000));
console.log(await page.evaluate(`(() => {
  const all = [...document.querySelectorAll('style')];
  const antd = all.filter((s) => s.hasAttribute('data-css-hash') || s.hasAttribute('data-rc-order'));
  return JSON.stringify({ styles: all.length, antd: antd.length, antdChars: antd.reduce((a, s) => a + s.textContent.length, 0),
    server: all.filter((s) => !s.attributes.length).map((s) => s.textContent.length) });
})()`));
await browser.close();
