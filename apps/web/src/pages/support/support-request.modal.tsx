import { CameraOutlined } from '@ant-design/icons';
import { Alert, Button, Form, Input, Modal, Typography } from 'antd';
import { useState } from 'react';
import { MSG } from '@helix/shared';
import { SUPPORT_LIMITS, SupportRequestCreate } from '@helix/shared/schemas/support';
import { SUPPORT_TARGETS } from '@helix/shared/support';
import { ApiError } from '../../api/api-error';
import { ImagePicker, imageRule, type ImageValue } from '../../components/image-picker/image-picker';
import { applyServerErrors } from '../../forms/server-errors';
import { zodRule } from '../../forms/zod-rule';
import { abilitiesOf } from '../../session/session-user';
import { useSessionUser } from '../../session/use-session';
import { toastError, toastSuccess } from '../../ui/notify';
import { sendSupportRequest } from './support.api';

interface SupportFormValues {
  subject: string;
  message: string;
  screenshot?: ImageValue;
}

const FIELDS = ['subject', 'message', 'screenshot'] as const;

/**
 * The Help entry's form (issue 10): subject, message and an optional screenshot, checked with the
 * shared schema and the screenshot's image rule before sending. After sending it says which response
 * target the request got (the server decides: fast-track for plans with it, standard otherwise).
 */
export function SupportRequestModal({ open, onClose }: { open: boolean; onClose(): void }) {
  const [form] = Form.useForm<SupportFormValues>();
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState<string | null>(null);
  const user = useSessionUser();
  // A hint only (the session's ability): the server decides the tier again at each request.
  const expected = abilitiesOf(user).prioritySupport ? 'priority' : 'standard';

  const close = () => {
    if (busy) return;
    form.resetFields();
    setSent(null);
    onClose();
  };

  const onFinish = async (values: SupportFormValues) => {
    setBusy(true);
    try {
      const answer = await sendSupportRequest({
        subject: values.subject,
        message: values.message,
        screenshot: values.screenshot?.file ?? undefined,
      });
      toastSuccess(answer.message);
      setSent(answer.message);
    } catch (error) {
      // The client already toasted a server failure; anything else is a bug worth saying so.
      if (error instanceof ApiError) applyServerErrors(form, error, FIELDS);
      else {
        console.error(error);
        toastError(MSG.defaultError);
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={open}
      title="Help"
      onCancel={close}
      destroyOnHidden
      maskClosable={!busy}
      footer={
        sent
          ? [
              <Button key="close" type="primary" onClick={close}>
                Close
              </Button>,
            ]
          : [
              <Button key="cancel" onClick={close} disabled={busy}>
                Cancel
              </Button>,
              <Button key="send" type="primary" htmlType="submit" form="support-request-form" loading={busy}>
                Send
              </Button>,
            ]
      }
    >
      {sent ? (
        <Alert type="success" showIcon message={sent} data-testid="support-sent" />
      ) : (
        <Form<SupportFormValues>
          id="support-request-form"
          form={form}
          layout="vertical"
          disabled={busy}
          onFinish={(values) => void onFinish(values)}
        >
          <Typography.Paragraph type="secondary">
            {`Tell us what you need help with. We aim to answer within ${SUPPORT_TARGETS[expected].label}.`}
          </Typography.Paragraph>
          <Form.Item label="Subject" name="subject" rules={[zodRule(SupportRequestCreate, 'subject')]}>
            <Input maxLength={SUPPORT_LIMITS.subject} autoFocus />
          </Form.Item>
          <Form.Item label="Message" name="message" rules={[zodRule(SupportRequestCreate, 'message')]}>
            <Input.TextArea rows={6} maxLength={SUPPORT_LIMITS.message} showCount />
          </Form.Item>
          <Form.Item
            label="Screenshot (optional)"
            name="screenshot"
            rules={[imageRule('screenshot')]}
            extra="JPEG, PNG, WebP or SVG, at most 5 MB."
          >
            <ImagePicker label="Screenshot" fallback={<CameraOutlined aria-hidden />} />
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}
