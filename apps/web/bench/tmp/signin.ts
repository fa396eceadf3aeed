import puppeteer from 'puppeteer-core';
import { startBenchStack } from '../bench-stack.ts';
const b = await startBenchStack('signin');
const browser = await puppeteer.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu'],
});
try {
  const page = await browser.newPage();
  page.on('console', (m) => console.log('CONSOLE', m.type(), m.text()));
  page.on('pageerror', (e) => console.log('PAGEERROR', e.message));
  await page.goto(b.stack.apiUrl + '/login', { waitUntil: 'networkidle0' });
  const state = () =>
    page.evaluate(() => ({
      path: location.pathname,
      email: (document.querySelector('#login_email') as HTMLInputElement)?.value,
      drawn: document.querySelector('#root')?.getAttribute('data-prerendered'),
      errors: [...document.querySelectorAll('.ant-form-item-explain-error')].map((e) => e.textContent),
    }));
  await page.locator('#login_email').fill('owner@demo.helix.local');
  await page.locator('#login_password').fill('owner-demo-2026');
  await page.locator('form#login button[type="submit"]').click();
  console.log(
    'after click',
    await state(),
    await page.evaluate(() =>
      JSON.stringify((document.querySelector('form#login') as HTMLFormElement).dataset),
    ),
  );
  for (let i = 0; i < 4; i++) {
    await new Promise((r) => setTimeout(r, 1000));
    console.log(i, await state());
  }
} finally {
  await browser.close();
  await b.stop();
}
