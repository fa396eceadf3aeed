import { Button, Checkbox, Form } from 'antd';
// The two inputs themselves, not antd's Input namespace (which brings TextArea, Search and OTP into
// the first page's download; apps/web/README.md, "Loading").
import Input from 'antd/es/input/Input';
import Password from 'antd/es/input/Password';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { LoginRequest } from '@helix/shared';
import { login } from '../../api/auth.api';
import { GoogleSignIn } from '../../components/google-sign-in';
import { applyServerErrors } from '../../forms/server-errors';
import { useTypedBeforeHydration } from '../../forms/typed-before-hydration';
import { zodRule } from '../../forms/zod-rule';
import { useBrandParam, withBrand } from '../../routing/use-brand';
import { startSession } from '../../session/session';

interface LoginValues {
  email: string;
  password: string;
  rememberMe: boolean;
}

const FIELDS = ['email', 'password'] as const;

export function LoginForm() {
  const [form] = Form.useForm<LoginValues>();
  const [busy, setBusy] = useState(false);
  const [params] = useSearchParams();
  const brand = useBrandParam();
  useTypedBeforeHydration(form, 'login', ['email', 'password', 'rememberMe']);
  const onFinish = async (values: LoginValues) => {
    const parsed = LoginRequest.safeParse({ ...values, token: params.get('token') ?? undefined });
    if (!parsed.success) return;
    setBusy(true);
    try {
      const answer = await login(parsed.data);
      // The route guard moves the now signed-in user on (to the page they asked for, or home).
      startSession({ ...answer, authType: answer.authType ?? 'is-loggedin' }, values.rememberMe);
    } catch (error) {
      applyServerErrors(form, error, FIELDS);
      setBusy(false);
    }
  };

  return (
    <Form<LoginValues>
      form={form}
      name="login"
      layout="vertical"
      requiredMark={false}
      initialValues={{ rememberMe: false }}
      onFinish={(values) => void onFinish(values)}
    >
      <Form.Item label="Email" name="email" rules={[zodRule(LoginRequest, 'email')]}>
        <Input type="email" autoComplete="email" inputMode="email" />
      </Form.Item>
      <Form.Item label="Password" name="password" rules={[zodRule(LoginRequest, 'password')]}>
        <Password autoComplete="current-password" />
      </Form.Item>
      <div className="form-row">
        <Form.Item name="rememberMe" valuePropName="checked" noStyle>
          <Checkbox>Remember me</Checkbox>
        </Form.Item>
        <Link to={withBrand('/forgot-password', brand)}>Forgot password?</Link>
      </div>
      <Button type="primary" htmlType="submit" block loading={busy}>
        Log In
      </Button>
      <GoogleSignIn type="login" />
    </Form>
  );
}
