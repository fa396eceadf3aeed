import { describe, expect, it } from 'vitest';
import { abilities, aSessionUser } from '../session/session-user.fixtures';
import { modelPageAbilities } from './model-permissions';

describe('modelPageAbilities', () => {
  it('nobody signed in, or a session without abilities, may do nothing', () => {
    expect(Object.values(modelPageAbilities(null)).every((v) => v === false)).toBe(true);
    expect(Object.values(modelPageAbilities(aSessionUser(['Model.add']))).every((v) => v === false)).toBe(
      true,
    );
  });

  it('reads the server session abilities, whatever the permissions say', () => {
    const school = aSessionUser(['Model.add', 'Model.update'], {
      abilities: abilities('home', 'seeViewUsage', 'buyViews'),
    });
    expect(modelPageAbilities(school)).toEqual({
      list: true,
      add: false,
      transparentEmbed: false,
      seeViews: true,
      seeAdditionalViews: false,
      addViews: true,
    });
    const platform = aSessionUser([], { abilities: abilities('catalogue', 'addModel', 'transparentEmbed') });
    expect(modelPageAbilities(platform)).toMatchObject({ list: true, add: true, seeViews: false });
  });

  it('additional-view information goes with the counters', () => {
    const user = aSessionUser([], { abilities: abilities('home', 'seeAdditionalViews') });
    expect(modelPageAbilities(user).seeAdditionalViews).toBe(false);
  });
});
