import puppeteer from 'puppeteer-core';
const [url, width] = [process.argv[2], Number(process.argv[3] ?? 390)];
const browser = await puppeteer.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--headless'] });
const page = await browser.newPage();
await page.setViewport({ width, height: 844, isMobile: width < 1000, hasTouch: width < 1000, deviceScaleFactor: 1 });
await page.setCacheEnabled(false);
await page.evaluateOnNewDocument(`
  window.__shifts = [];
  new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__shifts.push({ t: Math.round(e.startTime), v: e.value.toFixed(4), input: e.hadRecentInput,
    sources: e.sources.map((s) => ({ node: s.node ? (s.node.nodeName + '.' + (s.node.className?.baseVal ?? s.node.className ?? '')).slice(0, 90) + ' ' + (s.node.textContent||'').slice(0,40) : null, from: [s.previousRect.x, s.previousRect.y, s.previousRect.width, s.previousRect.height].map(Math.round).join(','), to: [s.currentRect.x, s.currentRect.y, s.currentRect.width, s.currentRect.height].map(Math.round).join(',') })) }); }).observe({ type: 'layout-shift', buffered: true });
`);
await page.goto(url, { waitUntil: 'load', timeout: 120000 });
await page.waitForSelector('#root[data-hydrated="true"]', { timeout: 120000 }).catch(() => console.log('not hydrated'));
await new Promise((r) => setTimeout(r, 4000));
console.log(JSON.stringify(await page.evaluate(`({ hydrated: performance.getEntriesByName('helix:hydrated')[0]?.startTime, shifts: window.__shifts })`), null, 1));
await browser.close();
