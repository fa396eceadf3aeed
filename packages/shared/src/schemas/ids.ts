/**
 * The largest id (PostgreSQL int4, every id column): a larger one matches nothing and would make the
 * query fail, so request schemas bound every id with it (a 400, never a 500).
 */
export const MAX_ID = 2_147_483_647;
