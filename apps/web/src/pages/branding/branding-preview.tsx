import { Typography } from 'antd';
import { useEffect, useMemo } from 'react';
import type { ImageValue } from '../../components/image-picker/image-picker';
import type { BrandingFormValues } from './branding-form';

const shownUrl = (value: ImageValue | undefined, fileUrl: string | null) =>
  fileUrl ?? (value && !value.removed ? value.url : null);

function useFileUrl(file: File | null | undefined): string | null {
  const url = useMemo(() => (file ? URL.createObjectURL(file) : null), [file]);
  useEffect(() => () => void (url && URL.revokeObjectURL(url)), [url]);
  return url;
}

/** What a white-label login page will look like with the values on the form (before saving). */
export function BrandingPreview({ values, name }: { values: BrandingFormValues; name: string }) {
  const logo = shownUrl(values.brandLogo, useFileUrl(values.brandLogo?.file));
  return (
    <aside className="branding-preview" aria-label="Preview" style={{ background: values.backgroundColor }}>
      <Typography.Text type="secondary">Preview</Typography.Text>
      <div className="branding-preview-header">
        {logo ? <img src={logo} alt="" /> : <img src="/favicon.svg" alt="" />}
        <strong>{name}</strong>
      </div>
      <button
        type="button"
        className="branding-preview-button"
        style={{ background: values.primaryColor, color: values.textColor }}
        tabIndex={-1}
      >
        Log In
      </button>
    </aside>
  );
}
