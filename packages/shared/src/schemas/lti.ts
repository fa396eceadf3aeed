import { z } from 'zod';
import { MSG } from '../messages.ts';
import { MAX_ID } from './ids.ts';
import { CONTROL_CHARACTERS, opaqueText, requiredText } from './text.ts';

/**
 * LTI 1.3 (docs/lti.md): a school's owner registers learning platforms (Moodle, Canvas...) and reads
 * the tool's own addresses and keys to paste there; the platforms launch Helix through the base calls
 * under /api/lti (OIDC login initiation, launch, deep linking). Request and answer shapes of every
 * LTI call live here; the launch's own claims are checked by the server (packages/server/src/lti).
 */

/** The tool's base paths (after PUBLIC_URL). One launch URL serves resource links and deep linking. */
export const LTI_PATHS = {
  login: '/api/lti/login',
  launch: '/api/lti/launch',
  deepLink: '/api/lti/deep-link',
  jwks: (tenant: string) => `/api/lti/jwks/${encodeURIComponent(tenant)}`,
} as const;

/** The custom parameter a deep-linked item carries: the model's urlModelName. */
export const LTI_MODEL_PARAM = 'helix_model';

/** A retired tool key stays in the JWKS this long (a deep-linking answer signed just before is still checked). */
export const LTI_KEY_GRACE_DAYS = 7;

const httpUrl = (required: string) =>
  z
    .string({ error: required })
    .trim()
    .min(1, { error: required })
    .max(2000, { error: MSG.tooLong(2000) })
    .pipe(z.url({ protocol: /^https?$/, error: MSG.ltiUrlInvalid }));

const deploymentId = z
  .string()
  .trim()
  .min(1, { error: MSG.ltiDeploymentInvalid })
  .max(255, { error: MSG.ltiDeploymentInvalid })
  .refine((v) => !CONTROL_CHARACTERS.test(v) && !/\s/.test(v), { error: MSG.ltiDeploymentInvalid });

/**
 * POST /lti/platform/save: registers a platform (no id) or changes one (id). The owner's form checks
 * with this schema too. Issuer and client id together name the registration across Helix.
 */
export const LtiPlatformSave = z.strictObject({
  id: z.number().int().min(1).max(MAX_ID).optional(),
  name: requiredText(MSG.ltiNameRequired, 100),
  issuer: httpUrl(MSG.ltiIssuerRequired),
  clientId: requiredText(MSG.ltiClientIdRequired, 255),
  deploymentIds: z
    .array(deploymentId, { error: MSG.ltiDeploymentRequired })
    .min(1, { error: MSG.ltiDeploymentRequired })
    .max(50, { error: MSG.ltiDeploymentInvalid })
    .transform((ids) => [...new Set(ids)]),
  authLoginUrl: httpUrl(MSG.ltiUrlInvalid),
  tokenUrl: httpUrl(MSG.ltiUrlInvalid),
  keysetUrl: httpUrl(MSG.ltiUrlInvalid),
});
export type LtiPlatformSave = z.input<typeof LtiPlatformSave>;

/** POST /lti/platform/delete */
export const LtiPlatformDelete = z.strictObject({ id: z.number().int().min(1).max(MAX_ID) });
export type LtiPlatformDelete = z.input<typeof LtiPlatformDelete>;

