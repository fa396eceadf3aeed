import { CalendarOutlined, StopOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Empty, List, Modal, Table, Tag, Typography, type TableColumnsType } from 'antd';
import dayjs from 'dayjs';
import { useCallback, useEffect, useState } from 'react';
import { Navigate } from 'react-router-dom';
import { describeLinkFeatures, MSG } from '@helix/shared';
import { ApiError } from '../../api/api-error';
import { logError } from '../../logging/error-logger';
import { fetchLinks, revokeLink, type EmbedLinkView } from '../../models/links.api';
import { hasPermission } from '../../session/session-user';
import { useSessionUser } from '../../session/use-session';
import { formatCount } from '../../ui/count-format';
import { listEmptyText } from '../../ui/list-states';
import { toastSuccess } from '../../ui/notify';
import { PageTitle } from '../../ui/page-title';
import { useMediaQuery } from '../../ui/use-media-query';
import { LinkAddress } from './link-address';
import { LinkExpiryModal } from './link-expiry.modal';
import './links.css';

type Load = { status: 'loading' } | { status: 'ready'; links: EmbedLinkView[] } | { status: 'failed' };

const PAGE_SIZE = 20;

const when = (iso: string | null) => (iso ? dayjs(iso).format('YYYY-MM-DD HH:mm') : MSG.linkNoExpiry);

const STATUS_TAG: Record<EmbedLinkView['status'], { color: string; label: string }> = {
  active: { color: 'green', label: 'Active' },
  expired: { color: 'orange', label: 'Expired' },
  revoked: { color: 'default', label: 'Revoked' },
};

const KIND_LABEL = { share: MSG.linkKindShare, embed: MSG.linkKindEmbed } as const;

function KindTag({ link }: { link: EmbedLinkView }) {
  return (
    <Tag color={link.kind === 'embed' ? 'purple' : link.kind === 'share' ? 'blue' : 'default'}>
      {link.kind ? KIND_LABEL[link.kind] : MSG.linkKindUnknown}
    </Tag>
  );
}

function StatusTag({ link }: { link: EmbedLinkView }) {
  return <Tag color={STATUS_TAG[link.status].color}>{STATUS_TAG[link.status].label}</Tag>;
}

/** The link's features in words (the one mapping in the shared package). */
const features = (link: EmbedLinkView): string =>
  describeLinkFeatures(link.settings, link.transparentBackground);

function LinkActions({
  link,
  onExpiry,
  onRevoke,
}: {
  link: EmbedLinkView;
  onExpiry(link: EmbedLinkView): void;
  onRevoke(link: EmbedLinkView): void;
}) {
  if (link.status === 'revoked') return null;
  return (
    <div className="link-actions">
      <Button
        icon={<CalendarOutlined />}
        aria-label={`Change expiry of the ${link.model.name} link`}
        onClick={() => onExpiry(link)}
      >
        Expiry
      </Button>
      <Button
        danger
        icon={<StopOutlined />}
        aria-label={`Revoke the ${link.model.name} link`}
        onClick={() => onRevoke(link)}
      >
        Revoke
      </Button>
    </div>
  );
}

/**
 * /user/settings/links: the share and embed links of the tenant (the owner sees every link, others the
 * ones they made) with the model, the page each was made for, its address to copy, features, maker,
 * dates, status and views; change the expiry or revoke (with a confirmation). A table on wide screens,
 * cards on narrow ones. A change holds on the embed path within a few seconds (its cache).
 */
