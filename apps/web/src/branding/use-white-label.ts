import { useQuery } from '@tanstack/react-query';
import type { ThemeConfig } from 'antd';
import type { BrandingView } from '@helix/shared/schemas/tenant';
import { fetchWhiteLabel } from './white-label.api';

/**
 * The white-label look's query key: by brand name, or (null) by this page's host. A server render of
 * a branded login fills it (src/server-render/route-prefetch.ts).
 */
export const whiteLabelKey = (brand: string | null): unknown[] => ['white-label', brand];

/**
 * The white-label look of a guest page (administration-content 1, 5): the tenant whose brand name is
 * in the path (/login/{brand}), else the tenant whose custom domain this page is served on. Null: the
 * Helix look (unknown brand, the portal's own host, offline).
 */
export function useWhiteLabel(brand: string | null): BrandingView | null {
  const { data } = useQuery({
    queryKey: whiteLabelKey(brand),
    queryFn: () => fetchWhiteLabel(brand).catch(() => null),
    // Asked once per page load: the answer cannot change while the page is open.
    staleTime: Infinity,
  });
  return data ?? null;
}

/** The antd theme tokens a branding changes (nested inside the app's theme). */
export const brandTheme = (look: Pick<BrandingView, 'primaryColor' | 'textColor'>): ThemeConfig => ({
  token: {
    colorPrimary: look.primaryColor,
    colorLink: look.primaryColor,
    colorTextLightSolid: look.textColor,
  },
});