/** One registered platform (the answer schema: the server presents exactly this). */
export const LtiPlatformView = z.strictObject({
  id: z.number().int(),
  name: z.string(),
  issuer: z.string(),
  clientId: z.string(),
  deploymentIds: z.array(z.string()),
  authLoginUrl: z.string(),
  tokenUrl: z.string(),
  keysetUrl: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type LtiPlatformView = z.infer<typeof LtiPlatformView>;

/** One of the tool's public keys as the settings page shows it. */
const LtiToolKeyView = z.strictObject({
  kid: z.string(),
  createdAt: z.string(),
  /** null: the key in use; else when it was retired (published until LTI_KEY_GRACE_DAYS after). */
  retiredAt: z.string().nullable(),
});
type LtiToolKeyView = z.infer<typeof LtiToolKeyView>;

/** What the owner pastes into the LMS: Helix's addresses as a tool, and its keys. */
export const LtiToolView = z.strictObject({
  loginUrl: z.string(),
  launchUrl: z.string(),
  deepLinkUrl: z.string(),
  jwksUrl: z.string(),
  /** The domain some platforms ask for (Canvas: "Domain"). */
  domain: z.string(),
  keys: z.array(LtiToolKeyView),
});
export type LtiToolView = z.infer<typeof LtiToolView>;

/** GET /lti: the settings page's whole answer. */
export const LtiSettings = z.strictObject({
  tool: LtiToolView,
  platforms: z.array(LtiPlatformView),
});
export type LtiSettings = z.infer<typeof LtiSettings>;

// ---- base calls (no session; forms posted by the platform or the picker) ------------------------------

/** GET or POST /api/lti/login: the platform's third-party login initiation (OIDC). */
export const LtiLoginRequest = z.object({
  iss: opaqueText(500).pipe(z.string().min(1, { error: MSG.ltiLoginInvalid })),
  login_hint: opaqueText(2000).pipe(z.string().min(1, { error: MSG.ltiLoginInvalid })),
  target_link_uri: opaqueText(2000).pipe(z.url({ error: MSG.ltiLoginInvalid })),
  lti_message_hint: opaqueText(4000).optional(),
  client_id: opaqueText(255).optional(),
  lti_deployment_id: opaqueText(255).optional(),
  lti_storage_target: opaqueText(100).optional(),
});
export type LtiLoginRequest = z.input<typeof LtiLoginRequest>;

/** POST /api/lti/launch: the platform's form post after authentication. */
export const LtiLaunchRequest = z.object({
  id_token: opaqueText(20_000).pipe(z.string().min(1, { error: MSG.ltiLaunchInvalid })),
  state: opaqueText(200).pipe(z.string().min(1, { error: MSG.ltiLaunchInvalid })),
});
export type LtiLaunchRequest = z.input<typeof LtiLaunchRequest>;

/** The picker's chosen models: `model` once per model in a form (one string, or several), as numbers. */
const PickedModels = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]))
  .pipe(
    z
      .array(
        z
          .string()
          .regex(/^\d{1,10}$/)
          .transform(Number),
      )
      .max(100),
  );

/**
 * GET /api/lti/deep-link: the picker again, searched (the session made by the deep-linking launch),
 * keeping the models already ticked (the search is the picker form's other button).
 */
export const LtiPickerQuery = z.strictObject({
  session: z.string().regex(/^[A-Za-z0-9_-]{20,64}$/, { error: MSG.ltiDeepLinkExpired }),
  q: z.string().max(200, { error: MSG.listSearchTooLong }).optional(),
  model: PickedModels,
});
export type LtiPickerQuery = z.input<typeof LtiPickerQuery>;

/**
 * POST /api/lti/deep-link: the teacher's choice in the picker (a form post: `model` once per chosen
 * model) or `cancel` (an empty answer goes back to the platform). `q` is the search field of the same
 * form, ignored here.
 */
export const LtiDeepLinkChoice = z.object({
  session: z.string().regex(/^[A-Za-z0-9_-]{20,64}$/, { error: MSG.ltiDeepLinkExpired }),
  model: PickedModels,
  cancel: z.string().max(10).optional(),
});
export type LtiDeepLinkChoice = z.input<typeof LtiDeepLinkChoice>;

// ---- statistics -----------------------------------------------------------------------------------------

/** One class (LTI course) with the views its launches made. */
export const LtiClassStatsRow = z.strictObject({
  id: z.number().int(),
  title: z.string(),
  label: z.string(),
  platformName: z.string(),
  views: z.number().int(),
  /** Distinct models the class opened. */
  models: z.number().int(),
  lastLaunchAt: z.string(),
});
export type LtiClassStatsRow = z.infer<typeof LtiClassStatsRow>;

/** GET /stats/classes: the school's classes, most views first (at most LTI_CLASS_STATS_MAX). */
export const LtiClassStats = z.strictObject({
  rows: z.array(LtiClassStatsRow),
  totalViews: z.number().int(),
});
export type LtiClassStats = z.infer<typeof LtiClassStats>;

export const LTI_CLASS_STATS_MAX = 500;

// ---- the id_token's claims (IMS LTI 1.3 core and Deep Linking 2.0), checked after its signature -------

