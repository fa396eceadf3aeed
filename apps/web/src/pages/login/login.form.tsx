import { Button, Checkbox, theme } from 'antd';
// The two inputs themselves, not antd's Input namespace (which brings TextArea, Search and OTP into
// the first page's download; apps/web/README.md, "Loading").
import Input from 'antd/es/input/Input';
import Password from 'antd/es/input/Password';
import { memo, useState, type CSSProperties, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { LoginRequest } from '@helix/shared';
import { login } from '../../api/auth.api';
import { GoogleSignIn } from '../../components/google-sign-in';
import { messageId, PlainField } from '../../forms/plain-field';
import { placeServerErrors } from '../../forms/server-errors';
import { useTypedInput } from '../../forms/typed-before-hydration';
import { fieldIssue, firstIssues } from '../../forms/zod-rule';
import { useBrandParam, withBrand } from '../../routing/use-brand';
import { startSession } from '../../session/session';

const FIELDS = ['email', 'password'] as const;
type Field = (typeof FIELDS)[number];
type Messages = Partial<Record<Field, string>>;

const isField = (name: string): name is Field => (FIELDS as readonly string[]).includes(name);

/** What the form holds now: its inputs' values (each input's state is the value it shows). */
function valuesOf(form: HTMLFormElement) {
  const data = new FormData(form);
  return {
    email: String(data.get('email') ?? ''),
    password: String(data.get('password') ?? ''),
    rememberMe: data.get('rememberMe') !== null,
  };
}

/**
 * The login form (the first screen of most visits; docs/web-performance.md, "The login form"). Not
 * antd's Form: that validates each field as its own asynchronous cycle and renders every field three
 * times on a submit (validating, the message, the message's motion). Here the shared schema validates
 * the whole form once on submit and the messages are set in one render; each input keeps its own
 * state, so typing re-renders that input only; a field with a message is validated again as it is
 * edited (the message goes once the field is right), and the form re-renders only if its message
 * changed. The inputs keep antd's ids (`login_email`...), which the page's markup and the code reading
 * what was typed before hydration share.
 */
export function LoginForm() {
  const [messages, setMessages] = useState<Messages>({});
  const [busy, setBusy] = useState(false);
  const [params] = useSearchParams();
  const brand = useBrandParam();
  // The school's link colours, which antd's Form gave the links inside it (styles/global.css).
  const { token } = theme.useToken();
  const linkColours = { '--link': token.colorLink, '--link-hover': token.colorLinkHover } as CSSProperties;

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const values = valuesOf(event.currentTarget);
    const parsed = LoginRequest.safeParse({ ...values, token: params.get('token') ?? undefined });
    if (!parsed.success) {
      setMessages(firstIssues(parsed.error.issues, FIELDS));
      return;
    }
    setMessages({});
    setBusy(true);
    try {
      const answer = await login(parsed.data);
      // The route guard moves the now signed-in user on (to the page they asked for, or home).
      startSession({ ...answer, authType: answer.authType ?? 'is-loggedin' }, values.rememberMe);
    } catch (error) {
      const placed = placeServerErrors(error, FIELDS);
      setMessages(Object.fromEntries(placed.map((p) => [p.name, p.errors[0]])) as Messages);
      setBusy(false);
    }
  };

  const onChange = (event: FormEvent<HTMLFormElement>) => {
    const { name } = event.target as HTMLInputElement;
    if (!isField(name) || messages[name] === undefined) return;
    const message = fieldIssue(LoginRequest, valuesOf(event.currentTarget), name);
    if (message !== messages[name]) setMessages((current) => ({ ...current, [name]: message }));
  };

  return (
    <form
      id="login"
      className="plain-form"
      style={linkColours}
      onSubmit={(e) => void onSubmit(e)}
      onChange={onChange}
    >
      <TextField field="email" label="Email" message={messages.email} />
      <TextField field="password" label="Password" message={messages.password} />
      <div className="form-row">
        <RememberMe />
        <Link to={withBrand('/forgot-password', brand)}>Forgot password?</Link>
      </div>
      <Button type="primary" htmlType="submit" block loading={busy}>
        Log In
      </Button>
      <GoogleSignIn type="login" />
    </form>
  );
}

/** The email or password field: renders when its own value or its message changes, nothing else. */
const TextField = memo(function TextField({
  field,
  label,
  message,
}: {
  field: Field;
  label: string;
  message: string | undefined;
}) {
  const id = `login_${field}`;
  const [value, setValue] = useTypedInput<string>(id, '');
  const props = {
    id,
    name: field,
    value,
    onChange: (e: { target: { value: string } }) => setValue(e.target.value),
    status: message ? ('error' as const) : undefined,
    'aria-invalid': message ? true : undefined,
    'aria-describedby': message ? messageId(id) : undefined,
  };
  return (
    <PlainField id={id} label={label} message={message}>
      {field === 'password' ? (
        <Password autoComplete="current-password" {...props} />
      ) : (
        <Input type="email" autoComplete="email" inputMode="email" {...props} />
      )}
    </PlainField>
  );
});

const RememberMe = memo(function RememberMe() {
  const [checked, setChecked] = useTypedInput<boolean>('login_rememberMe', false);
  return (
    <Checkbox
      id="login_rememberMe"
      name="rememberMe"
      checked={checked}
      onChange={(e) => setChecked(e.target.checked)}
    >
      Remember me
    </Checkbox>
  );
});
