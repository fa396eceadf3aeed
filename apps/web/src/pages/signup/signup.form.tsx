import { Button, Checkbox, theme } from 'antd';
// The two inputs themselves, not antd's Input namespace (pages/login/login.form.tsx).
import Input from 'antd/es/input/Input';
import Password from 'antd/es/input/Password';
import { memo, useState, type CSSProperties, type FocusEvent, type FormEvent, type ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';
import { MSG, SignupForm as SignupSchema } from '@helix/shared';
import { joinByInvite, register } from '../../api/auth.api';
import { AgreeToTerms } from '../../components/agree-to-terms';
import { GoogleSignIn } from '../../components/google-sign-in';
import { FieldMessage, hintId, messageId, PlainField } from '../../forms/plain-field';
import { placeServerErrors } from '../../forms/server-errors';
import { useTypedInput } from '../../forms/typed-before-hydration';
import { fieldIssue, firstIssues } from '../../forms/zod-rule';
import { startSession } from '../../session/session';
import { toastSuccess } from '../../ui/notify';

/** The fields with a message (the server knows the first four; the terms tick never leaves the browser). */
const FIELDS = ['name', 'user_name', 'email', 'password', 'terms'] as const;
const SERVER_FIELDS = ['name', 'user_name', 'email', 'password'] as const;
type Field = (typeof FIELDS)[number];
type TextFieldName = Exclude<Field, 'terms'>;
type Messages = Partial<Record<Field, string>>;

const isField = (name: string): name is Field => (FIELDS as readonly string[]).includes(name);
/** The input ids (antd Form's `{form}_{field}`, which the server's markup and the bench share). */
const idOf = (field: string) => `signup_${field}`;

/** What the form holds now (each input's state is the value it shows). */
function valuesOf(form: HTMLFormElement) {
  const data = new FormData(form);
  const text = (name: TextFieldName) => String(data.get(name) ?? '');
  return {
    name: text('name'),
    user_name: text('user_name'),
    email: text('email'),
    password: text('password'),
    terms: data.get('terms') !== null,
    emailstatus: data.get('emailstatus') !== null,
  };
}

/**
 * Step 1 of the sign-up flow. With an invitation `?token=` it joins the inviting tenant instead of
 * creating a new one. A form that keeps its own messages, as the login form does (docs/web-performance.md,
 * "The login form"): the shared schema validates the whole form once on Sign Up and every message is set
 * in one render (antd's Form rendered each field three times, which made the first tap on a tablet
 * slow); a field is checked again when it is left with something typed, and as it is edited once it
 * has a message.
 */
export function SignupForm() {
  const [messages, setMessages] = useState<Messages>({});
  const [busy, setBusy] = useState(false);
  const [params] = useSearchParams();
  const inviteToken = params.get('token');
  // The school's link colours, which antd's Form gave the links inside it (styles/global.css).
  const { token } = theme.useToken();
  const linkColours = { '--link': token.colorLink, '--link-hover': token.colorLinkHover } as CSSProperties;

  /** One field checked again, the form re-rendered only if its message changed. */
  const recheck = (form: HTMLFormElement, name: Field) => {
    const message = fieldIssue(SignupSchema, valuesOf(form), name);
    if (message !== messages[name]) setMessages((current) => ({ ...current, [name]: message }));
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const parsed = SignupSchema.safeParse(valuesOf(event.currentTarget));
    if (!parsed.success) {
      setMessages(firstIssues(parsed.error.issues, FIELDS));
      return;
    }
    setMessages({});
    const { name, user_name, email, password, emailstatus } = parsed.data;
    const payload = { name, user_name, email, password, emailstatus };
    setBusy(true);
    try {
      const answer = inviteToken
        ? await joinByInvite({ ...payload, token: inviteToken })
        : await register(payload);
      if (answer.message) toastSuccess(answer.message);
      // auth-type is-register: the route guard continues to the plan step when no plan is active yet.
      startSession({ ...answer, authType: answer.authType ?? 'is-register' }, false);
    } catch (error) {
      const placed = placeServerErrors(error, SERVER_FIELDS);
      setMessages(Object.fromEntries(placed.map((p) => [p.name, p.errors[0]])) as Messages);
      setBusy(false);
    }
  };

  const onChange = (event: FormEvent<HTMLFormElement>) => {
    const { name } = event.target as HTMLInputElement;
    if (isField(name) && messages[name] !== undefined) recheck(event.currentTarget, name);
  };

  const onBlur = (event: FocusEvent<HTMLFormElement>) => {
    const input = event.target as unknown;
    if (!(input instanceof HTMLInputElement) || input.type === 'checkbox' || input.value === '') return;
    if (isField(input.name)) recheck(event.currentTarget, input.name);
  };

  return (
    <form
      id="signup"
      className="plain-form"
      style={linkColours}
      onSubmit={(e) => void onSubmit(e)}
      onChange={onChange}
      onBlur={onBlur}
    >
      <TextField field="name" label="Name" autoComplete="name" message={messages.name} />
      <TextField
        field="user_name"
        label="Username"
        autoComplete="username"
        hint="Lowercase letters, optionally followed by numbers."
        message={messages.user_name}
      />
      <TextField field="email" label="Email" autoComplete="email" message={messages.email} />
      <TextField
        field="password"
        label="Password"
        autoComplete="new-password"
        hint={MSG.passwordRuleHint}
        message={messages.password}
      />
      <Tick field="terms" message={messages.terms}>
        <AgreeToTerms />
      </Tick>
      <Tick field="emailstatus">Send me news and product updates by e-mail</Tick>
      <Button type="primary" htmlType="submit" block loading={busy}>
        Sign Up
      </Button>
      <GoogleSignIn type="signup" />
    </form>
  );
}

/** A text field: renders when its own value or its message changes, nothing else. */
const TextField = memo(function TextField({
  field,
  label,
  autoComplete,
  hint,
  message,
}: {
  field: TextFieldName;
  label: string;
  autoComplete: string;
  hint?: string;
  message: string | undefined;
}) {
  const id = idOf(field);
  const [value, setValue] = useTypedInput<string>(id, '');
  const describedBy = [hint ? hintId(id) : null, message ? messageId(id) : null].filter(Boolean).join(' ');
  const props = {
    id,
    name: field,
    value,
    autoComplete,
    onChange: (e: { target: { value: string } }) => setValue(e.target.value),
    status: message ? ('error' as const) : undefined,
    'aria-invalid': message ? true : undefined,
    'aria-describedby': describedBy || undefined,
  };
  return (
    <PlainField id={id} label={label} hint={hint} message={message}>
      {field === 'password' ? (
        <Password {...props} />
      ) : field === 'email' ? (
        <Input type="email" inputMode="email" {...props} />
      ) : field === 'user_name' ? (
        <Input autoCapitalize="none" spellCheck={false} {...props} />
      ) : (
        <Input {...props} />
      )}
    </PlainField>
  );
});

/** A tick box (the terms, the newsletter) with its message line. */
const Tick = memo(function Tick({
  field,
  message,
  children,
}: {
  field: 'terms' | 'emailstatus';
  message?: string;
  children: ReactNode;
}) {
  const id = idOf(field);
  const [checked, setChecked] = useTypedInput<boolean>(id, false);
  return (
    <div className="plain-field">
      <Checkbox
        id={id}
        name={field}
        checked={checked}
        onChange={(e) => setChecked(e.target.checked)}
        aria-invalid={message ? true : undefined}
        aria-describedby={message ? messageId(id) : undefined}
      >
        {children}
      </Checkbox>
      <FieldMessage id={id} message={message} />
    </div>
  );
});
