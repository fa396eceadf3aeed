import { createRequire } from 'node:module';
import { StripeError } from './errors.ts';

/** `{ key: subtree }`; 1 = a scalar; '*' = an object with free keys (metadata). */
export type ParamTree = { [key: string]: ParamTree | 1 | '*' };

/**
 * Every parameter the pinned `stripe` SDK's types accept, per endpoint ("post /v1/customers"), generated
 * by scripts/sdk-params.generate.ts from node_modules/stripe.
 */
const SDK_PARAMS = createRequire(import.meta.url)('./sdk-params.json') as Record<string, ParamTree>;

export function sdkEndpointKnown(endpoint: string): boolean {
  return endpoint in SDK_PARAMS;
}

/** Whether Stripe's SDK accepts `param` (`items[0][price_data][currency]`) on this endpoint. */
export function sdkAccepts(endpoint: string, param: string): boolean {
  let node: ParamTree | 1 | '*' | undefined = SDK_PARAMS[endpoint];
  const segments = param.replace(/\]/g, '').split('[');
  for (const segment of segments) {
    if (node === '*') return true;
    if (node === undefined || node === 1) return false;
    if (/^\d+$/.test(segment) && !(segment in node)) continue; // an array index
    node = node[segment];
  }
  return node !== undefined;
}

/**
 * A parameter real Stripe takes that this server does not implement: refused, naming stripe-local, so
 * neither a test nor the product mistakes it for a mistake in the call (`parameter_unknown`).
 */
export const stripeLocalUnsupported = (param: string) =>
  new StripeError(400, {
    type: 'invalid_request_error',
    code: 'stripe_local_unsupported',
    param,
    message: `stripe-local does not implement the parameter ${param} (Stripe accepts it). Remove it, or test this call against Stripe test mode; see packages/stripe-local/README.md.`,
  });
