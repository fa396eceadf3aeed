import { createStore } from 'jotai';
import { describe, expect, it } from 'vitest';
import { MSG } from '@helix/shared';
import { ApiError } from '../../api/api-error';
import { renderRoute } from '../../server-render/render-route.server';
import { serverRenderedRoute } from '../../server-render/route-prefetch';
import { aSessionUser } from '../../session/session-user.fixtures';
import { sessionReadyAtom, sessionUserAtom } from '../../session/session.atoms';
import { refusalText } from './join-refusal';

const guestStore = () => {
  const store = createStore();
  store.set(sessionReadyAtom, true);
  return store;
};

describe('the join page, rendered on the server', () => {
  it('is one of the pages the server renders for a signed-out tablet, with or without a code', () => {
    expect(serverRenderedRoute('/join')?.route).toMatchObject({ kind: 'join', guest: true });
    expect(serverRenderedRoute('/join/ABC234')?.params).toEqual({ code: 'ABC234' });
  });

  it('asks a guest for the code (filled from the link) and a name', async () => {
    const { html } = await renderRoute('/join/abc234', guestStore());
    expect(html).toContain('<h1');
    expect(html).toContain('Join a lesson');
    expect(html).toMatch(/<input[^>]*id="join-lesson_code"[^>]*value="ABC234"/);
    expect(html).toContain('id="join-lesson_name"');
    expect(html).toMatch(/<button[^>]*type="submit"[^>]*>.*Join/);
  });

  it('does not ask a signed-in user for a name', async () => {
    const store = guestStore();
    store.set(sessionUserAtom, aSessionUser([], { name: 'Ada <Teacher>' }));
    const { html } = await renderRoute('/join', store);
    expect(html).not.toContain('id="join-lesson_name"');
    expect(html).toContain('You join as <strong>Ada &lt;Teacher&gt;</strong>');
  });
});

describe('refusalText', () => {
  it('says why the join was refused in the catalogue’s words', () => {
    expect(refusalText(new ApiError(404, 'Not Found', MSG.defaultError))).toBe(MSG.lessonNotFound);
    expect(refusalText(new ApiError(409, 'Conflict', MSG.defaultError))).toBe(MSG.lessonFull);
    expect(refusalText(new ApiError(429, 'Too Many Requests', MSG.defaultError))).toBe(
      MSG.lessonJoinThrottled,
    );
    // The server's own message wins.
    expect(refusalText(new ApiError(409, 'Conflict', MSG.lessonOver))).toBe(MSG.lessonOver);
    expect(refusalText(ApiError.network(false))).toBe(MSG.defaultError);
  });

  it('leaves field errors to the fields', () => {
    const error = new ApiError(400, 'Bad Request', 'x', { code: MSG.lessonCodeInvalid });
    error.shownInForm = true;
    expect(refusalText(error)).toBeNull();
  });
});
