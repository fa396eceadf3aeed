import { Alert, Button, Empty, Modal, Table, Tag, Typography, type TableColumnsType } from 'antd';
import dayjs from 'dayjs';
import { useCallback, useEffect, useState } from 'react';
import { Navigate } from 'react-router-dom';
import { MSG, TRANSPARENT_BACKGROUND } from '@helix/shared';
import { ApiError } from '../../api/api-error';
import { logError } from '../../logging/error-logger';
import { fetchLinks, revokeLink, type EmbedLinkView } from '../../models/links.api';
import { hasPermission } from '../../session/session-user';
import { useSessionUser } from '../../session/use-session';
import { toastSuccess } from '../../ui/notify';
import { PageTitle } from '../../ui/page-title';
import { formatCount } from '../../ui/count-format';

type Load = { status: 'loading' } | { status: 'ready'; links: EmbedLinkView[] } | { status: 'failed' };

const when = (iso: string | null) => (iso ? dayjs(iso).format('YYYY-MM-DD HH:mm') : '—');

const STATUS_TAG: Record<EmbedLinkView['status'], { color: string; label: string }> = {
  active: { color: 'green', label: 'Active' },
  expired: { color: 'orange', label: 'Expired' },
  revoked: { color: 'default', label: 'Revoked' },
};

/**
 * /user/settings/links: the share and embed links of the tenant (the owner sees every link, others the
 * ones they made) with the model, features, maker, dates and views each link drew; revoke with a
 * confirmation. A revoked link stops opening its model within a few seconds (the embed path's cache).
 */
export function LinksPage() {
  const user = useSessionUser();
  const allowed = hasPermission(user, 'Model.embed');
  const [load, setLoad] = useState<Load>({ status: 'loading' });
  const [confirming, setConfirming] = useState<EmbedLinkView | null>(null);
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

  const revoke = async (link: EmbedLinkView) => {
    setRevoking(true);
    try {
      const updated = await revokeLink(link.id);
      setLoad((current) =>
        current.status === 'ready'
          ? { status: 'ready', links: current.links.map((l) => (l.id === updated.id ? updated : l)) }
          : current,
      );
      toastSuccess(MSG.linkRevoked);
      setConfirming(null);
    } catch {
      // The client has shown the server's message.
    } finally {
      setRevoking(false);
    }
  };

  const columns: TableColumnsType<EmbedLinkView> = [
    { title: 'Model', key: 'model', render: (_, link) => link.model.name },
    {
      title: 'Features',
      key: 'settings',
      render: (_, link) => {
        const features = link.transparentBackground
          ? [...link.settings, TRANSPARENT_BACKGROUND]
          : link.settings;
        return features.length === 0 ? '—' : <span className="link-settings">{features.join(', ')}</span>;
      },
    },
    { title: 'Created by', key: 'createdBy', render: (_, link) => link.createdBy.name },
    { title: 'Created at', key: 'createdAt', render: (_, link) => when(link.createdAt) },
    { title: 'Expires', key: 'expiresAt', render: (_, link) => when(link.expiresAt) },
    {
      title: 'Views',
      key: 'views',
      align: 'right',
      sorter: (a, b) => a.views - b.views,
      render: (_, link) => formatCount(link.views),
    },
    {
      title: 'Status',
      key: 'status',
      render: (_, link) => <Tag color={STATUS_TAG[link.status].color}>{STATUS_TAG[link.status].label}</Tag>,
    },
    {
      title: '',
      key: 'actions',
      render: (_, link) =>
        link.status === 'revoked' ? null : (
          <Button danger size="small" onClick={() => setConfirming(link)}>
            Revoke
          </Button>
        ),
    },
  ];

  return (
    <section className="links-page">
      <PageTitle title={MSG.linksTitle} />
      <Typography.Title level={3}>{MSG.linksTitle}</Typography.Title>
      {load.status === 'failed' ? (
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
      ) : (
        <Table<EmbedLinkView>
          rowKey="id"
          columns={columns}
          dataSource={load.status === 'ready' ? load.links : []}
          loading={load.status === 'loading'}
          locale={{ emptyText: <Empty description={MSG.noLinks} /> }}
          pagination={{ pageSize: 20, hideOnSinglePage: true }}
          scroll={{ x: true }}
        />
      )}
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
    </section>
  );
}
