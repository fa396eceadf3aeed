/* eslint-disable @typescript-eslint/no-unused-vars -- goes with this file, once every route is declared with defineRoute */
import { z } from 'zod';
import {
  ClientLogRequest,
  ForgotPasswordRequest,
  GoogleStartQuery,
  GoogleValidateRequest,
  JoinRequest,
  LoginRequest,
  LogoutRequest,
  RegisterRequest,
  ResetPasswordRequest,
  ValidateUserRequest,
  ValidateUserResponse,
} from '@helix/shared/schemas/account';
import { AuditFilters, AuditListQuery, AuditPage } from '@helix/shared/schemas/audit';
import {
  BillingConfigView,
  BuyViews,
  CancelSubscription,
  CancelSubscriptionView,
  CardCheckoutView,
  ChangePreview,
  ChangePreviewView,
  CheckoutCreate,
  CheckoutUrl,
  InvoiceListQuery,
  InvoiceListView,
  LatestInvoicePayment,
  PaymentIntentCreate,
  PaymentIntentUpdate,
  PaymentIntentView,
  PlanChange,
  PlanChangeView,
  PortalRequest,
  SeatsChange,
  SetupIntentCancel,
  SetupIntentConfirm,
  SetupIntentCreate,
  SetupIntentUpdate,
  SetupIntentView,
  SubscriptionChange,
  SubscriptionSummaryView,
  SubscriptionView,
  TrialCreate,
  WebhookAnswer,
} from '@helix/shared/schemas/billing';
import { BrandingUpdate } from '@helix/shared/schemas/branding';
import {
  EmbedLinkExpiry,
  EmbedLinkHosts,
  EmbedLinkList,
  EmbedLinkListQuery,
  EmbedLinkPage,
  EmbedLinkRevoke,
  EmbedLinkView,
} from '@helix/shared/schemas/embed-link';
import {
  AcceptInvitationRequest,
  InvitationQuery,
  InvitationRenewalRequest,
  InvitationView,
} from '@helix/shared/schemas/invitation';
import {
  BatchIdParams,
  BulkInviteBatchView,
  BulkInviteRequest,
  BulkInviteStarted,
  InviteRequest,
  MessageAnswer,
  ResendInviteRequest,
} from '@helix/shared/schemas/invite';
import { UserStatsPage, UserStatsQuery } from '@helix/shared/schemas/list-query';
import {
  EmbedCreate,
  EmbedCreated,
  EmbedDetail,
  EmbedDetailRequest,
  ModelIdRequest,
  ModelListQuery,
  ModelListResponse,
  ModelUpdate,
  ModelView,
  TenantOption,
  ViewerModel,
  ViewerModelQuery,
  ViewerRecordGrant,
  ViewerRecordQuery,
  ViewerUrl,
  ViewsSummary,
} from '@helix/shared/schemas/model';
import {
  NewsletterListQuery,
  SubscriberList,
  SubscriberPage,
  UnsubscribeQuery,
} from '@helix/shared/schemas/newsletter';
import {
  OfflineCopy,
  OfflineCopyRequest,
  OfflineViewAnswer,
  OfflineViewRequest,
} from '@helix/shared/schemas/pinned-model';
import { PlanView } from '@helix/shared/schemas/plan';
import {
  AddUserRequest,
  AddUserResponse,
  PLATFORM_USERS_SORTS,
  PlatformUserList,
  PlatformUserPage,
} from '@helix/shared/schemas/platform-user';
import { ProfileUpdate, ProfileUpdateResponse } from '@helix/shared/schemas/profile';
import {
  AssignRoles,
  MessageView,
  PermissionView,
  RoleDelete,
  RoleIdRequest,
  RolePermissionsView,
  RoleSave,
  RoleSaved,
  RolesAssigned,
  RoleView,
} from '@helix/shared/schemas/role';
import { AuthProvidersView, AuthResponse, SessionUser } from '@helix/shared/schemas/session';
import {
  SupportIdParams,
  SupportListQuery,
  SupportRequestCreate,
  SupportRequestCreated,
  SupportRequestList,
  SupportRequestPage,
  SupportRequestView,
  SupportStatusUpdate,
} from '@helix/shared/schemas/support';
import { BrandingView, CustomBrandingRequest, TenantBrandingView } from '@helix/shared/schemas/tenant';
import { TenantOptionPage, TenantOptionsQuery } from '@helix/shared/schemas/tenant-option';
import {
  DeleteUserRequest,
  TENANT_USERS_SORTS,
  TenantUserList,
  TenantUserPage,
  TenantUsersQuery,
  UserDetailRequest,
  UserDetailView,
} from '@helix/shared/schemas/tenant-user';
import {
  LtiClassStats,
  LtiDeepLinkChoice,
  LtiLaunchRequest,
  LtiLoginRequest,
  LtiPickerQuery,
  LtiPlatformDelete,
  LtiPlatformSave,
  LtiPlatformView,
  LtiSettings,
  LtiToolView,
} from '@helix/shared/schemas/lti';
import { OEmbedQuery, OEmbedResponse } from '@helix/shared/schemas/oembed';
import { NoQuery } from '../http/validate.ts';
import { FileParams, FileQuery, ImageParams } from '../routes/viewer.routes.ts';
import { ApiError, component, describeRoute, type HttpMethod, type RouteDoc, type Tag } from './describe.ts';

