import { z } from 'zod';
import { batchInputSchema, batchResultSchema, MAX_BATCH_ROWS } from '../../../shared/batch-schema.js';

/** The OpenAPI part of one link per recipient (pushes/batch/): POST /pushes/batch. */
const schema = (s: z.ZodType, io: 'input' | 'output') => z.toJSONSchema(s, { io, unrepresentable: 'any' });
const errorBody = { type: 'object', properties: { error: { type: 'string' } } };

export function batchPaths() {
  const result = { 'application/json': { schema: schema(batchResultSchema, 'output') }, 'text/csv': { schema: { type: 'string', description: 'row,name,email,link,status,error (with ?format=csv or Accept: text/csv)' } } };
  return {
    '/pushes/batch': {
      post: {
        summary: `One link per recipient: up to ${MAX_BATCH_ROWS} rows (a JSON list or CSV text), each its own push with the same options (account only)`,
        parameters: [{ name: 'format', in: 'query', required: false, schema: { type: 'string', enum: ['csv'] } }],
        requestBody: { required: true, content: { 'application/json': { schema: schema(batchInputSchema, 'input') } } },
        responses: {
          201: { description: 'Every row created; the answer is the only list of the links', content: result },
          207: { description: 'Some rows created: a limit (the account batch-row budget BATCH_ROWS_PER_HOUR, storage quota, e-mail limits) refused one row; the rows before it exist, the ones after it were not attempted', content: result },
          401: { description: 'Sign in (an account only)', content: { 'application/json': { schema: errorBody } } },
          422: { description: 'The list or the options are invalid (every bad row named); nothing was created', content: { 'application/json': { schema: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } } } } },
          429: { description: 'The first row was refused by a limit: nothing was created (rows listed)', content: result },
        },
      },
    },
  };
}
