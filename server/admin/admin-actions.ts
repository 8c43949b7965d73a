/** Every action an administrator can take; each leaves one admin-log entry named so. */
export const adminActions = [
  'user.grant-admin',
  'user.revoke-admin',
  'user.lock',
  'user.unlock',
  'user.end-sessions',
  'user.revoke-tokens',
  'user.reset-second-factor',
  'user.delete',
  'user.delete-with-pushes',
  'push.expire',
  'audit.export',
  'invite.create',
  'invite.revoke',
] as const;
export type AdminAction = (typeof adminActions)[number];
