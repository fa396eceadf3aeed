import { Form, Input, Modal, Progress, Switch, type UploadFile } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { MSG } from '@helix/shared';
import { ModelUpdate } from '@helix/shared/schemas/model';
import { applyServerErrors } from '../../forms/server-errors';
import { zodRule } from '../../forms/zod-rule';
import { toModelFormData, toUrlModelName } from '../../models/model-form-data';
import { saveModel, saveModelDetailsOrQueue, type Model } from '../../models/models.api';
import { toastInfo, toastSuccess } from '../../ui/notify';
import { ModelFileField, ThumbnailField } from './model-upload-fields';
import { TenantSelect } from './tenant-select';

interface ModelFormValues {
  name: string;
  urlModelName: string;
  isPublic: boolean;
  restrictedTenants: number[];
  thumbnail: UploadFile[];
  file: UploadFile[];
}

const FIELDS = ['name', 'urlModelName', 'isPublic', 'restrictedTenants', 'thumbnail', 'file'] as const;

const initialValues = (model: Model | null): ModelFormValues => ({
  name: model?.name ?? '',
  urlModelName: model?.urlModelName ?? '',
  isPublic: model?.isPublic ?? true,
  restrictedTenants: model?.restrictedTenants ?? [],
  thumbnail: model?.thumbnail
    ? [{ uid: '-1', name: 'Current thumbnail', status: 'done', url: model.thumbnail }]
    : [],
  file: [],
});

/** Add (model null, id 0) or edit a model: POST /model/update as multipart with upload progress. */
export function ModelFormModal({
  model,
  onClose,
  onSaved,
}: {
  model: Model | null;
  onClose(): void;
  onSaved(model: Model): void;
}) {
  const adding = model === null;
  const [form] = Form.useForm<ModelFormValues>();
  const isPublic = Form.useWatch('isPublic', form);
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);
  const urlTouched = useRef(!adding);
  const upload = useRef<AbortController | null>(null);

  useEffect(() => () => upload.current?.abort(), []);

  const onFinish = async (values: ModelFormValues) => {
    const thumb = values.thumbnail?.[0];
    const body = toModelFormData({
      id: model?.id ?? 0,
      name: values.name,
      urlModelName: values.urlModelName,
      isPublic: Boolean(values.isPublic),
      restrictedTenants: values.restrictedTenants ?? [],
      thumbnailFile: thumb?.originFileObj ?? null,
      keepThumbnail: Boolean(thumb && !thumb.originFileObj),
      modelFile: values.file?.[0]?.originFileObj ?? null,
      version: model?.version,
    });
    const controller = new AbortController();
    upload.current = controller;
    setBusy(true);
    setProgress(0);
    try {
      const modelFile = values.file?.[0]?.originFileObj ?? null;
      const detailsOnly = model && !modelFile && (thumb ? !thumb.originFileObj : !model.thumbnail);
      if (detailsOnly) {
        // Details only: queued when offline, shown as edited and marked Pending sync.
        const details = {
          name: values.name,
          urlModelName: values.urlModelName,
          isPublic: Boolean(values.isPublic),
          restrictedTenants: [...(values.restrictedTenants ?? [])],
        };
        const result = await saveModelDetailsOrQueue(model, details);
        if (result.status === 'queued') {
          toastInfo(MSG.savedForLater);
          onSaved({
            ...model,
            ...details,
            restrictedTenants: details.isPublic ? [] : details.restrictedTenants,
          });
        } else {
          toastSuccess(MSG.modelSaved);
          onSaved(result.data);
        }
        return;
      }
      const saved = await saveModel(body, { signal: controller.signal, onProgress: setProgress });
      toastSuccess(MSG.modelSaved);
      onSaved(saved);
    } catch (error) {
      if (controller.signal.aborted) return;
      applyServerErrors(form, error, FIELDS);
      setBusy(false);
      setProgress(null);
    }
  };

  return (
    <Modal
      open
      title={adding ? 'Add Model' : `Edit ${model.name}`}
      okText="Save"
      onOk={() => form.submit()}
      confirmLoading={busy}
      onCancel={onClose}
      width={560}
      destroyOnHidden
      maskClosable={!busy}
    >
      <Form<ModelFormValues>
        form={form}
        name="model"
        layout="vertical"
        initialValues={initialValues(model)}
        disabled={busy}
        onFinish={(values) => void onFinish(values)}
        onValuesChange={(changed: Partial<ModelFormValues>) => {
          if ('urlModelName' in changed) urlTouched.current = true;
          // While adding, the URL name follows the name until the admin edits it.
          if (changed.name !== undefined && !urlTouched.current) {
            form.setFieldValue('urlModelName', toUrlModelName(changed.name));
          }
        }}
      >
        <Form.Item label="Name" name="name" required rules={[zodRule(ModelUpdate, 'name')]}>
          <Input maxLength={100} autoComplete="off" />
        </Form.Item>
        <Form.Item
          label="URL name"
          name="urlModelName"
          required
          rules={[zodRule(ModelUpdate, 'urlModelName')]}
        >
          <Input placeholder="hyphen-separated-name" maxLength={100} autoComplete="off" />
        </Form.Item>
        <ThumbnailField />
        <ModelFileField required={adding} />
        <Form.Item label="Public" name="isPublic" valuePropName="checked">
          <Switch />
        </Form.Item>
        {isPublic === false && (
          <Form.Item label="Restricted tenants" name="restrictedTenants">
            <TenantSelect />
          </Form.Item>
        )}
      </Form>
      {progress !== null && (
        <Progress
          className="upload-progress"
          percent={Math.round(progress * 100)}
          status={progress >= 1 ? 'active' : 'normal'}
          aria-label="Upload progress"
        />
      )}
    </Modal>
  );
}
