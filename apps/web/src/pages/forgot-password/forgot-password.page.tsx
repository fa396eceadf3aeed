import { Alert, Button, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { ForgotPasswordRequest, MSG } from '@helix/shared';
import { sendPasswordResetToken } from '../../api/auth.api';
import { applyServerErrors } from '../../forms/server-errors';
import { zodRule } from '../../forms/zod-rule';
import { useBrandParam, withBrand } from '../../routing/use-brand';
import { toastSuccess } from '../../ui/notify';
import { PageTitle } from '../../ui/page-title';

interface ForgotValues {
  email: string;
}

export function ForgotPasswordPage() {
  const [form] = Form.useForm<ForgotValues>();
  const [busy, setBusy] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const brand = useBrandParam();

  const onFinish = async (values: ForgotValues) => {
    const parsed = ForgotPasswordRequest.safeParse({ email: values.email });
    if (!parsed.success) return;
    setBusy(true);
    try {
      await sendPasswordResetToken(parsed.data.email, brand ?? undefined);
      toastSuccess(MSG.resetEmailSent(parsed.data.email));
      setSentTo(parsed.data.email);
    } catch (error) {
      applyServerErrors(form, error, ['email']);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <PageTitle title="Forgot password" />
      <Typography.Title level={1} className="auth-title">
        Forgot password
      </Typography.Title>
      {sentTo && <Alert type="success" showIcon title={MSG.resetEmailSent(sentTo)} className="form-alert" />}
      <Form<ForgotValues>
        form={form}
        name="forgot-password"
        layout="vertical"
        requiredMark={false}
        onFinish={(v) => void onFinish(v)}
      >
        <Form.Item label="Email" name="email" rules={[zodRule(ForgotPasswordRequest, 'email')]}>
          <Input type="email" autoComplete="email" inputMode="email" />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={busy}>
          Send reset link
        </Button>
      </Form>
      <p className="auth-switch">
        <Link to={withBrand('/login', brand)}>Back to login</Link>
      </p>
    </>
  );
}
