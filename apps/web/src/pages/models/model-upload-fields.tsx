import { InboxOutlined, PlusOutlined } from '@ant-design/icons';
import { Form, Image, Upload, type UploadFile } from 'antd';
import { useState } from 'react';
import { MSG } from '@helix/shared';
import { IMAGE_ACCEPT, IMAGE_RULES } from '@helix/shared/images';
import { isGlbFile, isImageFile } from '../../models/model-form-data';

const fileListFrom = (event: { fileList?: UploadFile[] } | UploadFile[]): UploadFile[] =>
  Array.isArray(event) ? event : (event.fileList ?? []);

/** A data URL for a file the browser holds, for the thumbnail preview. */
const readAsDataUrl = (file: Blob): Promise<string> =>
  new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsDataURL(file);
  });

/** Thumbnail: an image, previewable; kept in the browser until the form is saved. */
export function ThumbnailField() {
  const [preview, setPreview] = useState<string | null>(null);
  const thumbnail = Form.useWatch<UploadFile[] | undefined>('thumbnail');
  const empty = !thumbnail?.length;

  const onPreview = async (file: UploadFile) => {
    const src =
      file.url || file.thumbUrl || (file.originFileObj ? await readAsDataUrl(file.originFileObj) : null);
    if (src) setPreview(src);
  };

  return (
    <>
      <Form.Item
        label="Thumbnail"
        name="thumbnail"
        valuePropName="fileList"
        getValueFromEvent={fileListFrom}
        rules={[
          {
            validator: async (_, list: UploadFile[] | undefined) => {
              const file = list?.[0];
              const chosen = file?.originFileObj;
              if (!chosen) return;
              if (!isImageFile(chosen)) throw new Error(MSG.thumbnailType);
              // The server checks size and dimensions again; the size is known here without decoding.
              if (chosen.size > IMAGE_RULES.thumbnail.maxBytes)
                throw new Error(IMAGE_RULES.thumbnail.sizeMessage);
            },
          },
        ]}
      >
        <Upload
          listType="picture-card"
          accept={IMAGE_ACCEPT}
          maxCount={1}
          beforeUpload={() => false}
          onPreview={(file) => void onPreview(file)}
        >
          {empty && (
            <div className="upload-trigger">
              <PlusOutlined aria-hidden />
              <div>Choose image</div>
            </div>
          )}
        </Upload>
      </Form.Item>
      {preview && (
        <Image
          style={{ display: 'none' }}
          alt="Thumbnail preview"
          src={preview}
          preview={{ open: true, onOpenChange: (open) => !open && setPreview(null) }}
        />
      )}
    </>
  );
}

/** The .glb model file: required when adding, optional (a replacement) when editing. */
export function ModelFileField({ required }: { required: boolean }) {
  return (
    <Form.Item
      label="Model file"
      name="file"
      valuePropName="fileList"
      getValueFromEvent={fileListFrom}
      required={required}
      extra={required ? undefined : 'Leave empty to keep the current file.'}
      rules={[
        {
          validator: async (_, list: UploadFile[] | undefined) => {
            const file = list?.[0];
            if (!file) {
              if (required) throw new Error(MSG.modelFileRequired);
              return;
            }
            if (!isGlbFile(file)) throw new Error(MSG.modelFileType);
          },
        },
      ]}
    >
      <Upload.Dragger accept=".glb" maxCount={1} beforeUpload={() => false}>
        <p className="ant-upload-drag-icon">
          <InboxOutlined aria-hidden />
        </p>
        <p className="ant-upload-text">Choose a .glb file or drop it here</p>
      </Upload.Dragger>
    </Form.Item>
  );
}
