import { writeFileSync } from 'node:fs';
import { startFlow } from 'lighthouse';
import type { Browser, ElementHandle, Page } from 'puppeteer-core';
import { HYDRATED, VIEWER_FRAME, type BenchPage } from './bench-pages.ts';

/** What one first-tap flow measured; NaN where Lighthouse counted nothing. */
export interface FirstTap {
  /** Interaction to next paint of the tap, ms. */
  inpMs: number;
  /** Cumulative layout shift over the load, the hydration and the tap. */
  cls: number;
  /** When the page was hydrated (the `helix:hydrated` mark), ms after navigation start; NaN if never. */
  hydratedMs: number;
  error?: string;
}

/**
 * What the tap presses. On a page that is the viewer alone (/embed) it is the viewer's 3D view inside the
 * frame, as soon as the viewer has made it: a tap on the frame element could land in a document that
 * was not there yet (the frame's first address), and Lighthouse then counted no interaction.
 */
async function mainControl(tab: Page, page: BenchPage): Promise<ElementHandle> {
  const control = await tab.waitForSelector(page.control, { visible: true, timeout: 30_000 });
  if (page.hydrates || !page.frameControl) return control!;
  const frame = await (control as ElementHandle<HTMLIFrameElement>).contentFrame();
  const inside = await frame.waitForSelector(page.frameControl, { visible: true, timeout: 30_000 });
  return inside!;
}

/**
 * A Lighthouse user flow (timespan) over one visit of `url` at `width` px, with the CPU slowed 4x
 * (devtools throttling, the network not slowed): a first visit (no cache, no service worker) is loaded,
 * waited for until hydrated (an embed until its viewer frame is there), and its main control is
 * tapped right away; the timespan ends once the tap is answered. A phone and a tablet (390, 820 px)
 * are mobile screens with touch, 1280 px a laptop's. `report`: a file for the step's Lighthouse report.
 */
export async function firstTap(
  browser: Browser,
  page: BenchPage,
  url: string,
  width: number,
  report?: string,
): Promise<FirstTap> {
  const tab = await browser.newPage();
  try {
    await tab.setBypassServiceWorker(true);
    await tab.setCacheEnabled(false);
    const mobile = width < 1000;
    const flow = await startFlow(tab, {
      name: `${page.path} at ${width}px`,
      flags: {
        formFactor: mobile ? 'mobile' : 'desktop',
        screenEmulation: {
          mobile,
          width,
          height: mobile ? Math.round(width * (width < 600 ? 2.16 : 1.44)) : 800,
          deviceScaleFactor: mobile ? 2 : 1,
          disabled: false,
        },
        throttlingMethod: 'devtools',
        throttling: {
          cpuSlowdownMultiplier: 4,
          requestLatencyMs: 0,
          downloadThroughputKbps: 0,
          uploadThroughputKbps: 0,
        },
        onlyCategories: ['performance'],
      },
    });
    await flow.startTimespan({ name: 'load, hydration and the first tap' });
    let error: string | undefined;
    try {
      await tab.goto(url, { waitUntil: 'load', timeout: 60_000 });
      await tab.waitForSelector(page.hydrates ? HYDRATED : VIEWER_FRAME, { timeout: 30_000 });
      const control = await mainControl(tab, page);
      await control!.tap();
      if (page.answered) await tab.waitForSelector(page.answered, { timeout: 30_000 });
      // The answer's paint (and any shift it brings) inside the timespan.
      await tab.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
    } catch (e) {
      error = e instanceof Error ? e.message.split('\n')[0] : String(e);
    }
    const hydratedMs = (await tab.evaluate(
      `performance.getEntriesByName('helix:hydrated')[0]?.startTime ?? NaN`,
    )) as number;
    await flow.endTimespan();
    const lhr = (await flow.createFlowResult()).steps[0]!.lhr;
    // The step's report, for its diagnostics (which elements shifted, the interaction's phases).
    if (report) writeFileSync(report, JSON.stringify(lhr));
    const value = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
    return {
      inpMs: value('interaction-to-next-paint'),
      cls: value('cumulative-layout-shift'),
      hydratedMs,
      ...(error ? { error } : {}),
    };
  } finally {
    await tab.close();
  }
}
