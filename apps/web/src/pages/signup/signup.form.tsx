import { Button, Checkbox, Form, Input } from 'antd';
import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { MSG, SignupForm as SignupSchema } from '@helix/shared';
import { joinByInvite, register } from '../../api/auth.api';
import { AgreeToTerms } from '../../components/agree-to-terms';
import { GoogleSignIn } from '../../components/google-sign-in';
import { applyServerErrors } from '../../forms/server-errors';
import { useTypedBeforeHydration } from '../../forms/typed-before-hydration';
import { zodRule } from '../../forms/zod-rule';
import { startSession } from '../../session/session';
import { toastSuccess } from '../../ui/notify';

interface SignupValues {
  name: string;
  user_name: string;
  email: string;
  password: string;
  terms: boolean;
  emailstatus: boolean;
}

const FIELDS = ['name', 'user_name', 'email', 'password'] as const;

/**
 * Step 1 of the sign-up flow. With an invitation `?token=` it joins the inviting tenant instead of
 * creating a new one.
 */
export function SignupForm() {
  const [form] = Form.useForm<SignupValues>();
  const [busy, setBusy] = useState(false);
  const [params] = useSearchParams();
  const inviteToken = params.get('token');
  useTypedBeforeHydration(form, 'signup', ['name', 'user_name', 'email', 'password', 'terms', 'emailstatus']);

  const onFinish = async (values: SignupValues) => {
    const parsed = SignupSchema.safeParse(values);
    if (!parsed.success) return;
    // The terms tick never leaves the browser.
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
      applyServerErrors(form, error, FIELDS);
      setBusy(false);
    }
  };

  return (
    <Form<SignupValues>
      form={form}
      name="signup"
      layout="vertical"
      requiredMark={false}
      initialValues={{ emailstatus: false, terms: false }}
      onFinish={(values) => void onFinish(values)}
    >
      <Form.Item label="Name" name="name" rules={[zodRule(SignupSchema, 'name')]}>
        <Input autoComplete="name" />
      </Form.Item>
      <Form.Item
        label="Username"
        name="user_name"
        rules={[zodRule(SignupSchema, 'user_name')]}
        extra="Lowercase letters, optionally followed by numbers."
      >
        <Input autoComplete="username" autoCapitalize="none" spellCheck={false} />
      </Form.Item>
      <Form.Item label="Email" name="email" rules={[zodRule(SignupSchema, 'email')]}>
        <Input type="email" autoComplete="email" inputMode="email" />
      </Form.Item>
      <Form.Item
        label="Password"
        name="password"
        rules={[zodRule(SignupSchema, 'password')]}
        extra={MSG.passwordRuleHint}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item name="terms" valuePropName="checked" rules={[zodRule(SignupSchema, 'terms')]}>
        <Checkbox>
          <AgreeToTerms />
        </Checkbox>
      </Form.Item>
      <Form.Item name="emailstatus" valuePropName="checked">
        <Checkbox>Send me news and product updates by e-mail</Checkbox>
      </Form.Item>
      <Button type="primary" htmlType="submit" block loading={busy}>
        Sign Up
      </Button>
      <GoogleSignIn type="signup" />
    </Form>
  );
}
