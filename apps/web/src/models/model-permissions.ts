import { abilitiesOf, type SessionUser } from '../session/session-user';

/**
 * What the models screen offers this session, read from the server's session abilities (the page and
 * the toolbar); each card's own actions come with the model (`model.abilities`). Nothing is derived
 * here: the server decides, and checks again on every call.
 */
export interface ModelPageAbilities {
  /** The grid itself: a school's home grid or the platform's catalogue. */
  list: boolean;
  /** Add Model. */
  add: boolean;
  /** A transparent background in the Share/Embed dialog. */
  transparentEmbed: boolean;
  /** Views counters and the period's usage (a school's users). */
  seeViews: boolean;
  /** Additional-view price and extras with the counters. */
  seeAdditionalViews: boolean;
  /** Add Views. */
  addViews: boolean;
}

export function modelPageAbilities(user: SessionUser | null): ModelPageAbilities {
  const can = abilitiesOf(user);
  return {
    list: can.home || can.catalogue,
    add: can.addModel,
    transparentEmbed: can.transparentEmbed,
    seeViews: can.seeViewUsage,
    seeAdditionalViews: can.seeViewUsage && can.seeAdditionalViews,
    addViews: can.buyViews,
  };
}
