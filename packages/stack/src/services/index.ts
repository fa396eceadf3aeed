export * from './types.ts';
export * from './net.ts';
export * from './process.ts';
export * from './postgres.ts';
export * from './redis.ts';
export * from './smtp.ts';
export * from './s3.ts';
