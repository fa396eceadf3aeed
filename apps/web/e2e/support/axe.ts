import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';

/**
 * Serious and critical axe-core violations on the page, frames included, one line each (with the
 * colours and ratio of a contrast failure, so the fix is obvious). docs/accessibility.md.
 */
export async function seriousViolations(page: Page, where: string): Promise<string[]> {
  // What is still fading in (a toast, a dialog) is read at part of its opacity, a contrast it never
  // keeps: axe reads the page once every finite animation has ended (a spinner's goes on).
  await page
    .waitForFunction(
      () =>
        document
          .getAnimations()
          .every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
      null,
      { timeout: 5000, polling: 50 },
    )
    .catch(() => undefined);
  // Only violations are wanted: axe then skips building the passes it would otherwise report.
  const result = await new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => {
      const nodes = v.nodes.slice(0, 4).map((n) => {
        const data = n.any[0]?.data as { fgColor?: string; bgColor?: string; contrastRatio?: number } | null;
        const colours = data?.fgColor ? ` [${data.fgColor} on ${data.bgColor}: ${data.contrastRatio}]` : '';
        return `${n.target.join(' > ')}${colours}`;
      });
      return `${where}: ${v.id} (${v.impact}) ${v.help} at ${nodes.join(', ')}`;
    });
}
