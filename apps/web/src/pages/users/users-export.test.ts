import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import Papa from 'papaparse';
import type { TenantUserView } from '@helix/shared/schemas/tenant-user';
import { csvText, xlsxCells } from '../../ui/export-table';
import { usersExportTable } from './users-export';

const user = (over: Partial<TenantUserView>): TenantUserView => ({
  id: 1,
  name: 'José García',
  email: 'jose@example.com',
  userName: 'jose',
  isPassword: true,
  isOwner: false,
  roles: [
    { id: 1, name: 'Admin' },
    { id: 2, name: 'User' },
  ],
  rolesVersion: 1,
  createdAt: '2026-01-11T08:30:00.000Z',
  status: 'active',
  lastLoginAt: '2026-02-01T16:05:00.000Z',
  abilities: { view: true, resend: false, delete: true },
  ...over,
});

const local = (iso: string) => dayjs(iso).format('YYYY-MM-DD HH:mm');

describe('the users export', () => {
  const users = [
    user({}),
    user({
      id: 2,
      name: '=cmd|x',
      email: 'ivy@example.com',
      roles: [],
      status: 'invited',
      lastLoginAt: null,
    }),
  ];

  it('has name, e-mail, roles, status, created and last login', () => {
    expect(usersExportTable(users)).toEqual({
      header: ['Name', 'Email', 'Roles', 'Status', 'Created', 'Last login'],
      rows: [
        [
          'José García',
          'jose@example.com',
          'Admin, User',
          'Active',
          local('2026-01-11T08:30:00.000Z'),
          local('2026-02-01T16:05:00.000Z'),
        ],
        ['=cmd|x', 'ivy@example.com', '', 'Invited', local('2026-01-11T08:30:00.000Z'), ''],
      ],
    });
  });

  it('CSV: byte-order mark and guarded cells; XLSX: the name as it is', () => {
    const table = usersExportTable(users);
    const csv = csvText(table);
    expect(csv.startsWith('\uFEFFName,Email,Roles,Status,Created,Last login\r\n')).toBe(true);
    expect(Papa.parse<string[]>(csv).data[2]![0]).toBe("'=cmd|x");
    expect(xlsxCells(table)[2]![0]).toEqual({ type: String, value: '=cmd|x' });
  });
});
