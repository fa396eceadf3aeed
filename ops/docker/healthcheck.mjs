// The container's HEALTHCHECK (Dockerfile): plain Node (the image has no curl), one process per role.
//   HELIX_PROCESS=web     GET /api/health on PORT (liveness: the process answers; readiness, which
//                         also asks PostgreSQL and Redis, is the load balancer's check, not a restart's)
//   HELIX_PROCESS=viewer  GET / on VIEWER_PORT
//   HELIX_PROCESS=worker  GET /metrics on METRICS_PORT when it is set (with METRICS_TOKEN), else alive
//   HELIX_PROCESS=release the one-shot migration: always healthy
const role = process.env.HELIX_PROCESS ?? 'web';
const get = async (url, headers = {}) => {
  const res = await fetch(url, { headers, signal: AbortSignal.timeout(4000) });
  await res.arrayBuffer();
  return res.status;
};
const checks = {
  web: async () => (await get(`http://127.0.0.1:${process.env.PORT ?? 3000}/api/health`)) === 200,
  viewer: async () => (await get(`http://127.0.0.1:${process.env.VIEWER_PORT ?? 3001}/`)) < 500,
  worker: async () =>
    !process.env.METRICS_PORT ||
    (await get(`http://127.0.0.1:${process.env.METRICS_PORT}/metrics`, {
      Authorization: `Bearer ${process.env.METRICS_TOKEN ?? ''}`,
    })) === 200,
  release: async () => true,
};
const check = checks[role];
if (!check) {
  console.error(`unknown HELIX_PROCESS ${role}`);
  process.exit(1);
}
check().then(
  (ok) => process.exit(ok ? 0 : 1),
  (error) => {
    console.error(`unhealthy: ${error.message}`);
    process.exit(1);
  },
);