export function LinksPage() {
  const user = useSessionUser();
  const allowed = hasPermission(user, 'Model.embed');
  const narrow = useMediaQuery('(max-width: 767px)');
  const [load, setLoad] = useState<Load>({ status: 'loading' });
  const [confirming, setConfirming] = useState<EmbedLinkView | null>(null);
  const [editing, setEditing] = useState<EmbedLinkView | null>(null);
  const [revoking, setRevoking] = useState(false);

  const reload = useCallback((signal?: AbortSignal) => {
    setLoad({ status: 'loading' });
    fetchLinks(signal)
      .then((links) => setLoad({ status: 'ready', links }))
      .catch((error: unknown) => {
        if (signal?.aborted) return;
        if (!(error instanceof ApiError && error.statusCode === 401))
          logError('Links: /model/links failed', error);
        setLoad({ status: 'failed' });
      });
  }, []);

  useEffect(() => {
    if (!allowed) return;
    const controller = new AbortController();
    reload(controller.signal);
    return () => controller.abort();
  }, [allowed, reload]);

  if (!allowed) return <Navigate to="/unauthorized" replace />;

  const replace = (updated: EmbedLinkView) =>
    setLoad((current) =>
      current.status === 'ready'
        ? { status: 'ready', links: current.links.map((l) => (l.id === updated.id ? updated : l)) }
        : current,
    );

  const revoke = async (link: EmbedLinkView) => {
    setRevoking(true);
    try {
      replace(await revokeLink(link.id));
      toastSuccess(MSG.linkRevoked);
      setConfirming(null);
    } catch {
      // The client has shown the server's message.
    } finally {
      setRevoking(false);
    }
  };

  const actions = (link: EmbedLinkView) => (
    <LinkActions link={link} onExpiry={setEditing} onRevoke={setConfirming} />
  );

  const columns: TableColumnsType<EmbedLinkView> = [
    { title: 'Model', key: 'model', render: (_, link) => link.model.name },
    { title: 'Type', key: 'kind', render: (_, link) => <KindTag link={link} /> },
    {
      title: 'Address',
      key: 'address',
      className: 'link-address-cell',
      render: (_, link) => <LinkAddress link={link} />,
    },
    {
      title: 'Features',
      key: 'settings',
      className: 'link-features-cell',
      render: (_, link) => features(link),
    },
    { title: 'Created by', key: 'createdBy', render: (_, link) => link.createdBy.name },
    { title: 'Created', key: 'createdAt', render: (_, link) => when(link.createdAt) },
    { title: 'Expires', key: 'expiresAt', render: (_, link) => when(link.expiresAt) },
    {
      title: 'Views',
      key: 'views',
      align: 'right',
      sorter: (a, b) => a.views - b.views,
      render: (_, link) => formatCount(link.views),
    },
    { title: 'Status', key: 'status', render: (_, link) => <StatusTag link={link} /> },
    { title: 'Actions', key: 'actions', fixed: 'right', render: (_, link) => actions(link) },
  ];

  const body = () => {
    if (load.status === 'failed') {
      return (
        <Alert
          type="error"
          showIcon
          message={MSG.failedLoadLinks}
          action={
            <Button size="small" onClick={() => reload()}>
              Try again
            </Button>
          }
        />
      );
    }
    if (load.status === 'loading') return listEmptyText('loading', null, null);
    if (load.links.length === 0) return <Empty description={MSG.noLinks} />;
    if (narrow) {
      return (
        <List<EmbedLinkView>
          className="link-cards"
          dataSource={load.links}
          rowKey="id"
          pagination={load.links.length > PAGE_SIZE ? { pageSize: PAGE_SIZE, simple: true } : false}
          renderItem={(link) => (
            <List.Item>
              <Card
                className="link-card"
                data-link-id={link.id}
                size="small"
                title={
                  <span className="link-card-title">
                    <span className="link-card-model">{link.model.name}</span> <KindTag link={link} />{' '}
                    <StatusTag link={link} />
                  </span>
                }
              >
                <LinkAddress link={link} />
                <dl className="link-facts">
                  <dt>Features</dt>
                  <dd>{features(link)}</dd>
                  <dt>Created by</dt>
                  <dd>{link.createdBy.name}</dd>
                  <dt>Created</dt>
                  <dd>{when(link.createdAt)}</dd>
                  <dt>Expires</dt>
                  <dd>{when(link.expiresAt)}</dd>
                  <dt>Views</dt>
                  <dd>{formatCount(link.views)}</dd>
                </dl>
                {actions(link)}
              </Card>
            </List.Item>
          )}
        />
      );
    }
    return (
      <Card className="links-table-card" styles={{ body: { padding: 0 } }}>
        <Table<EmbedLinkView>
          rowKey="id"
          columns={columns}
          dataSource={load.links}
          pagination={{ pageSize: PAGE_SIZE, hideOnSinglePage: true }}
          scroll={{ x: 'max-content' }}
        />
      </Card>
    );
  };

  return (
    <section className="links-page">
      <PageTitle title={MSG.linksTitle} />
      <Typography.Title level={3}>{MSG.linksTitle}</Typography.Title>
      {body()}
      <Modal
        open={confirming !== null}
        title={MSG.revokeLinkTitle}
        okText="Revoke"
        okButtonProps={{ danger: true }}
        confirmLoading={revoking}
        onOk={() => confirming && void revoke(confirming)}
        onCancel={() => setConfirming(null)}
        destroyOnHidden
      >
        <p>
          {confirming?.model.name}: {MSG.revokeLinkBody}
        </p>
      </Modal>
      {editing && (
        <LinkExpiryModal
          link={editing}
          onSaved={(updated) => {
            replace(updated);
            setEditing(null);
          }}
          onClose={() => setEditing(null)}
        />
      )}
    </section>
  );
}
