import './share.css';
import { DisconnectOutlined } from '@ant-design/icons';
import { Result } from 'antd';
import { MSG } from '@helix/shared';
import { PageTitle } from '../../ui/page-title';
import { Themed } from '../../ui/themed';

/** The neutral page of a share or embed link that cannot be shown (any reason, never details). */
export function LinkUnavailable({ hint = true }: { hint?: boolean }) {
  return (
    <Themed>
      <main className="link-unavailable" data-testid="link-unavailable">
        <PageTitle title="Link unavailable" />
        <Result
          icon={<DisconnectOutlined aria-hidden className="link-unavailable-icon" />}
          title={<h1 className="status-title">{MSG.linkUnavailable}</h1>}
          subTitle={hint ? MSG.linkUnavailableHint : undefined}
        />
      </main>
    </Themed>
  );
}