// Until every route module declares its routes with defineRoute (then this file goes).
let currentTag: Tag = 'Reference';
const section = (tag: Tag, _description?: string) => {
  currentTag = tag;
};
const route = (signature: `${Uppercase<HttpMethod>} /api${string}`, doc: Omit<RouteDoc, 'tag'>) => {
  const [verb, path] = signature.split(' ') as [string, `/api${string}`];
  describeRoute(verb.toLowerCase() as HttpMethod, path, { ...doc, tag: currentTag });
};

/**
 * Every route under /api, one `route()` each, grouped by area. A route added to the app without a line
 * here fails openapi.test.ts; the answers the API tests see are checked against these (test/contract.ts).
 */

// ---- answers that have no shared schema (no presenter: the route writes them itself) ----
const html = (description: string, status = 200) => ({ status, type: 'text/html', description });
const csv = (description: string) => ({
  type: 'text/csv',
  description,
  headers: { 'Content-Disposition': 'attachment; filename=…' },
});
const noContent = (description = 'Done; no body.') => ({ status: 204, description });
// Express's redirect carries a one-line body in the media type the browser prefers.
const redirect = (description: string) => ({
  status: 302,
  type: ['text/plain', 'text/html'],
  schema: z.string(),
  description,
  headers: { Location: 'Where the browser goes next.' },
});

section('Reference', 'This document and its interactive reference.');

section('Operations', 'Liveness and readiness for load balancers.');

section('Accounts', 'Sign-in, sign-up, invitations, password reset and the session user.');

section('Plans', 'The plan catalogue.');

section('Branding', 'White-label branding of a school.');

section('Models', 'The model catalogue, share and embed links, views.');
route('POST /api/model/embed/detail', {
  summary: "The share and embed pages' model and a viewer token (the viewer's lookup counts the view)",
  description:
    'Failures carry `success: false` beside the error shape. A link limited to some sites answers 403 EMBED_HOST_NOT_ALLOWED on a page of any other site.',
  body: EmbedDetailRequest,
  errorShape: component('EmbedDetailError', ApiError.extend({ success: z.literal(false) })),
  limited: true,
  errors: [403, 404, 409],
  ok: EmbedDetail,
});

section('Viewer', "The viewer host's calls (another origin, CORS for VIEWER_URL) and files.");
const preflight = {
  summary: 'CORS preflight of the viewer host',
  ok: noContent("CORS headers for VIEWER_URL's origin."),
};
route('OPTIONS /api/viewer/model', preflight);
route('OPTIONS /api/viewer/record', preflight);
route('OPTIONS /api/files/models/:id', preflight);
route('GET /api/viewer/model', {
  summary: 'The model a viewer load shows (counts a view)',
  query: ViewerModelQuery,
  limited: true,
  errors: [403, 404, 409],
  ok: ViewerModel,
});
route('GET /api/viewer/record', {
  summary: 'May this viewer record now?',
  query: ViewerRecordQuery,
  limited: true,
  errors: [403, 404],
  ok: ViewerRecordGrant,
});
/** A stored file's answers: whole, a Range's part, not modified, a Range outside the file. */
const stored = (types: string[], description: string) => [
  { type: types, description },
  {
    status: 206,
    type: types,
    description: 'Part of the file (Range).',
    headers: { 'Content-Range': 'bytes start-end/size' },
  },
  { status: 304, description: 'Not modified (If-None-Match / If-Modified-Since).' },
  { status: 416, description: 'The Range is outside the file.' },
];
route('GET /api/files/models/:id', {
  summary: "A model's .glb (signed URL from the viewer model answer)",
  description: 'A missing, malformed or expired signature answers 403.',
  params: FileParams,
  query: FileQuery,
  errors: [403, 404],
  ok: stored(['model/gltf-binary'], 'The file.'),
});
route('GET /api/files/images/:key', {
  summary: 'A public image (thumbnail, branding)',
  params: ImageParams,
  errors: [404],
  ok: stored(['image/webp', 'image/png'], 'The image.'),
});

section('Users', "A tenant's users, invitations and bulk invites; platform users.");

section('Roles', 'Roles, permissions and role assignment (platform admins).');

section('Newsletter', 'The newsletter list and its unsubscribe link.');

section('Support', 'Fast-track support requests.');

section('Audit', 'The audit log.');

section(
  'Billing',
  "Plans, payments and the subscription (Stripe). Money calls are the owner's (403 BILLING_OWNER_ONLY).",
);
section('Classrooms', 'oEmbed for pasted links, and Helix as an LTI 1.3 tool (docs/lti.md).');
