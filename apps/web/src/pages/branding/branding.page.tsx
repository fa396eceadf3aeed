import { Button, ColorPicker, Form, Input, Modal, Radio, Space, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Navigate, useBlocker } from 'react-router-dom';
import { MSG } from '@helix/shared';
import { BRANDING_DEFAULTS, BrandingUpdate, TEXT_COLOURS } from '@helix/shared/schemas/branding';
import { fetchBranding, saveBranding, type TenantBrandingView } from '../../branding/branding.api';
import { refreshTenantLook } from '../../branding/tenant-look';
import { OfflineNotice } from '../../offline/offline-notice';
import { PendingTag } from '../../offline/pending-tag';
import { persistAnswer } from '../../offline/query-persister';
import { snapshotLoadKey, useSnapshotLoad } from '../../offline/use-snapshot-load';
import { usePendingTargets } from '../../offline/use-outbox';
import { ImagePicker, imageChangeOf, imageRule } from '../../components/image-picker/image-picker';
import { ApiError } from '../../api/api-error';
import { applyServerErrors } from '../../forms/server-errors';
import { zodRule } from '../../forms/zod-rule';
import { refreshSessionUser } from '../../session/session';
import { abilitiesOf } from '../../session/session-user';
import { useSessionUser } from '../../session/use-session';
import { toastError, toastInfo, toastSuccess } from '../../ui/notify';
import { QueryState } from '../../ui/query-state';
import { PageTitle } from '../../ui/page-title';
import { BRANDING_FIELDS as FIELDS, valuesOf, type BrandingFormValues } from './branding-form';
import { BrandingPreview } from './branding-preview';
import './branding.css';

/** /user/settings/branding (administration-content 2, 4, 5): colours, white label, three images. */
export function BrandingPage() {
  const user = useSessionUser();
  // The server's editBranding ability (a role or plan without Brand.update, a platform admin): the
  // spec's /unauthorized, as the route guard sends it.
  if (user && !abilitiesOf(user).editBranding) return <Navigate to="/unauthorized" replace />;
  return <BrandingLoader />;
}

function BrandingLoader() {
  const queryClient = useQueryClient();
  const { load, reload } = useSnapshotLoad('branding', fetchBranding, MSG.failedLoadBranding);
  // The saved branding is the page's answer at once (and the offline copy's).
  const saved = (branding: TenantBrandingView) => {
    queryClient.setQueryData(snapshotLoadKey('branding'), branding);
    persistAnswer(snapshotLoadKey('branding'), queryClient);
  };
  const pending = usePendingTargets().has('branding');

  return (
    <section className="page branding-page">
      <PageTitle title="Branding" />
      <Typography.Title level={1} className="page-title">
        Branding <PendingTag pending={pending} />
      </Typography.Title>
      <OfflineNotice savedAt={load.status === 'ready' ? load.savedAt : null} />
      <QueryState
        query={{
          data: load.status === 'ready' ? load.data : undefined,
          isError: load.status === 'failed',
          refetch: reload,
        }}
        failed={MSG.failedLoadBranding}
        rows={8}
      >
        {(branding) => <BrandingForm branding={branding} onSaved={saved} />}
      </QueryState>
    </section>
  );
}

