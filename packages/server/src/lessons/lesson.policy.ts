import { MSG } from '@helix/shared';
import type { Actor } from '../sessions/session.service.ts';
import { planGrants } from '../auth/permissions.ts';
import { canLeadLesson } from '../models/model.policy.ts';

/**
 * Why `actor` may not lead live lessons, or null when they may (models/model.policy.ts canLeadLesson:
 * Lesson.lead among the effective permissions). A school whose plan in force does not sell live
 * lessons is told so; a user whose roles lack the permission gets the usual refusal.
 */
export function leadRefusal(actor: Actor): string | null {
  if (canLeadLesson(actor)) return null;
  if (!actor.user.isAdmin && !planGrants(actor.tenant.subscription).has('Lesson.lead'))
    return MSG.lessonNotInPlan;
  return MSG.unauthorizedAccess;
}

/** A lesson is its teacher's: only they see it, lead it and end it (another user's is a 404). */
export const isTeacherOf = (actor: Actor, lesson: { tenantId: number; teacherId: number }): boolean =>
  lesson.tenantId === actor.tenant.id && lesson.teacherId === actor.user.id;
