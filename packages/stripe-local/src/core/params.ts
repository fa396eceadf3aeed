import { invalidParameter, missingParameter, unknownParameter } from './errors.ts';

/**
 * Stripe's parameter rules for form-encoded bodies parsed by qs: every key must be known (else
 * `parameter_unknown`), required keys present (`parameter_missing`), scalars well formed. An empty string
 * for an optional scalar means "not given" (Stripe unsets with it), unless the field is clearable, which
 * then yields null.
 */
export interface Field<T, R extends boolean = false> {
  readonly required: R;
  readonly clearable: boolean;
  /** What an empty string means for this field, when not "unset". */
  readonly empty?: () => T;
  parse(value: unknown, param: string): T;
}

type AnyField = Field<unknown, boolean>;
export type Shape = Record<string, AnyField>;
type TypeOf<F> = F extends Field<infer T, boolean> ? T : never;
type RequiredKeys<S extends Shape> = {
  [K in keyof S]: S[K] extends Field<unknown, true> ? K : never;
}[keyof S];
type OptionalKeys<S extends Shape> = Exclude<keyof S, RequiredKeys<S>>;
export type Out<S extends Shape> = { [K in RequiredKeys<S>]: TypeOf<S[K]> } & {
  [K in OptionalKeys<S>]?: TypeOf<S[K]>;
};

function field<T>(parse: (value: unknown, param: string) => T): Field<T> {
  return { required: false, clearable: false, parse };
}

export function req<T>(f: Field<T, boolean>): Field<T, true> {
  return { ...f, required: true };
}

export function clearable<T>(f: Field<T, boolean>): Field<T | null> {
  return { ...f, required: false, clearable: true } as Field<T | null>;
}

const show = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

export const str = (maxLength = 5000): Field<string> =>
  field((value, param) => {
    if (typeof value !== 'string') throw invalidParameter(param, `Invalid string: ${show(value)}`);
    if (value.length > maxLength)
      throw invalidParameter(param, `Invalid string: must be at most ${maxLength} characters`);
    return value;
  });

export const int = (min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER): Field<number> =>
  field((value, param) => {
    if (typeof value !== 'string' || !/^-?\d+$/.test(value))
      throw invalidParameter(param, `Invalid integer: ${show(value)}`);
    const n = Number(value);
    if (n < min) throw invalidParameter(param, `This value must be greater than or equal to ${min}.`);
    if (n > max) throw invalidParameter(param, `This value must be less than or equal to ${max}.`);
    return n;
  });

export const decimal = (min = -Infinity, max = Infinity): Field<number> =>
  field((value, param) => {
    if (typeof value !== 'string' || !/^-?\d+(\.\d+)?$/.test(value))
      throw invalidParameter(param, `Invalid decimal: ${show(value)}`);
    const n = Number(value);
    if (n < min || n > max)
      throw invalidParameter(param, `Invalid ${param}: must be between ${min} and ${max}`);
    return n;
  });

export const bool = (): Field<boolean> =>
  field((value, param) => {
    if (value === 'true') return true;
    if (value === 'false') return false;
    throw invalidParameter(param, `Invalid boolean: ${show(value)}`);
  });

export const oneOf = <const V extends string>(...values: V[]): Field<V> =>
  field((value, param) => {
    if (typeof value === 'string' && (values as string[]).includes(value)) return value as V;
    const list =
      values.length > 1 ? `${values.slice(0, -1).join(', ')}, or ${values[values.length - 1]}` : values[0];
    throw invalidParameter(param, `Invalid ${param.replace(/.*\[|\]$/g, '')}: must be one of ${list}`);
  });

/** A Unix timestamp, or `now` where Stripe accepts it (trial_end). */
export const timestampOrNow = (): Field<number | 'now'> =>
  field((value, param) => (value === 'now' ? 'now' : int(0).parse(value, param)));

/** `metadata[key]=value`; an empty string clears everything. Values are strings. */
export const metadata = (): Field<Record<string, string>> => ({
  required: false,
  clearable: false,
  empty: () => ({}),
  parse(value, param) {
    if (!isPlainObject(value)) throw invalidParameter(param, 'Invalid object');
    const out: Record<string, string> = {};
    for (const [key, v] of Object.entries(value)) {
      if (key.length > 40)
        throw invalidParameter(`${param}[${key}]`, 'Metadata keys can be at most 40 characters.');
      if (typeof v !== 'string') throw invalidParameter(`${param}[${key}]`, `Invalid string: ${show(v)}`);
      if (v.length > 500)
        throw invalidParameter(`${param}[${key}]`, 'Metadata values can be at most 500 characters.');
      out[key] = v;
    }
    if (Object.keys(out).length > 50) throw invalidParameter(param, 'Metadata can have at most 50 keys.');
    return out;
  },
});

