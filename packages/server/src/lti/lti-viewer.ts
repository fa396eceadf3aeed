import { randomBytes } from 'node:crypto';
import { LTI_CLAIM, type LtiResourceLinkClaims } from '@helix/shared/schemas/lti';
import type { ServerDeps } from '../deps.ts';
import type { LtiPlatform } from '../db.ts';
import { visibleToTenant } from '../models/model.policy.ts';
import { viewerPageUrl } from '../models/viewer-urls.ts';
import { hasActivePlan } from '../views/allowance.ts';
import { launchName, liveLessonOfCourse, teachesCourse } from '../lessons/lti-lesson.ts';
import type { ViewLoad } from '../views/record-view.ts';
import { lessonStartUrl } from '../lessons/lesson.presenter.ts';
import { ltiError } from './lti-errors.ts';
import { launchedModelName } from './lti-launch.ts';
import type { LtiTeachView } from './lti-pages.ts';
import { pupilKey, signLtiViewerTicket, verifyLtiViewerTicket } from './lti-viewer-ticket.ts';

const tenantInclude = { subscription: { include: { plan: true } }, branding: true } as const;

/** A launch without a course is counted under one "no course" class per platform. */
export const NO_COURSE_TITLE = 'Without a course';

const clip = (text: string, max: number) => (text.length > max ? text.slice(0, max) : text);

/** The course of a launch, created on its first launch; its title and label follow the latest launch. */
async function courseOf(deps: ServerDeps, platform: LtiPlatform, claims: LtiResourceLinkClaims) {
  const context = claims[LTI_CLAIM.context];
  const contextId = context?.id ?? '';
  const title = clip(context?.title?.trim() || context?.label?.trim() || contextId || NO_COURSE_TITLE, 255);
  const label = clip(context?.label?.trim() ?? '', 255);
  const now = new Date();
  return deps.db.ltiContext.upsert({
    where: { platformId_contextId: { platformId: platform.id, contextId } },
    create: { tenantId: platform.tenantId, platformId: platform.id, contextId, title, label },
    update: { title, label, lastLaunchAt: now },
    select: { id: true, title: true },
  });
}

/** Where a launch goes: the viewer (or a lesson's join page), or, for an instructor, the teaching page. */
export interface LaunchedModel {
  url: string;
  /** An instructor of a school whose plan has live lessons: the page framing the viewer (ltiTeachPage). */
  teach?: LtiTeachView;
}

/**
 * A resource link launch (already verified): the model it names, visible to the school and with a
 * file, while the school's plan is in force; the viewer page for it with an LTI viewer ticket (naming
 * an instructor as such, and the name the platform sent). A learner whose course has a live lesson on
 * the model goes to the lesson's join page instead, and an instructor whose school's plan has live
 * lessons gets the viewer inside a page that starts the course's lesson (docs/live-lessons.md, "From a
 * course"). The view itself is counted when the viewer loads (GET /api/viewer/model), like every other
 * view.
 */
export async function openLaunchedModel(
  deps: ServerDeps,
  platform: LtiPlatform,
  claims: LtiResourceLinkClaims,
): Promise<LaunchedModel> {
  const modelName = launchedModelName(claims);
  if (!modelName) throw ltiError.noModel();
  const tenant = await deps.db.tenant.findUnique({
    where: { id: platform.tenantId },
    include: tenantInclude,
  });
  if (!tenant) throw ltiError.unknownPlatform();
  if (!hasActivePlan(tenant)) throw ltiError.planInactive();
  const model = await deps.db.model.findFirst({
    where: {
      urlModelName: modelName,
      fileKey: { not: null },
      ...visibleToTenant(tenant.id, tenant.isPlatform),
    },
    select: { id: true, name: true, urlModelName: true, version: true },
  });
  if (!model) throw ltiError.modelGone();
  const course = await courseOf(deps, platform, claims);
  const secret = deps.config.SIGNING_SECRET;
  // An anonymous launch (no sub) is a pupil of its own.
  const pupil = claims.sub
    ? pupilKey(secret, platform.id, claims.sub)
    : randomBytes(16).toString('base64url').slice(0, 22);
  const instructor = teachesCourse(claims);
  const name = launchName(claims);
  const ticket = signLtiViewerTicket(
    secret,
    {
      t: tenant.id,
      m: model.id,
      c: course.id,
      v: pupil,
      ...(instructor ? { r: 'i' as const } : {}),
      ...(name ? { n: name } : {}),
    },
    deps.config.LTI_VIEWER_TTL_MINUTES * 60,
  );
  // A learner whose course has a live lesson on this model lands in it (the join page takes the seat
  // with the ticket after `#lti=`, never sent to a server in the address); otherwise the viewer.
  if (!instructor) {
    const lesson = await liveLessonOfCourse(deps, {
      tenantId: tenant.id,
      modelId: model.id,
      courseId: course.id,
    });
    if (lesson) return { url: `${lesson.joinUrl}#lti=${ticket}` };
  }
  const url = viewerPageUrl(deps.config, model, ticket, 'embedding');
  if (!instructor || !tenant.subscription?.plan?.liveLessons) return { url };
  return {
    url,
    teach: {
      viewerUrl: url,
      startUrl: lessonStartUrl(deps.config, ticket),
      modelName: model.name,
      courseTitle: course.title,
    },
  };
}

/**
 * The viewer's load with an LTI viewer ticket: the school, the model (still visible to it) and the
 * view's attribution: the course ('l:<ltiContextId>'), once per pupil per model per view window.
 * null when the ticket is not valid (the caller refuses the load).
 */
export async function resolveLtiLoad(deps: ServerDeps, subscription: string, urlModelName: string) {
  const ticket = verifyLtiViewerTicket(deps.config.SIGNING_SECRET, subscription);
  if (!ticket) return null;
  const tenant = await deps.db.tenant.findUnique({ where: { id: ticket.t }, include: tenantInclude });
  if (!tenant) return null;
  const model = await deps.db.model.findFirst({
    where: { id: ticket.m, urlModelName, ...visibleToTenant(tenant.id, tenant.isPlatform) },
  });
  const load: ViewLoad = {
    modelId: ticket.m,
    viewerKey: `l:${ticket.c}`,
    source: 'lti',
    viewer: `l:${ticket.c}:${ticket.v}`,
  };
  return { tenant, model, load };
}
