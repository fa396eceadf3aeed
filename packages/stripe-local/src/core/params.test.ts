import { describe, expect, it } from 'vitest';
import { type StripeError } from './errors.ts';
import {
  arr,
  bool,
  clearable,
  int,
  mergeMetadata,
  metadata,
  obj,
  oneOf,
  parseShape,
  req,
  str,
  timestampOrNow,
} from './params.ts';

const errorOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return (error as StripeError).body;
  }
  throw new Error('expected a StripeError');
};

describe('Stripe parameter rules', () => {
  const shape = {
    customer: req(str()),
    quantity: int(0),
    items: arr(obj({ price: req(str()), quantity: int(1) })),
    cancel: bool(),
    trial_end: timestampOrNow(),
    behavior: oneOf('a', 'b', 'c'),
    description: clearable(str()),
    metadata: metadata(),
  };

  it('parses form values into typed values', () => {
    expect(
      parseShape(
        {
          customer: 'cus_1',
          quantity: '3',
          items: [{ price: 'p', quantity: '2' }],
          cancel: 'true',
          trial_end: 'now',
          description: '',
          metadata: '',
        },
        shape,
      ),
    ).toEqual({
      customer: 'cus_1',
      quantity: 3,
      items: [{ price: 'p', quantity: 2 }],
      cancel: true,
      trial_end: 'now',
      description: null,
      metadata: {},
    });
    // qs turns more than its array limit into an object with numeric keys
    expect(
      parseShape({ customer: 'c', items: { 1: { price: 'b' }, 0: { price: 'a' } } }, shape).items,
    ).toEqual([{ price: 'a' }, { price: 'b' }]);
  });

  it('names the unknown, missing or malformed parameter with its bracket path', () => {
    expect(errorOf(() => parseShape({ customer: 'c', colour: 'x' }, shape))).toMatchObject({
      code: 'parameter_unknown',
      param: 'colour',
    });
    expect(
      errorOf(() => parseShape({ customer: 'c', items: [{ price: 'p', size: '1' }] }, shape)),
    ).toMatchObject({
      code: 'parameter_unknown',
      param: 'items[0][size]',
    });
    expect(errorOf(() => parseShape({}, shape))).toMatchObject({
      code: 'parameter_missing',
      param: 'customer',
    });
    expect(errorOf(() => parseShape({ customer: 'c', items: [{ quantity: '1' }] }, shape))).toMatchObject({
      code: 'parameter_missing',
      param: 'items[0][price]',
    });
    expect(errorOf(() => parseShape({ customer: 'c', quantity: '1.5' }, shape))).toMatchObject({
      code: 'parameter_invalid',
      message: 'Invalid integer: 1.5',
    });
    expect(errorOf(() => parseShape({ customer: 'c', cancel: 'yes' }, shape)).message).toBe(
      'Invalid boolean: yes',
    );
    expect(errorOf(() => parseShape({ customer: 'c', behavior: 'd' }, shape)).message).toBe(
      'Invalid behavior: must be one of a, b, or c',
    );
    expect(errorOf(() => parseShape({ customer: { a: '1' } }, shape)).param).toBe('customer');
  });

  it('merges metadata as Stripe does', () => {
    expect(mergeMetadata({ a: '1', b: '2' }, { b: '', c: '3' })).toEqual({ a: '1', c: '3' });
    expect(mergeMetadata({ a: '1' }, {})).toEqual({});
    expect(mergeMetadata({ a: '1' }, undefined)).toEqual({ a: '1' });
  });
});
