/** An account as the rest of the server sees it (never with its password hash). */
export interface User {
  id: string;
  email: string;
  createdAt: string;
  /** An administrator (server/admin/admin-role.ts decides). */
  admin?: boolean;
  /** The page language it last used (StoredUser.locale): its e-mails are written in it. */
  locale?: string;
  /** The receipts by e-mail its pushes and requests get when they do not say. */
  receiptDefaults?: ReceiptDefaults;
}

export interface ReceiptDefaults {
  opened: boolean;
  expiredUnopened: boolean;
  requestAnswered: boolean;
}
