import { randomInt } from 'node:crypto';
import { LESSON_CODE_ALPHABET, LESSON_LIMITS } from '@helix/shared/lessons';

/** A join code: LESSON_LIMITS.codeLength characters of LESSON_CODE_ALPHABET, from the CSPRNG. */
export function newLessonCode(): string {
  let code = '';
  for (let i = 0; i < LESSON_LIMITS.codeLength; i += 1) {
    code += LESSON_CODE_ALPHABET[randomInt(LESSON_CODE_ALPHABET.length)];
  }
  return code;
}
