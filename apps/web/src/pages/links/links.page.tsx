import { CalendarOutlined, GlobalOutlined, StopOutlined } from '@ant-design/icons';
import { Button, Modal, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { Navigate } from 'react-router-dom';
import { describeLinkFeatures, MSG } from '@helix/shared';
import { EMBED_LINK_SORTS, type EmbedLinkPage } from '@helix/shared/schemas/embed-link';
import { ApiError } from '../../api/api-error';
import { logError } from '../../logging/error-logger';
import { changeLink, fetchLinkPage, type EmbedLinkView } from '../../models/links.api';
import { abilitiesOf } from '../../session/session-user';
import { useSessionUser } from '../../session/use-session';
import { formatCount } from '../../ui/count-format';
import { QueryEmpty, QueryFailed, QueryLoading } from '../../ui/query-state';
import { toastSuccess } from '../../ui/notify';
import { PageTitle } from '../../ui/page-title';
import { ResponsiveTable, type ResponsiveColumn } from '../../ui/responsive-table';
import { useServerList } from '../../ui/use-server-list';
import { ListSearch } from '../../ui/list-search';
import '../../ui/list-toolbar.css';
import { LinkAddress } from './link-address';
import { LinkExpiryModal } from './link-expiry.modal';
import { LinkHostsModal } from './link-hosts.modal';
import './links.css';

type Sort = (typeof EMBED_LINK_SORTS)[number];

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

/** Where the link may be shown: its sites, or any site. */
const sites = (link: EmbedLinkView): string =>
  link.allowedHosts.length > 0 ? link.allowedHosts.join(', ') : MSG.embedHostsAny;

/** The link's features in words (the one mapping in the shared package). */
const features = (link: EmbedLinkView): string =>
  describeLinkFeatures(link.settings, link.transparentBackground);

function LinkActions({
  link,
  onExpiry,
  onSites,
  onRevoke,
}: {
  link: EmbedLinkView;
  onExpiry(link: EmbedLinkView): void;
  onSites(link: EmbedLinkView): void;
  onRevoke(link: EmbedLinkView): void;
}) {
  // What the server allows with this link (none once it is revoked).
  const { edit, revoke } = link.abilities;
  if (!edit && !revoke) return null;
  return (
    <div className="link-actions">
      {edit && (
        <Button
          icon={<CalendarOutlined />}
          aria-label={`Change expiry of the ${link.model.name} link`}
          onClick={() => onExpiry(link)}
        >
          Expiry
        </Button>
      )}
      {edit && (
        <Button
          icon={<GlobalOutlined />}
          aria-label={`Change the sites of the ${link.model.name} link`}
          onClick={() => onSites(link)}
        >
          Sites
        </Button>
      )}
      {revoke && (
        <Button
          danger
          icon={<StopOutlined />}
          aria-label={`Revoke the ${link.model.name} link`}
          onClick={() => onRevoke(link)}
        >
          Revoke
        </Button>
      )}
    </div>
  );
}

/**
 * /user/settings/links: the share and embed links of the tenant (the owner sees every link, others the
 * ones they made) with the model, the page each was made for, its address to copy, features, maker,
 * dates, status and views; change the expiry or the sites that may show it, or revoke (with a
 * confirmation). A table on wide screens
 * (the secondary columns folded into each row's details below 1,200 px), cards on phones. A change holds on the embed path within a few seconds (its cache).
 */
export function LinksPage() {
  const user = useSessionUser();
  const allowed = abilitiesOf(user).links;
  const [confirming, setConfirming] = useState<EmbedLinkView | null>(null);
  const [editing, setEditing] = useState<EmbedLinkView | null>(null);
  const [editingSites, setEditingSites] = useState<EmbedLinkView | null>(null);
  const [revoking, setRevoking] = useState(false);

  // Paged, searched and sorted by the server (docs/lists-at-scale.md); nothing is asked without the
  // permission (the page redirects).
  const list = useServerList<EmbedLinkView, Sort, EmbedLinkPage>({
    fetchPage: (query, signal) =>
      allowed ? fetchLinkPage(query, signal) : new Promise<EmbedLinkPage>(() => undefined),
    sorts: EMBED_LINK_SORTS,
    sort: 'created_at',
    order: 'desc',
    pageSize: PAGE_SIZE,
    onError: (error) => {
      if (!(error instanceof ApiError && error.statusCode === 401))
        logError('Links: /model/links failed', error);
    },
  });

  if (!allowed) return <Navigate to="/unauthorized" replace />;

  /** After a change the server answers the page again (the link's state and order may change). */
  const replace = (_updated: EmbedLinkView) => list.reload();

  const revoke = async (link: EmbedLinkView) => {
    setRevoking(true);
    try {
      replace(await changeLink('revoke', { id: link.id }));
      toastSuccess(MSG.linkRevoked);
      setConfirming(null);
    } catch {
      // The client has shown the server's message.
    } finally {
      setRevoking(false);
    }
  };

  const actions = (link: EmbedLinkView) => (
    <LinkActions link={link} onExpiry={setEditing} onSites={setEditingSites} onRevoke={setConfirming} />
  );

  const columns: ResponsiveColumn<EmbedLinkView>[] = [
    {
      title: 'Model',
      key: 'model',
      role: 'title',
      sorter: true,
      sortOrder: list.sortOrder('model'),
      render: (_, link) => link.model.name,
    },
    { title: 'Type', key: 'kind', priority: 3, render: (_, link) => <KindTag link={link} /> },
    {
      title: 'Address',
      key: 'address',
      className: 'link-address-cell',
      priority: 2,
      stack: true,
      render: (_, link) => <LinkAddress link={link} />,
    },
    {
      title: 'Features',
      key: 'settings',
      className: 'link-features-cell',
      priority: 3,
      render: (_, link) => features(link),
    },
    {
      title: 'Created by',
      key: 'created_by',
      priority: 3,
      sorter: true,
      sortOrder: list.sortOrder('created_by'),
      render: (_, link) => link.createdBy.name,
    },
    {
      title: 'Created',
      key: 'created_at',
      priority: 3,
      sorter: true,
      sortOrder: list.sortOrder('created_at'),
      render: (_, link) => when(link.createdAt),
    },
    {
      title: 'Expires',
      key: 'expires_at',
      priority: 3,
      sorter: true,
      sortOrder: list.sortOrder('expires_at'),
      render: (_, link) => when(link.expiresAt),
    },
    {
      title: 'Views',
      key: 'views',
      align: 'right',
      priority: 3,
      render: (_, link) => formatCount(link.views),
    },
    { title: 'Status', key: 'status', render: (_, link) => <StatusTag link={link} /> },
    // After the columns other flows read by position (views is the 8th).
    {
      title: 'Sites',
      key: 'sites',
      className: 'link-sites-cell',
      priority: 3,
      render: (_, link) => sites(link),
    },
    { title: 'Actions', key: 'actions', role: 'actions', render: (_, link) => actions(link) },
  ];

  const body = () => {
    if (list.status === 'failed' && list.data === null)
      return <QueryFailed message={MSG.failedLoadLinks} onRetry={list.reload} />;
    if (list.data === null) return <QueryLoading />;
    if (list.total === 0) return <QueryEmpty message={list.query.search ? MSG.noLinksMatch : MSG.noLinks} />;
    return (
      <ResponsiveTable<EmbedLinkView>
        rowKey="id"
        columns={columns}
        {...list.tableProps}
        rowClassName="link-row"
      />
    );
  };

  return (
    <section className="links-page">
      <PageTitle title={MSG.linksTitle} />
      <Typography.Title level={3}>{MSG.linksTitle}</Typography.Title>
      <div className="list-toolbar">
        <ListSearch list={list} label="Search model or maker" testId="links-search" />
        {list.data && (
          <span className="list-total" data-testid="links-total">
            {formatCount(list.total)} links
          </span>
        )}
      </div>
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
      {editingSites && (
        <LinkHostsModal
          link={editingSites}
          onSaved={(updated) => {
            replace(updated);
            setEditingSites(null);
          }}
          onClose={() => setEditingSites(null)}
        />
      )}
    </section>
  );
}
