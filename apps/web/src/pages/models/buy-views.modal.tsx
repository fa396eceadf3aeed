import { Modal, Result } from 'antd';
import { MSG } from '@helix/shared';
import { formatCents } from '../../models/model-listing';
import type { ModelViews } from '../../models/models.api';

/** Add Views: purchasing arrives with the payment work; until then the dialog says so honestly. */
export function BuyViewsModal({ views, onClose }: { views: ModelViews | null; onClose(): void }) {
  return (
    <Modal
      open
      title="Add Views"
      okText="Close"
      onOk={onClose}
      onCancel={onClose}
      cancelButtonProps={{ style: { display: 'none' } }}
      destroyOnHidden
    >
      <Result
        status="info"
        title={MSG.buyViewsNotAvailable}
        subTitle={
          views?.additionalViewsPrice
            ? `Additional views: ${formatCents(views.additionalViewsPrice)} per thousand views`
            : undefined
        }
      />
    </Modal>
  );
}
