export * from './permissions.ts';
export * from './messages.ts';
export * from './api-error.ts';
export * from './embed.ts';
export * from './embed-hosts.ts';
export * from './jobs.ts';
export * from './schemas/text.ts';
export * from './schemas/account.ts';
