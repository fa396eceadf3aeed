import type { FormInstance } from 'antd';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { applyServerErrors } from '../forms/server-errors';
import { readAnswer } from './client';
import { setClientEffects } from './client-effects';

const answer = (status: number, body: object) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const fakeForm = () =>
  ({ setFields: vi.fn() }) as unknown as FormInstance & { setFields: ReturnType<typeof vi.fn> };

/** One way to show an error: under the field when a form shows it, as a toast otherwise. */
describe('a failed call is shown once', () => {
  const toasts: string[] = [];
  beforeEach(() => {
    vi.useFakeTimers();
    toasts.length = 0;
    setClientEffects({
      multipleLogin: () => undefined,
      logout: () => undefined,
      toastError: (m) => toasts.push(m),
    });
  });
  afterEach(() => vi.useRealTimers());

  it('a failure without field errors is toasted at once', async () => {
    await expect(
      readAnswer(answer(409, { statusCode: 409, error: 'Conflict', message: 'Taken' }), true),
    ).rejects.toThrow('Taken');
    expect(toasts).toEqual(['Taken']);
  });

  it('field errors the form shows under its fields are not toasted too', async () => {
    const form = fakeForm();
    const failure = await readAnswer(
      answer(400, {
        statusCode: 400,
        error: 'Bad Request',
        message: 'Invalid',
        errors: { name: 'Too long' },
      }),
      true,
    ).catch((e: unknown) => e);
    applyServerErrors(form, failure, ['name']);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(form.setFields).toHaveBeenCalledWith([{ name: 'name', errors: ['Too long'] }]);
    expect(toasts).toEqual([]);
  });

  it('a field error the form has no field for is toasted', async () => {
    const form = fakeForm();
    const failure = await readAnswer(
      answer(400, {
        statusCode: 400,
        error: 'Bad Request',
        message: 'Invalid',
        errors: { name: 'x', other: 'y' },
      }),
      true,
    ).catch((e: unknown) => e);
    applyServerErrors(form, failure, ['name']);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(toasts).toEqual(['Invalid']);
  });

  it('field errors nobody shows are toasted', async () => {
    await readAnswer(
      answer(422, {
        statusCode: 422,
        error: 'Unprocessable',
        message: 'Rows invalid',
        errors: { 'users.1': 'x' },
      }),
      true,
    ).catch(() => undefined);
    expect(toasts).toEqual([]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(toasts).toEqual(['Rows invalid']);
  });
});
