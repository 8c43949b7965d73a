import type { InstanceAuditEntry } from '../storage/admin-records.js';

export type AuditExportFormat = 'csv' | 'ndjson';

const COLUMNS = ['at', 'event', 'push', 'account', 'ip', 'user_agent'] as const;

/**
 * A spreadsheet runs a cell that starts with = + - @ (or a tab or CR) as a formula: such a cell
 * (a user agent is the client's to choose) is prefixed with ' so it stays text (OWASP's advice
 * against CSV injection). Quotes double, as RFC 4180 has it.
 */
function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

function row(e: InstanceAuditEntry, format: AuditExportFormat, account: string): string {
  const fields = { at: e.at, event: e.kind, push: e.push, account, ip: e.ip, user_agent: e.userAgent };
  if (format === 'ndjson') return JSON.stringify(fields) + '\n';
  return COLUMNS.map((c) => csvCell(fields[c])).join(',') + '\r\n';
}

/** Rows written per pull: enough to keep syscalls few, few enough to stay small. */
const ROWS_PER_CHUNK = 500;

/**
 * The export as a byte stream that reads the next entries only when the client has taken the
 * previous ones (a pull source): memory stays bounded whatever the number of entries, and a
 * slow SIEM slows the reading instead of filling the server's memory.
 */
export function auditExportStream(entries: AsyncIterable<InstanceAuditEntry>, format: AuditExportFormat, accountEmail: (id: string | null) => string | Promise<string>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const iterator = entries[Symbol.asyncIterator]();
  let headerSent = format === 'ndjson';
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let text = headerSent ? '' : COLUMNS.join(',') + '\r\n';
        headerSent = true;
        for (let i = 0; i < ROWS_PER_CHUNK; i++) {
          const next = await iterator.next();
          if (next.done) {
            if (text) controller.enqueue(encoder.encode(text));
            controller.close();
            return;
          }
          text += row(next.value, format, await accountEmail(next.value.owner));
        }
        controller.enqueue(encoder.encode(text));
      },
      async cancel() {
        await iterator.return?.();
      },
    },
    { highWaterMark: 1 },
  );
}
