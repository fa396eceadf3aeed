import type { Context } from './context.ts';
import { invalidRequest } from './errors.ts';
import { INCLUDABLE, includable, renderById, type Json } from './render.ts';

const MAX_DEPTH = 4;

/**
 * Stripe's `expand[]`: each path replaces an id with its object (`latest_invoice`), walks into lists
 * through `data` (`items.data.price.product`), or adds a field returned only on request
 * (`latest_invoice.confirmation_secret`). An unknown or unexpandable path is a 400, as on Stripe.
 */
export function applyExpand(ctx: Context, json: Json, paths: string[] | undefined): Json {
  if (!paths?.length) return json;
  for (const path of paths) {
    const parts = path.split('.');
    if (parts.length > MAX_DEPTH)
      throw invalidRequest(
        `You cannot expand more than ${MAX_DEPTH} levels of a property. Property: ${path}`,
        { param: 'expand' },
      );
    expandPath(ctx, json, parts, path);
  }
  return json;
}

function expandPath(ctx: Context, json: Json, parts: string[], full: string): void {
  const [head, ...rest] = parts;
  if (head === undefined) return;
  if (json.object === 'list' && head === 'data' && Array.isArray(json.data)) {
    for (const item of json.data as Json[]) expandPath(ctx, item, rest, full);
    return;
  }
  const object = typeof json.object === 'string' ? json.object : '';
  if (INCLUDABLE[object]?.includes(head) && typeof json.id === 'string') {
    const value = includable(ctx, object, json.id, head) ?? null;
    json[head] = value;
    if (value && rest.length) expandPath(ctx, value, rest, full);
    return;
  }
  if (!(head in json)) throw notExpandable(full);
  const value = json[head];
  if (value === null) return;
  if (typeof value === 'string') {
    const rendered = renderById(ctx, value);
    if (!rendered) throw notExpandable(full);
    json[head] = rendered;
    if (rest.length) expandPath(ctx, rendered, rest, full);
    return;
  }
  if (Array.isArray(value)) {
    json[head] = value.map((v) => {
      const rendered = typeof v === 'string' ? renderById(ctx, v) : (v as Json);
      if (!rendered) throw notExpandable(full);
      if (rest.length) expandPath(ctx, rendered, rest, full);
      return rendered;
    });
    return;
  }
  if (typeof value === 'object' && rest.length) {
    expandPath(ctx, value as Json, rest, full);
    return;
  }
  throw notExpandable(full);
}

const notExpandable = (path: string) =>
  invalidRequest(`This property cannot be expanded (${path}).`, { param: 'expand' });