export const obj = <S extends Shape>(shape: S): Field<Out<S>> =>
  field((value, param) => parseShape(value, shape, param));

/** qs yields an array, or an object with numeric keys past its array limit: both are accepted. */
export const arr = <T>(of: Field<T, boolean>, maxItems = 100): Field<T[]> =>
  field((value, param) => {
    const items = toArray(value);
    if (!items) throw invalidParameter(param, 'Invalid array');
    if (items.length > maxItems)
      throw invalidParameter(param, `Invalid array: must contain at most ${maxItems} items`);
    return items.map((item, index) => {
      const itemParam = `${param}[${index}]`;
      if (item === undefined || item === '') {
        if (of.required) throw missingParameter(itemParam);
      }
      return of.parse(item, itemParam);
    });
  });

function toArray(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (isPlainObject(value)) {
    const keys = Object.keys(value);
    if (keys.every((k) => /^\d+$/.test(k)))
      return keys.sort((a, b) => Number(a) - Number(b)).map((k) => value[k]);
  }
  return undefined;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Validates `input` against `shape`; `prefix` is the bracketed parameter path of nested objects. */
export function parseShape<S extends Shape>(input: unknown, shape: S, prefix?: string): Out<S> {
  const name = (key: string) => (prefix ? `${prefix}[${key}]` : key);
  if (input === undefined || input === '') input = {};
  if (!isPlainObject(input)) throw invalidParameter(prefix ?? '', 'Invalid object');
  for (const key of Object.keys(input)) {
    if (!(key in shape)) throw unknownParameter(name(key));
  }
  const out: Record<string, unknown> = {};
  for (const [key, f] of Object.entries(shape)) {
    const value = input[key];
    if (value === '' && f.empty) {
      out[key] = f.empty();
      continue;
    }
    if (value === '' && f.clearable) {
      out[key] = null;
      continue;
    }
    if (value === undefined || value === '') {
      if (f.required) throw missingParameter(name(key));
      continue;
    }
    out[key] = f.parse(value, name(key));
  }
  return out as Out<S>;
}

/** Every request may carry `expand[]`. */
export const expandField = arr(str(), 20);

/** Stripe's metadata update: keys merge, a key set to '' is removed, `metadata=''` clears all. */
export function mergeMetadata(current: Record<string, string>, update: Record<string, string> | undefined) {
  if (update === undefined) return current;
  if (!Object.keys(update).length) return {};
  const out = { ...current, ...update };
  for (const [key, value] of Object.entries(update)) if (value === '') delete out[key];
  return out;
}

/**
 * `automatic_payment_methods[enabled|allow_redirects]` on intents. Only cards exist on stripe-local, so
 * enabled or not the intent takes cards; what was asked is kept and answered. Not combined with
 * `allowed_payment_method_types` (Stripe refuses both at once).
 */
export const automaticPaymentMethods = () =>
  obj({ enabled: req(bool()), allow_redirects: oneOf('always', 'never') });

export function resolveAutomaticPaymentMethods(params: {
  automatic_payment_methods?: { enabled: boolean; allow_redirects?: 'always' | 'never' };
  allowed_payment_method_types?: string[];
}): { enabled: boolean; allowRedirects: 'always' | 'never' } | null {
  const apm = params.automatic_payment_methods;
  if (apm && params.allowed_payment_method_types)
    throw invalidParameter(
      'automatic_payment_methods',
      'You may only specify one of these parameters: automatic_payment_methods, allowed_payment_method_types.',
    );
  if (apm?.allow_redirects && !apm.enabled)
    throw invalidParameter(
      'automatic_payment_methods[allow_redirects]',
      'allow_redirects can only be set when automatic_payment_methods[enabled] is true.',
    );
  if (apm) return { enabled: apm.enabled, allowRedirects: apm.allow_redirects ?? 'always' };
  // Since 2023-08-16 Stripe enables them by default when no payment method types are given.
  return params.allowed_payment_method_types ? null : { enabled: true, allowRedirects: 'always' };
}
