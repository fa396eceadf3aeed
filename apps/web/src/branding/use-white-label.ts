import { useQuery } from '@tanstack/react-query';
import type { ThemeConfig } from 'antd';
import type { BrandingView } from '@helix/shared/schemas/tenant';
import { fetchWhiteLabel } from './white-label.api';

/**
 * A guest page's white-label look in the query cache: by brand name, or '' for this page's host (a
 * server render may seed it under this key).
 */
export const whiteLabelKey = (brand: string | null): unknown[] => ['white-label', brand ?? ''];

/**
 * The white-label look of a guest page (administration-content 1, 5): the tenant whose brand name is
 * in the path (/login/{brand}), else the tenant whose custom domain this page is served on. Null: the
 * Helix look (unknown brand, the portal's own host, offline). Asked once per brand while the page is
 * open (the answer does not change meanwhile).
 */
export function useWhiteLabel(brand: string | null): BrandingView | null {
  const { data } = useQuery({
    queryKey: whiteLabelKey(brand),
    // Quiet: an unknown brand, or no network, keeps Helix's look.
    queryFn: () => fetchWhiteLabel(brand).catch(() => null),
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
