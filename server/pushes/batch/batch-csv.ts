import { stringify } from 'csv-stringify/sync';
import type { BatchResult } from '../../../shared/batch-schema.js';

/**
 * The sender's one copy of a batch's links: a CSV of row, name, email, link, status, error (every
 * row, created or not, so a partial batch says which rows exist). Cells that a spreadsheet would
 * run as a formula (=, +, -, @ first) are escaped by csv-stringify's escape_formulas.
 */
export function batchCsv(result: BatchResult): string {
  return stringify(
    result.rows.map((r) => [r.row, r.name, r.email ?? '', r.html_url ?? '', r.status, r.error ?? '']),
    { header: true, columns: ['row', 'name', 'email', 'link', 'status', 'error'], escape_formulas: true, record_delimiter: 'windows' },
  );
}

/** The answer's status: 201 when every row was created, 207 when some were, else the failure's own. */
export function batchStatus(result: BatchResult): number {
  if (result.failed === 0 && result.not_attempted === 0) return 201;
  if (result.created > 0) return 207;
  return result.rows.find((r) => r.status === 'failed')?.http_status ?? 422;
}
