import { Alert, Button, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { MSG, SetPasswordForm } from '@helix/shared';
import { resetPassword } from '../../api/auth.api';
import { applyServerErrors } from '../../forms/server-errors';
import { zodRule } from '../../forms/zod-rule';
import { useBrandParam, withBrand } from '../../routing/use-brand';
import { toastSuccess } from '../../ui/notify';
import { PageTitle } from '../../ui/page-title';

interface SetPasswordValues {
  password: string;
  confirm: string;
}

/** Reached from the e-mail link with `?token=`; also used for an invited user's first password. */
export function SetPasswordPage() {
  const [form] = Form.useForm<SetPasswordValues>();
  const [busy, setBusy] = useState(false);
  const [params] = useSearchParams();
  const token = params.get('token');
  const brand = useBrandParam();
  const navigate = useNavigate();

  const onFinish = async (values: SetPasswordValues) => {
    const parsed = SetPasswordForm.safeParse(values);
    if (!parsed.success || !token) return;
    setBusy(true);
    try {
      await resetPassword(token, parsed.data.password);
      toastSuccess(MSG.passwordUpdated);
      void navigate(withBrand('/login', brand), { replace: true });
    } catch (error) {
      applyServerErrors(form, error, ['password']);
      setBusy(false);
    }
  };

  return (
    <>
      <PageTitle title="Set password" />
      <Typography.Title level={1} className="auth-title">
        Set password
      </Typography.Title>
      {!token ? (
        <Alert
          type="error"
          showIcon
          title={MSG.resetTokenInvalid}
          description={<Link to={withBrand('/forgot-password', brand)}>Ask for a new link</Link>}
        />
      ) : (
        <Form<SetPasswordValues>
          form={form}
          name="set-password"
          layout="vertical"
          requiredMark={false}
          onFinish={(v) => void onFinish(v)}
        >
          <Form.Item
            label="New password"
            name="password"
            rules={[zodRule(SetPasswordForm, 'password')]}
            extra={MSG.passwordRuleHint}
          >
            <Input.Password autoComplete="new-password" />
          </Form.Item>
          <Form.Item
            label="Confirm password"
            name="confirm"
            dependencies={['password']}
            rules={[zodRule(SetPasswordForm, 'confirm')]}
          >
            <Input.Password autoComplete="new-password" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={busy}>
            Set Password
          </Button>
        </Form>
      )}
      <p className="auth-switch">
        <Link to={withBrand('/login', brand)}>Back to login</Link>
      </p>
    </>
  );
}
