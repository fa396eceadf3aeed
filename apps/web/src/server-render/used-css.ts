import { PurgeCSS } from 'purgecss';

/**
 * The rules of `css` that can apply to `html`: antd's styles for a page's components include every
 * state and size (the grid's 24 columns at six breakpoints, error states...) and every theme token as a
 * custom property, a few hundred kB that the browser would parse and match before the first paint. The
 * app brings its full styles when it starts. Runs in Node only (the build and the server bundle).
 */
export async function usedCss(html: string, css: string): Promise<string> {
  const [result] = await new PurgeCSS().purge({
    content: [{ raw: html, extension: 'html' }],
    css: [{ raw: css }],
    // The theme's 500-odd custom properties are set on every component's root element; only those the
    // kept rules read are needed.
    variables: true,
  });
  return result?.css ?? '';
}
