/** The document title of a page: `{page} · Helix`. */
export const titleText = (title: string): string => `${title} · Helix`;