export const LTI_CLAIM = {
  messageType: 'https://purl.imsglobal.org/spec/lti/claim/message_type',
  version: 'https://purl.imsglobal.org/spec/lti/claim/version',
  deploymentId: 'https://purl.imsglobal.org/spec/lti/claim/deployment_id',
  targetLinkUri: 'https://purl.imsglobal.org/spec/lti/claim/target_link_uri',
  resourceLink: 'https://purl.imsglobal.org/spec/lti/claim/resource_link',
  roles: 'https://purl.imsglobal.org/spec/lti/claim/roles',
  context: 'https://purl.imsglobal.org/spec/lti/claim/context',
  custom: 'https://purl.imsglobal.org/spec/lti/claim/custom',
  deepLinkingSettings: 'https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings',
  contentItems: 'https://purl.imsglobal.org/spec/lti-dl/claim/content_items',
  data: 'https://purl.imsglobal.org/spec/lti-dl/claim/data',
  msg: 'https://purl.imsglobal.org/spec/lti-dl/claim/msg',
} as const;

export const LTI_MESSAGE_TYPES = ['LtiResourceLinkRequest', 'LtiDeepLinkingRequest'] as const;

const claimText = (max: number) => z.string().max(max);

/** What every launch carries besides the JWT's own claims (iss, aud, exp, iat, nonce). */
const LaunchBase = z.object({
  sub: claimText(255).optional(),
  /** The user's name (OIDC standard claims, sent when the platform shares names): a lesson's roster. */
  name: claimText(255).optional(),
  given_name: claimText(255).optional(),
  family_name: claimText(255).optional(),
  [LTI_CLAIM.version]: z.literal('1.3.0'),
  [LTI_CLAIM.deploymentId]: claimText(255).min(1),
  [LTI_CLAIM.roles]: z.array(claimText(500)).max(200).default([]),
  [LTI_CLAIM.context]: z
    .object({
      id: claimText(255).min(1),
      label: claimText(255).optional(),
      title: claimText(1000).optional(),
    })
    .optional(),
  [LTI_CLAIM.custom]: z.record(z.string(), z.unknown()).optional(),
});

export const LtiResourceLinkClaims = LaunchBase.extend({
  [LTI_CLAIM.messageType]: z.literal('LtiResourceLinkRequest'),
  [LTI_CLAIM.targetLinkUri]: z.url(),
  [LTI_CLAIM.resourceLink]: z.object({ id: claimText(255).min(1), title: claimText(1000).optional() }),
});
export type LtiResourceLinkClaims = z.infer<typeof LtiResourceLinkClaims>;

const LtiDeepLinkingSettings = z.object({
  deep_link_return_url: z.url({ protocol: /^https?$/ }),
  accept_types: z.array(z.string().max(100)).min(1),
  accept_presentation_document_targets: z.array(z.string().max(100)).default([]),
  accept_multiple: z.boolean().optional(),
  auto_create: z.boolean().optional(),
  title: claimText(1000).optional(),
  text: claimText(4000).optional(),
  data: claimText(4000).optional(),
});
type LtiDeepLinkingSettings = z.infer<typeof LtiDeepLinkingSettings>;

export const LtiDeepLinkingClaims = LaunchBase.extend({
  [LTI_CLAIM.messageType]: z.literal('LtiDeepLinkingRequest'),
  [LTI_CLAIM.deepLinkingSettings]: LtiDeepLinkingSettings,
});
export type LtiDeepLinkingClaims = z.infer<typeof LtiDeepLinkingClaims>;

/** One item of a deep-linking answer: an LTI resource link to one model. */
export const LtiResourceLinkItem = z.object({
  type: z.literal('ltiResourceLink'),
  title: z.string(),
  url: z.url(),
  custom: z.record(z.string(), z.string()),
  thumbnail: z.object({ url: z.url() }).optional(),
  iframe: z.object({ width: z.number().int(), height: z.number().int() }).optional(),
  window: z.object({ targetName: z.string() }).optional(),
});
export type LtiResourceLinkItem = z.infer<typeof LtiResourceLinkItem>;

/** The deep-linking answer's claims (signed by the school's tool key, posted back to the platform). */
export const LtiDeepLinkingResponseClaims = z.object({
  iss: z.string(),
  aud: z.union([z.string(), z.array(z.string())]),
  nonce: z.string(),
  [LTI_CLAIM.messageType]: z.literal('LtiDeepLinkingResponse'),
  [LTI_CLAIM.version]: z.literal('1.3.0'),
  [LTI_CLAIM.deploymentId]: z.string(),
  [LTI_CLAIM.contentItems]: z.array(LtiResourceLinkItem),
  [LTI_CLAIM.data]: z.string().optional(),
});
export type LtiDeepLinkingResponseClaims = z.infer<typeof LtiDeepLinkingResponseClaims>;
