/**
 * The iframe code of an embed link: the one builder behind the Share/Embed dialog's and the Links
 * page's "Embed code" and oEmbed's `html`. `referrerpolicy` is set on the frame itself so that a host
 * page whose own policy sends no referrer still tells the embed page which site it is on (a link
 * limited to some sites counts only there: docs/links.md).
 */
export function embedFrameHtml(frame: {
  src: string;
  title: string;
  width: number | string;
  height: number | string;
}): string {
  const attr = (value: string | number) =>
    String(value).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return (
    `<iframe src="${attr(frame.src)}" title="${attr(frame.title)}" width="${attr(frame.width)}" ` +
    `height="${attr(frame.height)}" style="border:0" allow="fullscreen; xr-spatial-tracking" ` +
    `referrerpolicy="strict-origin-when-cross-origin" allowfullscreen></iframe>`
  );
}
