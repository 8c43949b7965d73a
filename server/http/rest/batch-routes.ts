import type { Handler } from 'hono';
import type { BatchService } from '../../pushes/batch/batch-service.js';
import { batchCsv, batchStatus } from '../../pushes/batch/batch-csv.js';
import type { AppEnv } from '../app-env.js';
import { readJsonBody } from './json-body.js';

/**
 * POST /api/v2/pushes/batch: one link per recipient (pushes/batch/batch-service.ts). JSON in;
 * JSON out, or the CSV of links with `?format=csv` or `Accept: text/csv`. 201 when every row was
 * created, 207 when some were (each row's status says which), else the first failure's status.
 * The app mounts it as a fixed sibling of POST /api/v2/pushes/:token
 * (v2-routes.ts), not as a route of its own: a fixed POST /pushes/batch beside
 * POST /pushes/:token/email would send the app to TrieRouter (active-router.test.ts).
 */
export function batchCreateHandler(batches: BatchService, maxBodyBytes: number): Handler<AppEnv> {
  return async (c) => {
    const body = await readJsonBody(c, maxBodyBytes, '{"push": {...options}, "recipients": [{"name", "email", "payload"}] or "recipients_csv": "..."}');
    const result = await batches.create(c.get('ctx'), body);
    const status = batchStatus(result) as 201;
    const asCsv = c.req.query('format') === 'csv' || (c.req.header('accept') ?? '').includes('text/csv');
    if (!asCsv) return c.json(result, status);
    return c.body(batchCsv(result), status, {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="secret-links-${result.batch_id}.csv"`,
      'Cache-Control': 'no-store',
    });
  };
}
