import type { Request, RequestHandler, Response } from 'express';
import helmet, { type HelmetOptions } from 'helmet';
import { LRUCache } from 'lru-cache';
import type { Config } from '@helix/server';

const origin = (url: string | undefined): string[] => {
  if (!url) return [];
  try {
    return [new URL(url).origin];
  } catch {
    return [];
  }
};

/**
 * The `frame-ancestors` sources of a share or embed page: what embed-frame-policy.ts chose for the
 * link (its sites), else any site.
 */
const frameAncestorsOf = (res: Response): string =>
  Array.isArray(res.locals.frameAncestors) ? (res.locals.frameAncestors as string[]).join(' ') : '*';

/**
 * Public viewer pages that other sites may put in an iframe: exactly `/embed/<token>` or
 * `/share/<token>`, one segment (a trailing slash routes to the same page). A deeper path
 * (`/embed/x/y`) is not a viewer page: the web app would redirect it to the login form, which must
 * never show inside a stranger's frame.
 */
export const EMBEDDABLE = /^\/(embed|share)\/[A-Za-z0-9_-]{1,200}\/?$/;

/**
 * A live lesson's pages for pupils, `/join/<code>` and `/lesson/<id>`: a learner's launch in a course
 * lands on them inside the learning platform's frame (docs/live-lessons.md, "From a course"), so any
 * site may frame them, like a share page. They show a lesson's code and model, never a school's
 * records, and ask for nothing but a pupil's name; every other page stays same-origin only.
 */
const LESSON_PAGE = /^\/(join|lesson)\/[A-Za-z0-9_-]{1,64}\/?$/;

/**
 * The web app's hashed build files (scripts, styles, images under /assets/). A content security policy,
 * framing rule, opener or referrer policy governs documents (and workers, such as /sw.js), not a script
 * or stylesheet a page loads, so these go without them: about 1 kB less per file, which on the login
 * page's twenty-odd files is a tablet's round trip.
 */
const STATIC_ASSET = /^\/assets\//;

/**
 * Security headers for everything we serve (helmet). The content security policy is written for the
 * built web app: its own scripts, Stripe's payment element, the viewer frame on VIEWER_URL. The
 * /embed/* and /share/* pages may be framed by any site, or by the link's sites when it is limited to
 * some (embed-frame-policy.ts), and a lesson's pupil pages by any site (LESSON_PAGE); everything else
 * only by us.
 */
export function securityHeaders(config: Config): RequestHandler {
  // Stripe.js may come from elsewhere than js.stripe.com (STRIPE_JS_URL: stripe-local's stand-in).
  const stripeJs = origin(config.STRIPE_JS_URL).filter((o) => o !== 'https://js.stripe.com');
  const directives = {
    defaultSrc: ["'self'"],
    baseUri: ["'self'"],
    objectSrc: ["'none'"],
    scriptSrc: ["'self'", 'https://js.stripe.com', ...stripeJs],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:', 'blob:', 'https:', ...origin(config.VIEWER_URL)],
    fontSrc: ["'self'", 'data:'],
    connectSrc: [
      "'self'",
      'https://api.stripe.com',
      'https://*.stripe.com',
      ...stripeJs,
      ...origin(config.VIEWER_URL),
    ],
    frameSrc: [
      "'self'",
      'https://js.stripe.com',
      'https://hooks.stripe.com',
      ...stripeJs,
      ...origin(config.VIEWER_URL),
    ],
    workerSrc: ["'self'", 'blob:'],
    manifestSrc: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'self'"],
    // Not in development: it would turn the http://localhost viewer frame into https.
    upgradeInsecureRequests: config.NODE_ENV === 'production' ? [] : null,
  };
  const options = (embeddable: boolean): HelmetOptions => ({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        ...directives,
        // A link limited to some sites lists them (embed-frame-policy.ts); any other: any site.
        frameAncestors: embeddable ? [(_req, res) => frameAncestorsOf(res as Response)] : ["'self'"],
      },
    },
    crossOriginResourcePolicy: { policy: 'cross-origin' },
    strictTransportSecurity: config.NODE_ENV === 'production',
    frameguard: embeddable ? false : { action: 'sameorigin' },
  });
  const strict = replayed(helmet(options(false)));
  const embeddable = replayed(helmet(options(true)), frameAncestorsOf);
  const asset = replayed(
    helmet({
      crossOriginResourcePolicy: { policy: 'cross-origin' },
      strictTransportSecurity: config.NODE_ENV === 'production',
      contentSecurityPolicy: false,
      crossOriginOpenerPolicy: false,
      originAgentCluster: false,
      referrerPolicy: false,
      frameguard: false,
      xDnsPrefetchControl: false,
      xDownloadOptions: false,
      xPermittedCrossDomainPolicies: false,
      xXssProtection: false,
    }),
  );
  return (req, res, next) => {
    const headers = STATIC_ASSET.test(req.path)
      ? asset
      : EMBEDDABLE.test(req.path) || LESSON_PAGE.test(req.path)
        ? embeddable
        : strict;
    headers(req, res, next);
  };
}

/** One header helmet sets (a value) or removes (null). */
type HeaderOp = readonly [name: string, value: string | number | readonly string[] | null];

/** Distinct frame-ancestors lists whose headers are kept (a page's referrer can name any site). */
const RECORDED_POLICIES = 500;

/**
 * A helmet middleware run once per distinct input and replayed on every answer: helmet's headers are
 * the same for every request but for the frame-ancestors of a share or embed page (frameAncestorsOf),
 * so each list of them is run through helmet once (its validation included: a refused value is the
 * same error, never kept) and its headers are set from the record afterwards. The public embed path
 * answers thousands of page loads a second; a dozen helmet middlewares per answer was a measurable part.
 */
function replayed(headers: RequestHandler, inputOf: (res: Response) => string = () => ''): RequestHandler {
  const records = new LRUCache<string, HeaderOp[]>({ max: RECORDED_POLICIES });
  return (req, res, next) => {
    const key = inputOf(res);
    let ops = records.get(key);
    if (!ops) {
      const recorded: HeaderOp[] = [];
      const recorder = {
        locals: res.locals,
        setHeader: (name: string, value: string | number | readonly string[]) => recorded.push([name, value]),
        removeHeader: (name: string) => recorded.push([name, null]),
      };
      let failed: unknown;
      headers(req as Request, recorder as unknown as Response, (err?: unknown) => {
        failed = err;
      });
      if (failed) {
        next(failed);
        return;
      }
      ops = recorded;
      records.set(key, ops);
    }
    for (const [name, value] of ops) {
      if (value === null) res.removeHeader(name);
      else res.setHeader(name, value);
    }
    next();
  };
}
