import dayjs from 'dayjs';
import type { TenantUserView } from '@helix/shared/schemas/tenant-user';
import type { ExportTable } from '../../ui/export-table';

const USERS_EXPORT_HEADER = ['Name', 'Email', 'Roles', 'Status', 'Created', 'Last login'] as const;

const STATUS_TEXT: Record<TenantUserView['status'], string> = { invited: 'Invited', active: 'Active' };

/** A date and time of the export, in the browser's time zone (sorts as text too). */
const exportDate = (iso: string | null): string => (iso ? dayjs(iso).format('YYYY-MM-DD HH:mm') : '');

/** The owner's users export: name, e-mail, roles, status (invited, active), created and last login. */
export function usersExportTable(users: readonly TenantUserView[]): ExportTable {
  return {
    header: USERS_EXPORT_HEADER,
    rows: users.map((u) => [
      u.name,
      u.email,
      u.roles.map((r) => r.name).join(', '),
      STATUS_TEXT[u.status],
      exportDate(u.createdAt),
      exportDate(u.lastLoginAt),
    ]),
  };
}
