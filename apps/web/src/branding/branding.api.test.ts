import { describe, expect, it } from 'vitest';
import { toBrandingFormData } from './branding.api';

describe('toBrandingFormData', () => {
  it('sends new images as files, remove flags as true, and nothing for kept images', () => {
    const logo = new File([new Uint8Array(4)], 'logo.png', { type: 'image/png' });
    const form = toBrandingFormData({
      primaryColor: '#0a7f3c',
      textColor: '#000000',
      backgroundColor: '#ffffff',
      customBrandName: 'acme',
      customDomainName: '',
      images: { brandLogo: logo, modelBgLogo: 'remove', modelLoadingLogo: undefined },
    });
    expect(form.get('customBrandName')).toBe('acme');
    expect((form.get('brandLogo') as File).name).toBe('logo.png');
    expect(form.get('isModelBgLogoRemove')).toBe('true');
    expect(form.has('modelBgLogo')).toBe(false);
    expect(form.has('modelLoadingLogo')).toBe(false);
    expect(form.has('isModelLoadingLogoRemove')).toBe(false);
  });
});
