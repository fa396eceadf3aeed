import { z } from 'zod';
import { MSG } from '../messages.ts';

/**
 * Text rules every request schema shares. Control characters (NUL above all: PostgreSQL refuses it in
 * text) never belong in a one-line field or a query parameter, so they are a clear 400 instead of a
 * database error.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

const noControlCharacters = (value: string) => !CONTROL_CHARACTERS.test(value);

/** A required one-line text: trimmed, not empty (`message`), at most `max`, no control characters. */
export const requiredText = (message: string, max: number) =>
  z
    .string({ error: message })
    .trim()
    .min(1, { error: message })
    .max(max, { error: MSG.tooLong(max) })
    .refine(noControlCharacters, { error: MSG.invalidCharacters });

/** An optional one-line text (no control characters). */
export const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, { error: MSG.tooLong(max) })
    .refine(noControlCharacters, { error: MSG.invalidCharacters })
    .optional();

/**
 * An opaque value a client passes back as it got it (a token, a ticket, a one-time code): taken as
 * is (not trimmed), at most `max`, no control characters.
 */
export const opaqueText = (max: number) =>
  z
    .string()
    .max(max, { error: MSG.tooLong(max) })
    .refine(noControlCharacters, { error: MSG.invalidCharacters });
