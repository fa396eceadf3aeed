import { createStore } from 'jotai';
import { describe, expect, it } from 'vitest';
import { MSG } from '@helix/shared';
import type { JoinLessonByLti } from '@helix/shared/lessons';
import { ApiError } from '../../api/api-error';
import { renderRoute } from '../../server-render/render-route.server';
import { sessionReadyAtom } from '../../session/session.atoms';
import { takeLtiTicket, type AddressBar } from './lti-ticket';
import { joinByLtiTicket } from './use-lti-join';
import { aSeat } from '../../lessons/lesson.fixtures';

/** An address bar that records what the page wrote to it, as the browser's would. */
function addressBar(url: string, state: unknown = { idx: 0, key: 'k' }) {
  const replaced: { state: unknown; url: string }[] = [];
  const { pathname, search, hash } = new URL(url, 'https://helix.test');
  const bar: AddressBar = {
    location: { pathname, search, hash },
    history: {
      state,
      replaceState: (next: unknown, _unused: string, to?: string | URL | null) =>
        replaced.push({ state: next, url: String(to) }),
    },
  };
  return { bar, replaced };
}

const TICKET = 'lti1.eyJ0IjoxLCJtIjoyfQ.c2lnbmF0dXJlLV8';

describe('takeLtiTicket', () => {
  it('reads the ticket after #lti= and takes it out of the address bar, keeping the router’s state', () => {
    const { bar, replaced } = addressBar(`/join/ABC234#lti=${TICKET}`);
    expect(takeLtiTicket(bar)).toBe(TICKET);
    expect(replaced).toEqual([{ state: { idx: 0, key: 'k' }, url: '/join/ABC234' }]);
  });

  it('keeps the rest of the address (query, other fragment parts)', () => {
    const { bar, replaced } = addressBar(`/join/ABC234?from=lms#lti=${TICKET}&x=1`);
    expect(takeLtiTicket(bar)).toBe(TICKET);
    expect(replaced.map((r) => r.url)).toEqual(['/join/ABC234?from=lms#x=1']);
  });

  it('leaves an address without a ticket alone', () => {
    for (const url of ['/join/ABC234', '/join#other=1', '/join#']) {
      const { bar, replaced } = addressBar(url);
      expect(takeLtiTicket(bar)).toBeNull();
      expect(replaced).toEqual([]);
    }
  });

  it('removes an empty ticket without joining with it', () => {
    const { bar, replaced } = addressBar('/join/ABC234#lti=');
    expect(takeLtiTicket(bar)).toBeNull();
    expect(replaced.map((r) => r.url)).toEqual(['/join/ABC234']);
  });
});

describe('joinByLtiTicket', () => {
  it('posts the ticket and answers the seat', async () => {
    const sent: JoinLessonByLti[] = [];
    const outcome = await joinByLtiTicket(TICKET, (input) => {
      sent.push(input);
      return Promise.resolve(aSeat());
    });
    expect(sent).toEqual([{ ticket: TICKET }]);
    expect(outcome).toEqual({ seat: aSeat() });
  });

  it('answers the refusal in the catalogue’s words, or the server’s own', async () => {
    const refused = (error: ApiError) => joinByLtiTicket(TICKET, () => Promise.reject(error));
    expect(await refused(new ApiError(404, 'Not Found', MSG.defaultError))).toEqual({
      refusal: MSG.lessonNotFound,
    });
    expect(await refused(new ApiError(429, 'Too Many Requests', MSG.defaultError))).toEqual({
      refusal: MSG.lessonJoinThrottled,
    });
    expect(await refused(new ApiError(409, 'Conflict', MSG.lessonOver))).toEqual({ refusal: MSG.lessonOver });
    expect(await refused(ApiError.network(false))).toEqual({ refusal: MSG.defaultError });
  });

  it('does not send a ticket the schema refuses', async () => {
    let calls = 0;
    const outcome = await joinByLtiTicket('x'.repeat(1201), () => {
      calls += 1;
      return Promise.resolve(aSeat());
    });
    expect(calls).toBe(0);
    expect(outcome).toEqual({ refusal: MSG.lessonNotFound });
  });
});

describe('the join page on the server, for a launch', () => {
  it('renders the code form (the fragment never reaches the server); the page joins once hydrated', async () => {
    const store = createStore();
    store.set(sessionReadyAtom, true);
    const { html } = await renderRoute('/join/abc234', store);
    expect(html).toMatch(/<input[^>]*id="join-lesson_code"[^>]*value="ABC234"/);
    expect(html).not.toContain('data-testid="join-lti"');
  });
});
