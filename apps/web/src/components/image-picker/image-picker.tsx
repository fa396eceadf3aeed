import { DeleteOutlined, UploadOutlined } from '@ant-design/icons';
import { Button, Space, Upload, type FormRule } from 'antd';
import { useEffect, useMemo } from 'react';
import type { ImagePurpose } from '@helix/shared';
import { IMAGE_ACCEPT } from '@helix/shared/images';
import { imageFileProblem } from './image-file-check';
import './image-picker.css';

/** An image form field: the stored image's URL, a newly chosen file, or removed (the default shows). */
export interface ImageValue {
  url: string | null;
  file: File | null;
  removed: boolean;
}

export const imageValueOf = (url: string | null): ImageValue => ({ url, file: null, removed: false });

/** What the form sends for it: a new file, 'remove', or nothing (keep). */
export function imageChangeOf(value: ImageValue | undefined): File | 'remove' | undefined {
  if (value?.file) return value.file;
  if (value?.removed && value.url) return 'remove';
  return undefined;
}

/** The spec's size, dimension and type messages before upload (the server checks again). */
export const imageRule =
  (purpose: ImagePurpose): FormRule =>
  () => ({
    validator: async (_, value: ImageValue | undefined) => {
      if (!value?.file) return;
      const problem = await imageFileProblem(value.file, purpose);
      if (problem) throw new Error(problem);
    },
  });

/**
 * A preview, a choose button and a remove button. Controlled by antd's Form.Item (value, onChange);
 * `fallback` is what shows when there is no image (the default look).
 */
export function ImagePicker({
  value = imageValueOf(null),
  onChange,
  label,
  fallback,
  shape = 'square',
}: {
  value?: ImageValue;
  onChange?: (value: ImageValue) => void;
  label: string;
  fallback: React.ReactNode;
  shape?: 'square' | 'round';
}) {
  const fileUrl = useMemo(() => (value.file ? URL.createObjectURL(value.file) : null), [value.file]);
  useEffect(() => () => void (fileUrl && URL.revokeObjectURL(fileUrl)), [fileUrl]);
  const shown = fileUrl ?? (value.removed ? null : value.url);

  return (
    <Space align="center" size="middle" className="image-picker">
      <div className={`image-picker-preview is-${shape}`}>
        {shown ? <img src={shown} alt={`${label} preview`} data-testid={`${label}-preview`} /> : fallback}
      </div>
      <Space orientation="vertical" size="small">
        <Upload
          accept={IMAGE_ACCEPT}
          showUploadList={false}
          maxCount={1}
          beforeUpload={(file) => {
            onChange?.({ ...value, file, removed: false });
            return false;
          }}
        >
          <Button icon={<UploadOutlined aria-hidden />}>{`Choose ${label.toLowerCase()}`}</Button>
        </Upload>
        <Button
          icon={<DeleteOutlined aria-hidden />}
          disabled={!shown}
          onClick={() => onChange?.({ ...value, file: null, removed: true })}
        >
          {`Remove ${label.toLowerCase()}`}
        </Button>
      </Space>
    </Space>
  );
}
