/** The test databases live with the server (packages/server/src/testing/test-db.ts); the apps' tests import them from here too. */
export * from '@helix/server/testing/test-db';
