import { z } from 'zod';

/** The development default of SIGNING_SECRET (never valid in production). */
export const DEV_SIGNING_SECRET = 'helix-development-signing-secret-change-me';

/**
 * Configuration, parsed once at start-up. A missing or malformed variable stops the process with a
 * message naming it. `.env.example` lists every variable.
 */

export const ConfigSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  VIEWER_PORT: z.coerce.number().int().min(0).max(65535).default(3001),
  /** Where people open the portal; used in e-mail links and OAuth redirects. */
  PUBLIC_URL: z.url().default('http://localhost:3000'),
  /** The model host's origin (apps/viewer). */
  VIEWER_URL: z.url().default('http://localhost:3001'),
  DATABASE_URL: z.string().min(1),
  REDIS_URL: z.string().min(1).default('redis://127.0.0.1:6379'),
  /** Prefix for every Redis key and BullMQ queue, so several stacks can share one Redis. */
  REDIS_PREFIX: z.string().min(1).default('helix'),
  SMTP_URL: z.string().min(1).default('smtp://127.0.0.1:1025'),
  MAIL_FROM: z.string().min(1).default('Helix <no-reply@helix.local>'),
  /** Where support requests (the Help form) are e-mailed. */
  SUPPORT_EMAIL: z.email().default('support@helix.local'),
  RESET_TOKEN_TTL_MINUTES: z.coerce.number().int().positive().default(60),
  INVITE_TOKEN_TTL_HOURS: z.coerce.number().int().positive().default(168),
  /**
   * The invitation page's lookup (GET /user/invitation, before login), per client address and
   * RATE_LIMIT_WINDOW_SECONDS: enough for a class opening their invitations from one school address.
   */
  INVITATION_RATE_LIMIT_MAX: z.coerce.number().int().positive().default(300),
  /**
   * Where the Terms of Service and the Privacy Policy links lead (sign-up, the invitation page, the
   * e-mails). Unset: the portal's own plain pages at /terms and /privacy; set: /terms and /privacy
   * redirect there, so every link ever sent keeps working when the address changes.
   */
  TERMS_URL: z.url({ protocol: /^https?$/ }).optional(),
  PRIVACY_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** Rate limits (per IP and route, per window) for login, register and password reset. */
  RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().positive().default(600),
  RATE_LIMIT_MAX: z.coerce.number().int().positive().default(20),
  /**
   * Logins per client address per RATE_LIMIT_WINDOW_SECONDS: a ceiling high enough for a school whose
   * pupils all sign in from one address at the start of a lesson (300 in ten minutes and more).
   */
  LOGIN_ADDRESS_LIMIT_MAX: z.coerce.number().int().positive().default(1_000),
  /**
   * Consecutive failed logins of one account from one address before that address waits (1 s, 2 s,
   * 4 s ... up to LOGIN_DELAY_MAX_SECONDS) between tries on that account (apps/api/src/http/login-throttle.ts).
   */
  LOGIN_FREE_FAILURES: z.coerce.number().int().min(0).default(5),
  LOGIN_DELAY_MAX_SECONDS: z.coerce.number().int().positive().default(900),
  /**
   * Failed logins per account (any addresses) per LOGIN_ACCOUNT_WINDOW_SECONDS past which no address
   * has free failures left on it: many addresses guessing together are slowed, the owner is not locked.
   */
  LOGIN_ACCOUNT_FAILURES_MAX: z.coerce.number().int().positive().default(100),
  LOGIN_ACCOUNT_WINDOW_SECONDS: z.coerce.number().int().positive().default(900),
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_CLIENT_SECRET: z.string().optional(),
  GOOGLE_AUTHORIZATION_URL: z.url().default('https://accounts.google.com/o/oauth2/v2/auth'),
  GOOGLE_TOKEN_URL: z.url().default('https://www.googleapis.com/oauth2/v4/token'),
  GOOGLE_USERINFO_URL: z.url().default('https://www.googleapis.com/oauth2/v3/userinfo'),
  STRIPE_SECRET_KEY: z.string().optional(),
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
  /** A Stripe-compatible server (e.g. on localhost) when there is no real key. */
  STRIPE_API_URL: z.url().optional(),
  /** The publishable key the browser's Stripe.js uses (pk_test_... / pk_live_...). */
  STRIPE_PUBLISHABLE_KEY: z.string().optional(),
  /** Where the web app loads Stripe.js from: js.stripe.com, or the local server's stand-in. */
  STRIPE_JS_URL: z.url().default('https://js.stripe.com/v3'),
  /**
   * Development and tests only: every new Stripe customer is made on a test clock of its own (frozen
   * at its creation), so a trial's end and a renewal can be watched by advancing the clock
   * (`npm run billing:advance-clock`). Refused in production and with a live key.
   */
  STRIPE_TEST_CLOCKS: z
    .enum(['true', 'false', '1', '0'])
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
  /** How often the worker re-reads every live subscription from Stripe (reconcile-billing), in ms. */
  BILLING_RECONCILE_INTERVAL_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .default(15 * 60 * 1000),
  /**
   * How long after Stripe asks for 3-D Secure on an invoice the owner is e-mailed a link to finish it
   * (the card form shows the challenge at once; the mail is for a customer who left), in ms.
   */
  BILLING_ACTION_MAIL_DELAY_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(10 * 60 * 1000),
  /**
   * How long a payment attempt may wait (a card form's first payment, a plan change's invoice) before
   * it counts as abandoned: it is then ended and its invoice voided, so it can never be paid later, in
   * ms. Stripe itself gives up on a first payment after 23 hours.
   */
  BILLING_ATTEMPT_TTL_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(60 * 60 * 1000),
  /** Object storage: a local folder by default. */
  STORAGE_DIR: z.string().min(1).default('.data/storage'),
  S3_ENDPOINT: z.url().optional(),
  S3_BUCKET: z.string().optional(),
  S3_REGION: z.string().optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  /** Serve the caught-mail page at /dev/mail (development only; never in production). */
  DEV_MAIL_DIR: z.string().optional(),
  /** Serve the built web app from this folder. */
  WEB_DIST_DIR: z.string().optional(),
  /**
   * Which peers may set X-Forwarded-For/-Proto/-Host (Express's `trust proxy`): false (default) = none;
   * a comma-separated list of the proxy's addresses or subnets (e.g. `127.0.0.1` for the local nginx,
   * `10.0.0.0/8` for a load balancer's private network, or Express's names `loopback`, `uniquelocal`):
   * only a peer in it is believed, so a client cannot forge its address (rate limits, view ceilings) by
   * sending the header itself. `true` = believe the nearest peer whoever it is (one hop; only when the
   * API is unreachable except through the proxy). docs/scale-out.md, "Behind a proxy".
   */
  TRUST_PROXY: z
    .string()
    .trim()
    .default('false')
    .transform((v): false | 1 | string[] => {
      if (v === '' || v === 'false' || v === '0') return false;
      if (v === 'true' || v === '1') return 1;
      return v
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean);
    }),
  /**
   * HMAC key of viewer tickets and signed model-file URLs (at least 32 characters). The default is for
   * development and tests only: production refuses to start with it.
   */
  SIGNING_SECRET: z.string().min(32).default(DEV_SIGNING_SECRET),
  /**
   * LTI 1.3 (docs/lti.md): a platform's public keys (JWKS) are kept this long, and fetched again when a
   * launch names an unknown key, but at most once per cooldown; a fetch gives up after the timeout.
   */
  LTI_JWKS_CACHE_SECONDS: z.coerce.number().int().min(0).max(86_400).default(600),
  LTI_JWKS_COOLDOWN_SECONDS: z.coerce.number().int().min(0).max(3600).default(30),
  LTI_JWKS_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
  /** How long a pupil's LTI launch opens the viewer (minutes): relaunching from the course renews it. */
  LTI_VIEWER_TTL_MINUTES: z.coerce
    .number()
    .int()
    .min(5)
    .max(24 * 60)
    .default(120),
  /**
   * Live lessons (docs/live-lessons.md): a lesson that nobody leads (no teacher connected, no view)
   * for this long ends by itself (15 minutes).
   */
  LESSON_IDLE_MS: z.coerce
    .number()
    .int()
    .min(500)
    .max(86_400_000)
    .default(15 * 60_000),
  /** Wrong join codes per client address per minute before the join answers 429 (a class shares one address). */
  LESSON_JOIN_FAILURES_PER_MINUTE: z.coerce.number().int().positive().default(20),
  /** Largest accepted model file (.glb), in MB. */
  MODEL_UPLOAD_MAX_MB: z.coerce.number().int().positive().max(2048).default(50),
  /** How long an upload waits for the worker's image check (validate-image job), in ms. */
  /**
   * On SIGTERM the API drains this long before it closes its port: readiness answers 503 and answers
   * close their connections (apps/api/src/http/draining.ts). Set it to the load balancer's health-check
   * interval times its unhealthy threshold (docs/deploying.md); 0 (default) closes at once.
   */
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(120_000).default(0),
  IMAGE_CHECK_TIMEOUT_MS: z.coerce.number().int().positive().default(20_000),
  /** Image uploads (profile picture, branding, thumbnails, screenshots) per user and window. */
  IMAGE_UPLOAD_RATE_LIMIT_MAX: z.coerce.number().int().positive().default(30),
  IMAGE_UPLOAD_RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().positive().default(900),
  /** Image checks (validate-image) a worker process runs at once: the images queue's concurrency. */
  IMAGE_CHECK_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  /**
   * Caps every queue's retry wait (ms) below its family's policy (MAIL_RETRY waits up to 5 minutes).
   * For drills and tests that need the first retries soon after an outage; it shortens how long a
   * job is retried in all, so leave it unset in production.
   */
  JOB_RETRY_MAX_DELAY_MS: z.coerce.number().int().positive().optional(),
  /**
   * How long an invitation's send is leased to the attempt that claimed it (send-invite.ts); a killed
   * worker's e-mails in flight go out again after it. Longer than any SMTP conversation.
   */
  INVITE_SEND_LEASE_MS: z.coerce.number().int().min(1_000).max(600_000).default(30_000),
  /** How often the worker moves buffered view counts from Redis to PostgreSQL (flush-views), in ms. */
  VIEW_FLUSH_INTERVAL_MS: z.coerce.number().int().min(200).default(2_000),
  /** Rate limit of the public embed path (embed detail and viewer loads), per client IP and window. */
  EMBED_RATE_LIMIT_MAX: z.coerce.number().int().positive().default(1_200),
  EMBED_RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().positive().default(60),
  /**
   * Rate limit of the public embed path per embed token (beside the per-IP one), per window of
   * EMBED_RATE_LIMIT_WINDOW_SECONDS: a link's holder spreading loads over many addresses still cannot
   * load it more often than this.
   */
  EMBED_TOKEN_RATE_LIMIT_MAX: z.coerce.number().int().positive().default(600),
  /** A viewer's loads of one model within this many seconds count as one view. */
  VIEW_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(1_800),
  /**
   * The grace band past a tenant's view allowance, in percent of the plan's views: with
   * additionalViewsValidation on, loads are refused only past allowance + this band, so an embed does
   * not stop mid-lesson the moment the allowance runs out.
   */
  VIEW_GRACE_PERCENT: z.coerce.number().int().min(0).max(100).default(10),
  /**
   * The ceiling per client address (an IPv4 address or an IPv6 /64) and share/embed link: at most this
   * many views counted per hour, enough for a classroom behind one school address; loads past it are
   * served but not counted (API.md, "Views").
   */
  VIEWS_PER_ADDRESS_PER_HOUR: z.coerce.number().int().min(1).max(1_000_000).default(60),
  /**
   * The ceiling per client address and school (tenant), across all of the school's share/embed links:
   * at most this many views counted per hour from one address (four classrooms' worth), so one address
   * opening many links cannot burn the school's allowance; loads past it are served but not counted.
   */
  VIEWS_PER_TENANT_ADDRESS_PER_HOUR: z.coerce.number().int().min(1).max(1_000_000).default(120),
  /**
   * Rate limit of the public branding lookup (POST /tenant/custom-branding-detail, before login), per
   * client IP and window: enough for a class behind one address, not for listing every tenant's brand.
   */
  BRANDING_RATE_LIMIT_MAX: z.coerce.number().int().positive().default(120),
  BRANDING_RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().positive().default(60),
  /**
   * Rate limit of POST /model/offline-view per user (any device, any address), per window: a device
   * back online after a week of lessons sends its queued views within minutes (it retries after a
   * 429), a script cannot send a thousand in seconds.
   */
  OFFLINE_VIEW_RATE_LIMIT_MAX: z.coerce.number().int().positive().default(120),
  OFFLINE_VIEW_RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().positive().default(60),
  /**
   * How long an API process reuses what it read about an embed token (token, model, tenant, plan,
   * branding), in ms: a revoked token, a deleted or restricted model or a lapsed plan stops working
   * within this time. At most 10 s; 0 reads the database on every call.
   */
  EMBED_ACCESS_CACHE_MS: z.coerce.number().int().min(0).max(10_000).default(3_000),
  /**
   * Prometheus metrics (README, "Metrics"): the bearer token a scraper sends (at least 16 characters).
   * Unset, GET /metrics answers 404 and the worker opens no metrics port.
   */
  METRICS_TOKEN: z.string().min(16).optional(),
  /** The worker's metrics port (GET /metrics there), on METRICS_HOST; off when unset. */
  METRICS_PORT: z.coerce.number().int().min(1).max(65_535).optional(),
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
});

export type Config = z.infer<typeof ConfigSchema>;

export class ConfigError extends Error {}

/** The only environments where the public development SIGNING_SECRET is accepted. */
const DEV_SECRET_ENVIRONMENTS: readonly Config['NODE_ENV'][] = ['development', 'test'];

export function parseConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const result = ConfigSchema.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  if (
    !DEV_SECRET_ENVIRONMENTS.includes(result.data.NODE_ENV) &&
    result.data.SIGNING_SECRET === DEV_SIGNING_SECRET
  ) {
    throw new ConfigError('Invalid configuration:\n  SIGNING_SECRET: set a secret of your own in production');
  }
  if (
    result.data.STRIPE_TEST_CLOCKS &&
    (result.data.NODE_ENV === 'production' || result.data.STRIPE_SECRET_KEY?.startsWith('sk_live_'))
  ) {
    throw new ConfigError(
      'Invalid configuration:\n  STRIPE_TEST_CLOCKS: test clocks are for development and test mode only',
    );
  }
  return result.data;
}

let cached: Config | undefined;
export function config(): Config {
  cached ??= parseConfig();
  return cached;
}
