/** An account as the rest of the server sees it (never with its password hash). */
export interface User {
  id: string;
  email: string;
  createdAt: string;
  /** An administrator (server/admin/admin-role.ts decides). */
  admin?: boolean;
}
