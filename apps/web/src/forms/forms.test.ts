import { describe, expect, it } from 'vitest';
import { ForgotPasswordRequest, LoginRequest, MSG, SetPasswordForm, SignupForm } from '@helix/shared';
import type { FormInstance } from 'antd';
import { fieldIssue, firstIssues, zodRule } from './zod-rule';
import { toFieldErrors } from './server-errors';

const signup = {
  name: 'Ada',
  user_name: 'ada42',
  email: 'ada@example.com',
  password: 'secret-pw',
  terms: true,
  emailstatus: false,
};

describe('fieldIssue gives the catalogue messages verbatim', () => {
  it('login: empty fields', () => {
    expect(fieldIssue(LoginRequest, {}, 'email')).toBe('Please enter your Email!');
    expect(fieldIssue(LoginRequest, { email: '', password: '' }, 'password')).toBe(
      'Please enter your password!',
    );
    expect(fieldIssue(LoginRequest, { email: '  ', password: 'x' }, 'email')).toBe(MSG.loginEmailRequired);
  });

  it('login: a valid form has no issues even with the remember-me box', () => {
    expect(
      fieldIssue(LoginRequest, { email: 'a@b.co', password: 'x', rememberMe: true }, 'email'),
    ).toBeUndefined();
  });

  it('sign-up: each rule', () => {
    // One password rule for every new password (sign-up, set password, add user): at least 8 characters.
    expect(fieldIssue(SignupForm, { ...signup, password: '1234567' }, 'password')).toBe(MSG.passwordMin8);
    expect(fieldIssue(SignupForm, { ...signup, password: '12345678' }, 'password')).toBeUndefined();
    expect(fieldIssue(SignupForm, { ...signup, name: '' }, 'name')).toBe('Please enter your name!');
    expect(fieldIssue(SignupForm, { ...signup, user_name: '' }, 'user_name')).toBe(
      'Please enter your username!',
    );
    expect(fieldIssue(SignupForm, { ...signup, user_name: 'Ada' }, 'user_name')).toBe(
      'Only lowercases letter followed by numbers are allowed',
    );
    expect(fieldIssue(SignupForm, { ...signup, user_name: '42ada' }, 'user_name')).toBe(MSG.usernameRule);
    expect(fieldIssue(SignupForm, { ...signup, email: undefined }, 'email')).toBe('Please enter your email!');
    expect(fieldIssue(SignupForm, { ...signup, email: 'nope' }, 'email')).toBe(MSG.emailInvalid);
    expect(fieldIssue(SignupForm, { ...signup, password: '' }, 'password')).toBe(
      'Please enter your password!',
    );
    expect(fieldIssue(SignupForm, { ...signup, terms: false }, 'terms')).toBe(
      'Please Agree To Privacy Policy',
    );
    expect(fieldIssue(SignupForm, { ...signup, terms: undefined }, 'terms')).toBe(MSG.agreePrivacy);
    expect(fieldIssue(SignupForm, signup, 'user_name')).toBeUndefined();
  });

  it('sign-up: an issue of another field does not leak', () => {
    expect(fieldIssue(SignupForm, { ...signup, terms: false }, 'email')).toBeUndefined();
  });

  it('forgot password: email required', () => {
    expect(fieldIssue(ForgotPasswordRequest, {}, 'email')).toBe(MSG.emailRequired);
  });

  it('set password: length and confirmation', () => {
    expect(fieldIssue(SetPasswordForm, { password: 'short', confirm: 'short' }, 'password')).toBe(
      'Password must be atleast 8 characters long!',
    );
    expect(fieldIssue(SetPasswordForm, { password: 'longenough', confirm: 'different' }, 'confirm')).toBe(
      'Password does not match!',
    );
    expect(fieldIssue(SetPasswordForm, { password: 'longenough', confirm: '' }, 'confirm')).toBe(
      MSG.passwordMismatch,
    );
    expect(
      fieldIssue(SetPasswordForm, { password: 'longenough', confirm: 'longenough' }, 'confirm'),
    ).toBeUndefined();
  });
});

describe("firstIssues: one validation, every field's message", () => {
  const issuesOf = (values: unknown) => {
    const result = LoginRequest.safeParse(values);
    return result.success ? [] : result.error.issues;
  };
  it('login with nothing typed: both messages, verbatim', () => {
    expect(firstIssues(issuesOf({ email: '', password: '' }), ['email', 'password'])).toEqual({
      email: MSG.loginEmailRequired,
      password: MSG.loginPasswordRequired,
    });
  });
  it('only the fields asked for, and none for a valid form', () => {
    expect(firstIssues(issuesOf({ email: 'a@b.co', password: '' }), ['email', 'password'])).toEqual({
      password: MSG.loginPasswordRequired,
    });
    expect(firstIssues(issuesOf({ email: '', password: '' }), ['password'])).toEqual({
      password: MSG.loginPasswordRequired,
    });
    expect(firstIssues(issuesOf({ email: 'a@b.co', password: 'x' }), ['email', 'password'])).toEqual({});
  });
});

describe('zodRule', () => {
  const formWith = (values: Record<string, unknown>) =>
    ({ getFieldsValue: () => values }) as unknown as FormInstance;
  const validate = (values: Record<string, unknown>, field: string) => {
    const rule = zodRule(SignupForm, field);
    if (typeof rule !== 'function') throw new Error('expected a rule function');
    const { validator } = rule(formWith(values));
    return validator?.({} as never, values[field], () => undefined);
  };

  it('rejects with the schema message', async () => {
    await expect(validate({ ...signup, user_name: 'BAD' }, 'user_name')).rejects.toThrow(MSG.usernameRule);
  });
  it('resolves for a valid field', async () => {
    await expect(validate(signup, 'user_name')).resolves.toBeUndefined();
  });
});

describe('toFieldErrors', () => {
  const fields = ['email', 'user_name'];
  it('maps an errors object onto known fields', () => {
    expect(toFieldErrors({ email: MSG.emailTaken, other: 'x' }, fields)).toEqual([
      { name: 'email', errors: [MSG.emailTaken] },
    ]);
  });
  it('ignores a string or anything else', () => {
    expect(toFieldErrors('Bad things', fields)).toEqual([]);
    expect(toFieldErrors(undefined, fields)).toEqual([]);
    expect(toFieldErrors(['email'], fields)).toEqual([]);
  });
});
