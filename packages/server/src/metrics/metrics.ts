import client from 'prom-client';

/**
 * The process's metrics, in Prometheus's text format (prom-client's default registry, one per
 * process): HTTP request durations by route and status, jobs (wait, run time, outcomes per queue
 * family and job, queue depth), views buffered in Redis and the flush lag, Stripe webhooks (lag,
 * outcomes), Stripe call errors, live lessons' sockets held (by role), the database pool, and Node's
 * process metrics. Names start with `helix_`; every series carries the process (`api`, `worker`) as a
 * default label. Served by metrics-endpoint.ts; the dashboard and alert rules that read them are in ops/.
 */
export const metricsRegistry = client.register;

let started = false;
/** Process metrics (CPU, memory, event loop lag, GC, handles) and the `process` label: once per process. */
export function startProcessMetrics(processName: 'api' | 'worker'): void {
  if (started) return;
  started = true;
  metricsRegistry.setDefaultLabels({ process: processName });
  client.collectDefaultMetrics({ prefix: 'helix_' });
}

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const JOB_SECONDS = [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300, 1800];

export const httpRequestDuration = new client.Histogram({
  name: 'helix_http_request_duration_seconds',
  help: 'HTTP requests by method, route pattern and status code',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: SECONDS,
});

export const jobWaitSeconds = new client.Histogram({
  name: 'helix_job_wait_seconds',
  help: 'Time from a job being added (or its delay ending) to a worker starting it',
  labelNames: ['family', 'job'] as const,
  buckets: JOB_SECONDS,
});

export const jobRunSeconds = new client.Histogram({
  name: 'helix_job_run_seconds',
  help: 'Time a worker spent on one attempt of a job',
  labelNames: ['family', 'job'] as const,
  buckets: JOB_SECONDS,
});

export const jobOutcomes = new client.Counter({
  name: 'helix_jobs_total',
  help: 'Job attempts finished, by outcome (completed, failed)',
  labelNames: ['family', 'job', 'outcome'] as const,
});

export const viewsLastFlush = new client.Gauge({
  name: 'helix_views_last_flush_timestamp_seconds',
  help: 'When the views flush last finished (flush lag: time() minus this)',
});

export const viewsFlushed = new client.Counter({
  name: 'helix_views_flushed_total',
  help: 'Views written to PostgreSQL by the flush',
});

export const webhookLagSeconds = new client.Histogram({
  name: 'helix_stripe_webhook_lag_seconds',
  help: "Time from a Stripe event's creation to its webhook being received",
  buckets: [0.1, 0.5, 1, 5, 15, 60, 300, 3600],
});

export const webhookOutcomes = new client.Counter({
  name: 'helix_stripe_webhooks_total',
  help: 'Stripe webhook deliveries, by outcome (applied, duplicate, refused, failed)',
  labelNames: ['outcome'] as const,
});

export const stripeCallErrors = new client.Counter({
  name: 'helix_stripe_call_errors_total',
  help: 'Stripe API calls answered with an error status, by method and status',
  labelNames: ['method', 'status'] as const,
});

export const lessonSockets = new client.Gauge({
  name: 'helix_lesson_sockets',
  help: "Live lessons' socket connections held by this API process, by role (teacher, pupil)",
  labelNames: ['role'] as const,
});
