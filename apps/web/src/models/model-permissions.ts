import { hasPermission, type SessionUser } from '../session/session-user';

export interface ModelAbilities {
  /** The grid itself (Model.listing.view). */
  list: boolean;
  /** Opening a model in the viewer (Model.view). */
  view: boolean;
  /** Add Model: Model.add and admin status. */
  add: boolean;
  /** Edit and delete: the permission, and admin status because the API only lets admins change the catalogue. */
  edit: boolean;
  remove: boolean;
  /** Share and embed (Model.embed; the plan's modelEmbed flag is already folded into the permissions). */
  embed: boolean;
  /**
   * The Share/Embed modal offers a transparent background (Background.transparent: in the effective
   * permissions only with the plan's transparentBackgroundWebEmbeding). The server decides again.
   */
  transparentEmbed: boolean;
  /** Views counters and additional-view information: non-admins only. */
  seeViews: boolean;
  /** Additional-view price and extras: non-admins with Subscription.listing.view. */
  seeAdditionalViews: boolean;
  /**
   * Add Views: as the server decides it (the session's abilities.buyViews: the owner, a plan in force
   * that has a view limit and sells extra views, no Model.unlimited_views).
   */
  addViews: boolean;
}

/** What the models screen offers this user (administration-content 6). The server enforces it all. */
export function modelAbilities(user: SessionUser | null): ModelAbilities {
  const admin = Boolean(user?.isAdmin);
  const can = (p: Parameters<typeof hasPermission>[1]) => hasPermission(user, p);
  const subscriptionView = can('Subscription.listing.view');
  return {
    list: can('Model.listing.view'),
    view: can('Model.view'),
    add: admin && can('Model.add'),
    edit: admin && can('Model.update'),
    remove: admin && can('Model.delete'),
    embed: can('Model.embed'),
    transparentEmbed: can('Model.embed') && can('Background.transparent'),
    seeViews: Boolean(user) && !admin,
    seeAdditionalViews: Boolean(user) && !admin && subscriptionView,
    addViews: Boolean(user?.abilities?.buyViews),
  };
}
