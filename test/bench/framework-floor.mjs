// The framework floor: what answering `GET /api/v2/version` costs in the framework we route with
// (Hono on @hono/node-server, as the push server runs them) and nothing of ours: one middleware
// setting the same headers (the push server's own, FLOOR_VERSION_ANSWER, with a fresh request
// id) on Node's response, as our request frame does, and one route answering the same body.
// Beside the guarantees floor (node:http alone) it splits version's cost into node:http, the
// framework, and our own layers. Started by `npm run bench`.
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { randomUUID } from 'node:crypto';

const versionAnswer = process.env.FLOOR_VERSION_ANSWER ? JSON.parse(process.env.FLOOR_VERSION_ANSWER) : { headers: [['content-type', 'application/json']], body: '{}' };
const headers = versionAnswer.headers.filter(([name]) => name !== 'content-type' && name !== 'x-request-id' && name !== 'content-length');
const contentType = versionAnswer.headers.find(([name]) => name === 'content-type')?.[1] ?? 'application/json';

const app = new Hono();
app.use(async (c, next) => {
  const outgoing = c.env.outgoing;
  outgoing.setHeader('X-Request-Id', randomUUID());
  for (const [name, value] of headers) outgoing.setHeader(name, value);
  await next();
});
app.get('/api/v2/version', (c) => c.body(versionAnswer.body, 200, { 'Content-Type': contentType }));

serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => process.stdout.write(`listening on http://127.0.0.1:${info.port}\n`));
