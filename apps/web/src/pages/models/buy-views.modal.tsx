import { Form, Input, Modal, Typography } from 'antd';
import { useState } from 'react';
import { MSG } from '@helix/shared';
import { VIEWS_PER_BLOCK } from '@helix/shared/schemas/billing';
import { buyViews } from '../../api/billing.api';
import { formatCents } from '../../models/model-listing';
import type { ModelViews } from '../../models/models.api';
import { viewBlocksError } from '../../plans/quantity';
import { goToProvider, portalUrl } from '../../billing/provider-redirect';

interface BuyViewsValues {
  quantity: string;
}

/**
 * Add Views (administration-content 2 and 9): how many blocks of 1,000 views (minimum 1, default 1),
 * paid once on the provider's hosted Checkout; the success page refreshes and returns to the grid.
 */
export function BuyViewsModal({ views, onClose }: { views: ModelViews | null; onClose(): void }) {
  const [form] = Form.useForm<BuyViewsValues>();
  const [busy, setBusy] = useState(false);
  const blocks = Form.useWatch('quantity', form);
  const price = views?.additionalViewsPrice ?? 0;
  const valid = viewBlocksError(blocks) === null;

  const onFinish = async ({ quantity }: BuyViewsValues) => {
    setBusy(true);
    try {
      goToProvider(
        await buyViews({
          quantity: Number(quantity),
          successUrl: portalUrl('/success/views'),
          cancelUrl: portalUrl(window.location.pathname),
        }),
      );
    } catch {
      // The client has shown the server's message.
      setBusy(false);
    }
  };

  return (
    <Modal
      open
      title="Add Views"
      okText="Buy Views"
      onOk={() => form.submit()}
      onCancel={onClose}
      okButtonProps={{ loading: busy }}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={{ quantity: '1' }}
        onFinish={(values) => void onFinish(values)}
        disabled={busy}
      >
        <Typography.Paragraph>Additional views: {formatCents(price)} per thousand views</Typography.Paragraph>
        <Form.Item
          name="quantity"
          label={`Blocks of ${VIEWS_PER_BLOCK.toLocaleString('en-US')} views`}
          rules={[
            {
              validator: (_rule, value) => {
                const error = viewBlocksError(value);
                return error ? Promise.reject(new Error(error)) : Promise.resolve();
              },
            },
          ]}
        >
          <Input inputMode="numeric" autoFocus />
        </Form.Item>
        {valid && (
          <Typography.Paragraph data-testid="views-total">
            {MSG.viewsPurchaseTotal(Number(blocks), formatCents(price * Number(blocks)))}
          </Typography.Paragraph>
        )}
      </Form>
    </Modal>
  );
}
