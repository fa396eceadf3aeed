import { useEffect, useState } from 'react';
import type { ThemeConfig } from 'antd';
import type { BrandingView } from '@helix/shared/schemas/tenant';
import { fetchWhiteLabel } from './white-label.api';

/** By host: asked once per page load (the answer cannot change while the page is open). */
let byHost: Promise<BrandingView | null> | null = null;
const hostLookup = () => (byHost ??= fetchWhiteLabel(null).catch(() => null));

/**
 * The white-label look of a guest page (administration-content 1, 5): the tenant whose brand name is
 * in the path (/login/{brand}), else the tenant whose custom domain this page is served on. Null: the
 * Helix look (unknown brand, the portal's own host, offline).
 */
export function useWhiteLabel(brand: string | null): BrandingView | null {
  const [look, setLook] = useState<{ key: string | null; view: BrandingView | null } | null>(null);
  useEffect(() => {
    let live = true;
    const lookup = brand ? fetchWhiteLabel(brand).catch(() => null) : hostLookup();
    void lookup.then((view) => live && setLook({ key: brand, view }));
    return () => {
      live = false;
    };
  }, [brand]);
  return look && look.key === brand ? look.view : null;
}

/** The antd theme tokens a branding changes (nested inside the app's theme). */
export const brandTheme = (look: Pick<BrandingView, 'primaryColor' | 'textColor'>): ThemeConfig => ({
  token: {
    colorPrimary: look.primaryColor,
    colorLink: look.primaryColor,
    colorTextLightSolid: look.textColor,
  },
});
