import { titleText } from './title-text';

/** React 19 hoists <title> into the document head. */
export function PageTitle({ title }: { title: string }) {
  return <title>{titleText(title)}</title>;
}
