import { DeleteOutlined, EditOutlined, PlusOutlined, SyncOutlined } from '@ant-design/icons';
import { Button, Card, Descriptions, Form, Input, Modal, Popconfirm, Select, Tag, Typography } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { MSG } from '@helix/shared';
import { LTI_KEY_GRACE_DAYS, LtiPlatformSave, type LtiPlatformView } from '@helix/shared/schemas/lti';
import { applyServerErrors } from '../../forms/server-errors';
import { zodRule } from '../../forms/zod-rule';
import { toastSuccess } from '../../ui/notify';
import { PageTitle } from '../../ui/page-title';
import { deleteLtiPlatform, rotateLtiKey, saveLtiPlatform } from './lti.api';
import { ltiKeys, ltiSettingsQuery } from './lti.queries';
import { QueryEmpty, QueryState } from '../../ui/query-state';
import { ResponsiveTable, type ResponsiveColumn } from '../../ui/responsive-table';

interface PlatformValues {
  name: string;
  issuer: string;
  clientId: string;
  deploymentIds: string[];
  authLoginUrl: string;
  tokenUrl: string;
  keysetUrl: string;
}

const FIELDS = ['name', 'issuer', 'clientId', 'deploymentIds', 'authLoginUrl', 'tokenUrl', 'keysetUrl'];

/** A value to paste into the LMS, with a copy button. */
function Copyable({ value, label }: { value: string; label: string }) {
  return (
    <Typography.Text
      code
      copyable={{ text: value, tooltips: [`Copy ${label}`, 'Copied'] }}
      data-testid={`lti-${label}`}
    >
      {value}
    </Typography.Text>
  );
}

