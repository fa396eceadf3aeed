import { IMAGE_CHECK_BUDGET } from '@helix/shared/images';

/** Attributes whose numbers are blur radii (feGaussianBlur, feDropShadow). */
const STD_DEVIATION = /\bstdDeviation\s*=\s*(["'])([^"']*)\1/gi;
/** CSS blur() filter functions (a style attribute or a <style> sheet): librsvg renders them. */
const CSS_BLUR = /\bblur\s*\(\s*([^)]*)\)/gi;
/** A filter reference: `filter="..."`, `filter: ...` in a style, or a CSS rule's declaration. */
const FILTER_USE = /\bfilter\s*(?:=|:)/gi;
/** A <style> sheet (its text): one `filter:` rule there can apply to every element. */
const STYLE_SHEET = /<style\b[^>]*>([\s\S]*?)<\/style\s*>/gi;
/** The elements a stylesheet's filter rule can reach. */
const ELEMENT = /<(?:rect|circle|ellipse|line|polyline|polygon|path|text|g|use|image|svg)\b/gi;
/** A `<use>` and the id it draws (`href` or `xlink:href`, a fragment of this document). */
const USE_REF = /<use\b[^>]*?\b(?:xlink:)?href\s*=\s*(["'])#([^"']+)\1/gi;
const PLAIN_NUMBER = /^[+]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i;

/**
 * Whether an SVG uses filters in a way that makes rasterising it unbounded: a blur wider than the
 * budget (or one whose radius is not a plain number, e.g. hidden behind character references), or more
 * filter references than the budget (a style sheet's filter rule counts once per element it may reach). Cheap (a few regular expressions over at most 1 MB) and
 * deliberately coarse: it refuses the filter bombs seen so far before librsvg sees them; the child
 * process's time limit (rasterise-in-child.ts) bounds whatever it does not recognise.
 */
export function svgOverBudget(text: string, budget = IMAGE_CHECK_BUDGET): boolean {
  for (const [, , value = ''] of text.matchAll(STD_DEVIATION)) {
    const numbers = value
      .trim()
      .split(/[\s,]+/)
      .filter(Boolean);
    if (numbers.some((n) => !PLAIN_NUMBER.test(n) || Number(n) > budget.svgMaxBlur)) return true;
  }
  for (const [, value = ''] of text.matchAll(CSS_BLUR)) {
    const radius = Number.parseFloat(value);
    // blur(1e9px), blur(calc(...)) or an unknown unit: refused rather than guessed at.
    if (!(radius <= budget.svgMaxBlur)) return true;
  }
  let uses = 0;
  for (const _ of text.matchAll(FILTER_USE)) if (++uses > budget.svgMaxFilterUses) return true;
  // A filter rule in a style sheet may apply to any element: count each as a use.
  const sheetFilters = [...text.matchAll(STYLE_SHEET)].some(([, css = '']) => /\bfilter\s*:/i.test(css));
  if (sheetFilters) for (const _ of text.matchAll(ELEMENT)) if (++uses > budget.svgMaxFilterUses) return true;
  return useDraws(text, budget.svgMaxUseDraws) > budget.svgMaxUseDraws;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * How many elements the document's `<use>`s draw, stopping once past `max`: each `<use>` draws its
 * target once, and a target holding `<use>`s draws what they draw (nested uses multiply). A target's
 * content is read coarsely (its opening tag to the first closing tag of its name); a cycle counts as
 * over the budget.
 */
export function useDraws(text: string, max: number): number {
  const memo = new Map<string, number>();
  const contentOf = (id: string): string | null => {
    const open = new RegExp(
      `<([\\w:-]+)\\b[^>]*\\bid\\s*=\\s*(["'])${escapeRegExp(id)}\\2[^>]*?(/?)>`,
      'i',
    ).exec(text);
    if (!open) return null;
    if (open[3] === '/') return '';
    const start = open.index + open[0].length;
    const end = text.indexOf(`</${open[1]}`, start);
    return text.slice(start, end < 0 ? text.length : end);
  };
  const drawsOf = (id: string, depth: number): number => {
    const known = memo.get(id);
    if (known !== undefined) return known;
    if (depth > 32) return max + 1;
    memo.set(id, max + 1); // a use reached again while counting: a cycle
    let total = 1;
    for (const [, , inner = ''] of (contentOf(id) ?? '').matchAll(USE_REF)) {
      total += drawsOf(inner, depth + 1);
      if (total > max) break;
    }
    memo.set(id, Math.min(total, max + 1));
    return Math.min(total, max + 1);
  };
  let draws = 0;
  for (const [, , id = ''] of text.matchAll(USE_REF)) {
    draws += drawsOf(id, 0);
    if (draws > max) return draws;
  }
  return draws;
}
