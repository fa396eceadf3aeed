import { Button, Checkbox, Form, Input } from 'antd';
import { useState } from 'react';
import { MSG } from '@helix/shared';
import { InvitationForm, type InvitationView } from '@helix/shared/schemas/invitation';
import { acceptInvitation } from '../../api/invitation.api';
import { ApiError } from '../../api/api-error';
import { AgreeToTerms } from '../../components/agree-to-terms';
import { applyServerErrors } from '../../forms/server-errors';
import { zodRule } from '../../forms/zod-rule';
import { startSession } from '../../session/session';

interface JoinValues {
  email: string;
  name: string;
  password: string;
  terms: boolean;
}

const FIELDS = ['name', 'password'] as const;

/**
 * The join form of an open invitation: the e-mail is the invitation's (read-only), the name as the
 * school typed it (editable), a password under the one rule, the terms. Join signs the invitee in; the
 * route guard then takes them to their home. A link that died meanwhile (used in another tab,
 * replaced by a newer invitation) makes the page look again and say so.
 */
export function InvitationJoinForm(props: {
  invitation: Extract<InvitationView, { state: 'open' }>;
  token: string;
  onDead: () => void;
}) {
  const [form] = Form.useForm<JoinValues>();
  const [busy, setBusy] = useState(false);

  const onFinish = async (values: JoinValues) => {
    // The e-mail is shown, not sent: the invitation decides it.
    const parsed = InvitationForm.safeParse({
      name: values.name,
      password: values.password,
      terms: values.terms,
    });
    if (!parsed.success) return;
    setBusy(true);
    try {
      const { name, password } = parsed.data;
      const answer = await acceptInvitation({ token: props.token, name, password });
      startSession(answer, false);
    } catch (error) {
      setBusy(false);
      if (error instanceof ApiError && error.errors && 'token' in error.errors) {
        error.shownInForm = true;
        props.onDead();
        return;
      }
      applyServerErrors(form, error, FIELDS);
    }
  };

  return (
    <Form<JoinValues>
      form={form}
      name="invitation"
      layout="vertical"
      requiredMark={false}
      initialValues={{ email: props.invitation.email, name: props.invitation.name, terms: false }}
      onFinish={(values) => void onFinish(values)}
    >
      <Form.Item label="Email" name="email" extra={MSG.invitationEmailFixed}>
        <Input type="email" readOnly aria-readonly="true" autoComplete="username" />
      </Form.Item>
      <Form.Item label="Name" name="name" rules={[zodRule(InvitationForm, 'name')]}>
        <Input autoComplete="name" />
      </Form.Item>
      <Form.Item
        label="Password"
        name="password"
        rules={[zodRule(InvitationForm, 'password')]}
        extra={MSG.passwordRuleHint}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item name="terms" valuePropName="checked" rules={[zodRule(InvitationForm, 'terms')]}>
        <Checkbox>
          <AgreeToTerms />
        </Checkbox>
      </Form.Item>
      <Button type="primary" htmlType="submit" block loading={busy}>
        {MSG.invitationJoin}
      </Button>
    </Form>
  );
}
