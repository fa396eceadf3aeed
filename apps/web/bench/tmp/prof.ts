import puppeteer from 'puppeteer-core';
import { startBenchStack } from '../bench-stack.ts';
const page_ = process.argv[2] ?? '/login';
const b = await startBenchStack('prof');
const base = b.stack.apiUrl;
console.log('base', base, Object.keys(b.stack));
const browser = await puppeteer.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu'],
});
try {
  for (let run = 0; run < 3; run++) {
    const ctx = await browser.createBrowserContext();
    const page = await ctx.newPage();
    if (page_ !== '/login') {
      await page.goto(base + '/login', { waitUntil: 'networkidle0' });
      await page.locator('#login_email').fill('owner@demo.helix.local');
      await page.locator('#login_password').fill('owner-demo-2026');
      await page.locator('form#login button[type="submit"]').click();
      await page.waitForNavigation({ waitUntil: 'networkidle0' }).catch(() => {});
      await page.goto('about:blank');
    }
    const cdp = await page.createCDPSession();
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
    const t0 = Date.now();
    await page.goto(base + page_, { waitUntil: 'networkidle0' });
    const wall = Date.now() - t0;
    const { profile } = await cdp.send('Profiler.stop');
    const self = new Map<string, number>();
    const byUrl = new Map<string, number>();
    const dt = new Map<number, number>();
    profile.samples!.forEach((id, i) => dt.set(id, (dt.get(id) ?? 0) + (profile.timeDeltas![i] ?? 0)));
    let total = 0;
    for (const n of profile.nodes) {
      const t = (dt.get(n.id) ?? 0) / 1000;
      if (n.callFrame.functionName === '(idle)' || n.callFrame.functionName === '(program)') continue;
      total += t;
      const key = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber}`;
      self.set(key, (self.get(key) ?? 0) + t);
      const u = n.callFrame.url.split('/').pop() || n.callFrame.functionName;
      byUrl.set(u, (byUrl.get(u) ?? 0) + t);
    }
    console.log(`run ${run}: wall ${wall} ms, busy ${total.toFixed(0)} ms`);
    if (run === 2) {
      console.log(
        [...byUrl]
          .sort((a, b) => b[1] - a[1])
          .slice(0, 15)
          .map(([k, v]) => `  ${v.toFixed(1)} ${k}`)
          .join('\n'),
      );
      console.log(
        [...self]
          .sort((a, b) => b[1] - a[1])
          .slice(0, 30)
          .map(([k, v]) => `  ${v.toFixed(1)} ${k}`)
          .join('\n'),
      );
    }
    await ctx.close();
  }
} finally {
  await browser.close();
  await b.stop();
}
