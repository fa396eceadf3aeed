import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { MSG } from '@helix/shared';
import { ResponsiveTable, type ResponsiveColumn } from './responsive-table';

type Row = { id: number; name: string; email: string; views: number };
const ROWS: Row[] = [{ id: 1, name: 'Ada', email: 'ada@example.com', views: 3 }];

/** The server's markup (what the first paint is made of): each cell's and header's attributes. */
function draw(columns: ResponsiveColumn<Row>[]) {
  const html = renderToStaticMarkup(<ResponsiveTable<Row> rowKey="id" dataSource={ROWS} columns={columns} />);
  const body = html.slice(html.indexOf('<tbody'));
  const attrs = (tag: string, from: string) =>
    Array.from(from.matchAll(new RegExp(`<${tag}(\\s[^>]*)?>`, 'g')), (m) => m[1] ?? '');
  return { html, cells: attrs('td', body), heads: attrs('th', html.slice(0, html.indexOf('<tbody'))) };
}
const attr = (attrs: string, name: string) => new RegExp(`${name}="([^"]*)"`).exec(attrs)?.[1] ?? null;

describe('ResponsiveTable', () => {
  it('labels each cell with its column and marks priorities and roles on cells and headers', () => {
    const { html, cells, heads } = draw([
      { title: 'Name', dataIndex: 'name', key: 'name', role: 'title' },
      { title: 'Email', dataIndex: 'email', key: 'email', priority: 2, width: 200 },
      { title: 'Views', dataIndex: 'views', key: 'views', priority: 3, label: 'Model views' },
      { title: '', key: 'actions', role: 'actions', render: () => <button type="button">Go</button> },
    ]);
    expect(cells.map((c) => attr(c, 'data-label'))).toEqual(['Name', 'Email', 'Model views', '', null]);
    expect(attr(cells[0]!, 'class')).toContain('rt-title');
    expect(attr(cells[1]!, 'class')).toContain('rt-p2');
    expect(attr(cells[2]!, 'class')).toContain('rt-p3');
    expect(attr(cells[3]!, 'class')).toContain('rt-actions');
    // The width is on the header cell, not in a <colgroup> (a folded column's <col> would shift the others).
    expect(attr(heads[1]!, 'class')).toContain('rt-p2');
    expect(attr(heads[1]!, 'style')).toContain('width:200px');
    expect(html).not.toContain('<col ');
    // The last cell opens the row's details, shown below 1,200 px (the deepest priority is 3).
    expect(attr(cells[4]!, 'class')).toContain('rt-toggle-p3');
    expect(html).toContain(`aria-label="${MSG.showRowDetails}"`);
    expect(html).toContain('aria-expanded="false"');
  });

  it('has no details button when nothing folds', () => {
    const { html, cells } = draw([
      { title: 'Name', dataIndex: 'name', key: 'name' },
      { title: 'Email', dataIndex: 'email', key: 'email' },
    ]);
    expect(cells).toHaveLength(2);
    expect(html).not.toContain('rt-toggle');
  });
});