function BrandingForm({
  branding,
  onSaved,
}: {
  branding: TenantBrandingView;
  onSaved(b: TenantBrandingView): void;
}) {
  const [form] = Form.useForm<BrandingFormValues>();
  const [busy, setBusy] = useState(false);
  const [dirty, setDirty] = useState(false);
  const values = Form.useWatch([], form) as BrandingFormValues | undefined;
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname,
  );

  useEffect(() => {
    if (!dirty) return;
    // A reload or a closed tab: the browser's own prompt (its wording cannot be set).
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  const save = async (): Promise<boolean> => {
    let v: BrandingFormValues;
    try {
      v = await form.validateFields();
    } catch {
      return false;
    }
    setBusy(true);
    try {
      const result = await saveBranding(
        {
          primaryColor: v.primaryColor,
          textColor: v.textColor,
          backgroundColor: v.backgroundColor,
          customBrandName: v.customBrandName,
          customDomainName: v.customDomainName ?? '',
          images: {
            brandLogo: imageChangeOf(v.brandLogo),
            modelBgLogo: imageChangeOf(v.modelBgLogo),
            modelLoadingLogo: imageChangeOf(v.modelLoadingLogo),
          },
        },
        branding.version,
      );
      if (result.status === 'queued') {
        // Shown as edited (the form keeps the values) and marked Pending sync until the server takes it.
        setDirty(false);
        toastInfo(MSG.savedForLater);
        return true;
      }
      const saved = result.data;
      // The header shows the school's new look at once.
      void refreshTenantLook(saved.tenant);
      form.setFieldsValue(valuesOf(saved));
      setDirty(false);
      toastSuccess(MSG.brandingUpdated);
      onSaved(saved);
      // The session user carries the brand name (the white-label login after a logout).
      void refreshSessionUser().catch(() => undefined);
      return true;
    } catch (error) {
      // The client already toasted a server failure; anything else is a bug worth saying so.
      if (error instanceof ApiError) applyServerErrors(form, error, FIELDS);
      else {
        console.error(error);
        toastError(MSG.defaultError);
      }
      return false;
    } finally {
      setBusy(false);
    }
  };

  const onUnsavedYes = async () => {
    if (await save()) blocker.proceed?.();
    else blocker.reset?.();
  };

  const brand = values?.customBrandName?.trim().toLowerCase();
  return (
    <div className="branding-layout">
      <Form<BrandingFormValues>
        form={form}
        layout="vertical"
        className="branding-form"
        initialValues={valuesOf(branding)}
        onValuesChange={() => setDirty(true)}
        onFinish={() => void save()}
        disabled={busy}
      >
        <Typography.Title level={4}>Colours</Typography.Title>
        <Space size="large" wrap>
          <Form.Item
            label="Primary colour"
            name="primaryColor"
            getValueFromEvent={(color: { toHexString(): string }) => color.toHexString()}
            rules={[zodRule(BrandingUpdate, 'primaryColor')]}
          >
            <ColorPicker showText disabledAlpha aria-label="Primary colour" data-testid="primary-colour" />
          </Form.Item>
          <Form.Item label="Text colour" name="textColor" rules={[zodRule(BrandingUpdate, 'textColor')]}>
            <Radio.Group
              optionType="button"
              options={[
                { label: 'White', value: TEXT_COLOURS.white },
                { label: 'Black', value: TEXT_COLOURS.black },
              ]}
            />
          </Form.Item>
          <Form.Item
            label="Background colour"
            name="backgroundColor"
            getValueFromEvent={(color: { toHexString(): string }) => color.toHexString()}
            rules={[zodRule(BrandingUpdate, 'backgroundColor')]}
          >
            <ColorPicker
              showText
              disabledAlpha
              aria-label="Background colour"
              data-testid="background-colour"
            />
          </Form.Item>
        </Space>
        <Button
          size="small"
          onClick={() => {
            form.setFieldsValue({ ...BRANDING_DEFAULTS });
            setDirty(true);
          }}
        >
          Restore default colours
        </Button>

        <Typography.Title level={4}>White label</Typography.Title>
        <Form.Item
          label="Brand name"
          name="customBrandName"
          rules={[zodRule(BrandingUpdate, 'customBrandName')]}
          extra={
            brand ? (
              <span>
                Your login page: <code>{`${window.location.origin}/login/${brand}`}</code>
              </span>
            ) : (
              'Lowercase letters, digits and hyphens; it becomes the address of your login page.'
            )
          }
        >
          <Input maxLength={40} autoComplete="off" />
        </Form.Item>
        <Form.Item
          label="Custom domain"
          name="customDomainName"
          rules={[zodRule(BrandingUpdate, 'customDomainName')]}
          extra={`Optional, e.g. models.your-school.edu. Point it at ${window.location.hostname} with a CNAME record.`}
        >
          <Input maxLength={253} autoComplete="off" placeholder="models.example.com" />
        </Form.Item>

        <Typography.Title level={4}>Images</Typography.Title>
        <Form.Item
          label="Brand logo"
          name="brandLogo"
          rules={[imageRule('logo')]}
          extra="At most 1 MB and 1000 x 1000 pixels; 600 x 600 or more recommended."
        >
          <ImagePicker label="Logo" fallback={<span>Helix</span>} />
        </Form.Item>
        <Form.Item
          label="Model background"
          name="modelBgLogo"
          rules={[imageRule('background')]}
          extra="At most 5 MB and 4000 x 4000 pixels; 1920 x 1080 or more recommended."
        >
          <ImagePicker label="Background" fallback={<span>Default</span>} />
        </Form.Item>
        <Form.Item
          label="Model loading image"
          name="modelLoadingLogo"
          rules={[imageRule('loading')]}
          extra="At most 1 MB and 1000 x 1000 pixels; 600 x 600 or more recommended."
        >
          <ImagePicker label="Loading image" fallback={<span>Default</span>} />
        </Form.Item>

        <Button type="primary" htmlType="submit" loading={busy}>
          Save
        </Button>
      </Form>
      {values && <BrandingPreview values={values} name={branding.name} />}
      <Modal
        open={blocker.state === 'blocked'}
        title={MSG.unsavedBranding}
        onCancel={() => blocker.reset?.()}
        footer={[
          <Button key="no" onClick={() => blocker.proceed?.()} disabled={busy}>
            No
          </Button>,
          <Button key="yes" type="primary" loading={busy} onClick={() => void onUnsavedYes()}>
            Yes
          </Button>,
        ]}
      />
    </div>
  );
}
