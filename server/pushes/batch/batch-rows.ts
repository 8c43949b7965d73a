import { parse } from 'csv-parse/sync';
import { z } from 'zod';
import { batchRowSchema, MAX_BATCH_ROWS, type BatchRow } from '../../../shared/batch-schema.js';
import { ServiceError } from '../../service-error.js';

/** A recipient row, checked: its label (name, else e-mail), address and secret (null: to generate). */
export interface RecipientRow {
  row: number;
  name: string;
  email: string | null;
  payload: string | null;
}

const MAX_LABEL_CHARS = 255;
const address = z.email().max(254);

/** CSV columns the header may name, by what they mean. */
const COLUMN_NAMES: Record<string, keyof BatchRow> = {
  name: 'name',
  email: 'email',
  'e-mail': 'email',
  mail: 'email',
  secret: 'payload',
  payload: 'payload',
  password: 'payload',
};

/**
 * CSV text with a header row (name, email, secret — in any order, case-insensitive, `payload` or
 * `password` for the secret), as spreadsheets export it: quoted fields, a BOM, CRLF or LF.
 * csv-parse does the quoting rules; a malformed file is a 422 naming the line.
 */
export function rowsFromCsv(text: string): BatchRow[] {
  let records: string[][];
  try {
    records = parse(text, { bom: true, skip_empty_lines: true, record_delimiter: ['\r\n', '\n', '\r'] });
  } catch (e) {
    throw ServiceError.validation({ recipients_csv: [`is not valid CSV: ${(e as Error).message}`] });
  }
  const [header, ...body] = records;
  if (!header) throw ServiceError.validation({ recipients_csv: ["can't be blank"] });
  const columns = header.map((h) => COLUMN_NAMES[h.trim().toLowerCase()]);
  if (!columns.some((c) => c === 'name' || c === 'email')) {
    throw ServiceError.validation({ recipients_csv: ['needs a header row naming its columns: name and/or email, and secret (unless the server generates them)'] });
  }
  if (body.length > MAX_BATCH_ROWS) tooMany(body.length);
  return body.map((cells) => {
    const row: BatchRow = {};
    cells.forEach((cell, i) => {
      const key = columns[i];
      if (key && cell !== '') row[key] = cell;
    });
    return row;
  });
}

function tooMany(n: number): never {
  throw ServiceError.validation({ recipients: [`has ${n} rows: at most ${MAX_BATCH_ROWS} per batch`] });
}

/**
 * Every row's own fields checked (label, address, secret), all problems with their row numbers
 * (`row 3: ...`, counting from 1 after the header); the batch service adds the push rules' and
 * refuses the whole list with all of them, so that a bad list creates nothing.
 */
export function checkRows(raw: unknown[], generate: boolean): { rows: RecipientRow[]; problems: string[] } {
  if (raw.length === 0) throw ServiceError.validation({ recipients: ['must have at least one row'] });
  if (raw.length > MAX_BATCH_ROWS) tooMany(raw.length);
  const problems: string[] = [];
  const rows: RecipientRow[] = [];
  raw.forEach((value, i) => {
    const n = i + 1;
    const parsed = batchRowSchema.safeParse(value);
    if (!parsed.success) return void problems.push(`row ${n}: ${parsed.error.issues.map((x) => x.message).join(', ')}`);
    const { name, email, payload } = parsed.data;
    const label = name?.trim() || email?.trim() || '';
    if (!label) problems.push(`row ${n}: needs a name or an email`);
    else if ([...label].length > MAX_LABEL_CHARS) problems.push(`row ${n}: the name is too long (maximum is ${MAX_LABEL_CHARS} characters)`);
    const mail = email?.trim() || null;
    if (mail && !address.safeParse(mail).success) problems.push(`row ${n}: ${JSON.stringify(mail.slice(0, 80))} is not an e-mail address`);
    if (generate && payload) problems.push(`row ${n}: has a secret, but the server was asked to generate them`);
    if (!generate && !payload) problems.push(`row ${n}: needs a secret (or ask the server to generate them)`);
    rows.push({ row: n, name: label, email: mail, payload: payload ?? null });
  });
  return { rows, problems };
}
