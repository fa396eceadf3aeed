import { Fragment } from 'react';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The parts of `text`, each marked when it matches `search` (case-insensitive). */
export function highlightParts(text: string, search: string): { text: string; match: boolean }[] {
  const needle = search.trim();
  if (!needle) return [{ text, match: false }];
  const re = new RegExp(`(${escapeRegExp(needle)})`, 'gi');
  return text
    .split(re)
    .filter((part) => part !== '')
    .map((part) => ({ text: part, match: part.toLowerCase() === needle.toLowerCase() }));
}

/** `text` with every match of `search` in a <mark> (the column search's highlighting). */
export function HighlightText({ text, search }: { text: string; search: string }) {
  return (
    <>
      {highlightParts(text, search).map((part, i) =>
        part.match ? (
          <mark key={i} className="search-match">
            {part.text}
          </mark>
        ) : (
          <Fragment key={i}>{part.text}</Fragment>
        ),
      )}
    </>
  );
}
