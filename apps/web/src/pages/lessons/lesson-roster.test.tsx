import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import type { LessonPupil } from '@helix/shared/lessons';
import { LessonRoster } from './lesson-roster';

const pupil = (id: string, name: string, over: Partial<LessonPupil> = {}): LessonPupil => ({
  id,
  name,
  signedIn: false,
  connected: true,
  ...over,
});
const actions = { giveControl: vi.fn(), takeBack: vi.fn(), remove: vi.fn() };

describe('LessonRoster', () => {
  it('shows a name a pupil typed as text, never as markup', () => {
    const html = renderToStaticMarkup(
      <LessonRoster
        pupils={[pupil('p1', '<img src=x onerror=alert(1)>')]}
        control={null}
        disabled={false}
        actions={actions}
      />,
    );
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  it('names each pupil’s controls, offers Take back to the one in control, and no control to one away', () => {
    const html = renderToStaticMarkup(
      <LessonRoster
        pupils={[
          pupil('p1', 'Ada', { signedIn: true }),
          pupil('p2', 'Ben'),
          pupil('p3', 'Cy', { connected: false }),
        ]}
        control="p2"
        disabled={false}
        actions={actions}
      />,
    );
    expect(html).toContain('2 of 3 connected');
    expect(html).toContain('aria-label="Give control to Ada"');
    expect(html).toContain('aria-label="Take back control from Ben"');
    expect(html).not.toContain('aria-label="Give control to Ben"');
    expect(html).toMatch(/<button aria-label="Give control to Cy"[^>]*disabled=""/);
    for (const name of ['Ada', 'Ben', 'Cy']) expect(html).toContain(`aria-label="Remove ${name}"`);
    expect(html.match(/Signed in/g)).toHaveLength(1);
    expect(html).toContain('aria-label="Not connected"');
  });

  it('says so when nobody has joined', () => {
    const html = renderToStaticMarkup(
      <LessonRoster pupils={[]} control={null} disabled={false} actions={actions} />,
    );
    expect(html).toContain('No one has joined yet.');
  });
});
