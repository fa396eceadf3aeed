import { useParams } from 'react-router-dom';

/** The {custombrandname} of a white-label route, if this is one. */
export const useBrandParam = (): string | null => useParams().brand ?? null;

/** `/login` → `/login/acme` on a brand's pages. */
export const withBrand = (path: string, brand: string | null): string =>
  brand ? `${path}/${encodeURIComponent(brand)}` : path;