function PlatformModal({
  platform,
  onClose,
  onSaved,
}: {
  platform: LtiPlatformView | null;
  onClose(): void;
  onSaved(): void;
}) {
  const [form] = Form.useForm<PlatformValues>();
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    const parsed = LtiPlatformSave.safeParse({ ...values, ...(platform ? { id: platform.id } : {}) });
    if (!parsed.success) return;
    setBusy(true);
    try {
      await saveLtiPlatform({ ...values, ...(platform ? { id: platform.id } : {}) });
      toastSuccess(MSG.ltiPlatformSaved);
      onSaved();
    } catch (error) {
      applyServerErrors(form, error, FIELDS);
      setBusy(false);
    }
  };
  const rule = (field: string) => [zodRule(LtiPlatformSave, field)];
  return (
    <Modal
      open
      title={platform ? `Edit ${platform.name}` : 'Register a learning platform'}
      okText="Save"
      confirmLoading={busy}
      onOk={() => void submit()}
      onCancel={onClose}
      destroyOnHidden
      width={640}
    >
      <Form<PlatformValues>
        form={form}
        name="lti-platform"
        layout="vertical"
        requiredMark={false}
        initialValues={platform ?? { deploymentIds: [] }}
      >
        <Form.Item
          label="Name"
          name="name"
          rules={rule('name')}
          extra="Your own label, e.g. “School Moodle”."
        >
          <Input autoComplete="off" />
        </Form.Item>
        <Form.Item label="Issuer (platform ID)" name="issuer" rules={rule('issuer')}>
          <Input autoComplete="off" placeholder="https://moodle.school.org" />
        </Form.Item>
        <Form.Item label="Client ID" name="clientId" rules={rule('clientId')}>
          <Input autoComplete="off" />
        </Form.Item>
        <Form.Item
          label="Deployment IDs"
          name="deploymentIds"
          rules={rule('deploymentIds')}
          extra="Type each deployment ID and press Enter."
        >
          <Select mode="tags" open={false} tokenSeparators={[',', ' ']} aria-label="Deployment IDs" />
        </Form.Item>
        <Form.Item label="Authentication request URL (OIDC)" name="authLoginUrl" rules={rule('authLoginUrl')}>
          <Input autoComplete="off" placeholder="https://moodle.school.org/mod/lti/auth.php" />
        </Form.Item>
        <Form.Item label="Access token URL" name="tokenUrl" rules={rule('tokenUrl')}>
          <Input autoComplete="off" placeholder="https://moodle.school.org/mod/lti/token.php" />
        </Form.Item>
        <Form.Item label="Public keyset URL" name="keysetUrl" rules={rule('keysetUrl')}>
          <Input autoComplete="off" placeholder="https://moodle.school.org/mod/lti/certs.php" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/**
 * /user/settings/lti (the school's owner, docs/lti.md): what to paste into Moodle or Canvas (the tool's
 * login, launch and deep-linking URLs and its public keyset URL), the tool key with its rotation, and
 * the learning platforms registered with their issuer, client ID, deployment IDs and endpoints.
 */
export function LtiPage() {
  const queryClient = useQueryClient();
  const query = useQuery(ltiSettingsQuery());
  const settings = query.data;
  const [editing, setEditing] = useState<LtiPlatformView | 'new' | null>(null);
  const reload = () => void queryClient.invalidateQueries({ queryKey: ltiKeys.all });

  const removal = useMutation({
    mutationFn: (platform: LtiPlatformView) => deleteLtiPlatform(platform.id),
    onSuccess: () => {
      toastSuccess(MSG.ltiPlatformDeleted);
      reload();
    },
    // On failure the client has shown the server's message.
  });
  const remove = (platform: LtiPlatformView) => removal.mutateAsync(platform).catch(() => undefined);

  const rotation = useMutation({
    mutationFn: rotateLtiKey,
    onSuccess: (tool) => {
      toastSuccess(MSG.ltiKeyRotated);
      queryClient.setQueryData(ltiKeys.settings(), (current) => (current ? { ...current, tool } : current));
    },
  });
  const rotate = () => rotation.mutateAsync().catch(() => undefined);
  const rotating = rotation.isPending;

  const columns: ResponsiveColumn<LtiPlatformView>[] = [
    { title: 'Name', dataIndex: 'name', key: 'name', role: 'title' },
    { title: 'Issuer', dataIndex: 'issuer', key: 'issuer', priority: 2 },
    { title: 'Client ID', dataIndex: 'clientId', key: 'clientId', priority: 2 },
    {
      title: 'Deployment IDs',
      key: 'deploymentIds',
      priority: 2,
      render: (_, p) => p.deploymentIds.map((id) => <Tag key={id}>{id}</Tag>),
    },
    {
      title: 'Actions',
      key: 'actions',
      role: 'actions',
      render: (_, p) => (
        <span style={{ display: 'inline-flex', gap: 8 }}>
          <Button icon={<EditOutlined />} aria-label={`Edit ${p.name}`} onClick={() => setEditing(p)}>
            Edit
          </Button>
          <Popconfirm
            title={`Remove ${p.name}?`}
            description="Its activities stop opening Helix at once."
            okText="Remove"
            okButtonProps={{ danger: true }}
            onConfirm={() => remove(p)}
          >
            <Button danger icon={<DeleteOutlined />} aria-label={`Remove ${p.name}`}>
              Remove
            </Button>
          </Popconfirm>
        </span>
      ),
    },
  ];

  return (
    <section className="page lti-page">
      <PageTitle title="LMS (LTI)" />
      <Typography.Title level={1} className="page-title">
        LMS (LTI 1.3)
      </Typography.Title>
      <Typography.Paragraph>
        Teachers add Helix models to Moodle, Canvas and other learning platforms; pupils open them inside the
        course without a Helix account, and their views count for your school and for their class.
      </Typography.Paragraph>
      <QueryState query={query} failed={MSG.failedLoadLti} loading="Loading the LMS settings" />
      {settings && (
        <>
          <Card title="1. Paste these into your learning platform" style={{ marginBottom: 24 }}>
            <Descriptions column={1} bordered size="small">
              <Descriptions.Item label="Tool URL / Target link URI (launch, redirection URI)">
                <Copyable value={settings.tool.launchUrl} label="launch URL" />
              </Descriptions.Item>
              <Descriptions.Item label="Initiate login URL (OpenID Connect)">
                <Copyable value={settings.tool.loginUrl} label="login URL" />
              </Descriptions.Item>
              <Descriptions.Item label="Content selection URL (Deep Linking)">
                <Copyable value={settings.tool.deepLinkUrl} label="deep linking URL" />
              </Descriptions.Item>
              <Descriptions.Item label="Public keyset URL (JWKS)">
                <Copyable value={settings.tool.jwksUrl} label="keyset URL" />
              </Descriptions.Item>
              <Descriptions.Item label="Domain">
                <Copyable value={settings.tool.domain} label="domain" />
              </Descriptions.Item>
            </Descriptions>
            <Typography.Paragraph style={{ marginTop: 16 }}>
              Key in use:{' '}
              {settings.tool.keys
                .filter((k) => k.retiredAt === null)
                .map((k) => (
                  <Typography.Text code key={k.kid}>
                    {k.kid}
                  </Typography.Text>
                ))}{' '}
              (RS256). Retired keys stay published for {LTI_KEY_GRACE_DAYS} days.{' '}
              <Popconfirm
                title="Use a new key?"
                description="Platforms read the new key from the keyset URL; nothing to change there."
                okText="Rotate"
                onConfirm={rotate}
              >
                <Button icon={<SyncOutlined />} loading={rotating}>
                  Rotate key
                </Button>
              </Popconfirm>
            </Typography.Paragraph>
          </Card>
          <Card
            title="2. Register the platform here"
            extra={
              <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
                Register a platform
              </Button>
            }
          >
            {settings.platforms.length === 0 ? (
              <QueryEmpty message={MSG.noLtiPlatforms} />
            ) : (
              <ResponsiveTable<LtiPlatformView>
                rowKey="id"
                columns={columns}
                dataSource={settings.platforms}
                pagination={false}
              />
            )}
          </Card>
        </>
      )}
      {editing && (
        <PlatformModal
          platform={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            reload();
          }}
        />
      )}
    </section>
  );
}
