import { Hono, type Context } from 'hono';
import { h } from 'preact';
import { moduleFiltersSchema, validateInputSchema } from '../../shared/catalogue-schema.js';
import type { CatalogueService } from '../catalogue/catalogue-service.js';
import type { AppEnv } from './app-env.js';
import { CatalogueListPage, CatalogueModulePage, CatalogueNotFoundPage } from './pages/catalogue-pages.js';
import { sendPage } from './pages/render.js';
import { readMultipartFields } from './multipart-fields.js';
import { readBodyText } from './request-body.js';

/**
 * A wiki request is a few hundred bytes; 50 titles or module paths fit easily. mwn sends long
 * requests as multipart, which is held to the same cap (its text fields, files aside).
 */
const API_PHP_MAX_BODY_BYTES = 64 * 1024;

/** The query string exactly as sent (URLSearchParams would re-encode it). */
const rawQuery = (url: string) => {
  const at = url.indexOf('?');
  return at < 0 ? '' : url.slice(at + 1).replace(/#.*$/, '');
};

const zodMessage = (error: { issues: { path: PropertyKey[]; message: string }[] }) =>
  error.issues.map((i) => (i.path.length ? `${i.path.map(String).join('.')}: ${i.message}` : i.message)).join('; ');

/**
 * The catalogue over HTTP: MediaWiki's `api.php` for wiki clients, REST under /api/catalogue for
 * people and scripts, and the /catalogue pages. Every answer comes from the catalogue service.
 */
export function createCatalogueRoutes(catalogue: CatalogueService): Hono {
  const app = new Hono<AppEnv>();

  const answerApi = (c: Context<AppEnv>, body?: string | [string, string][]) => {
    const answer = catalogue.answerApi({
      query: rawQuery(c.req.url),
      body,
      apiUrl: `${c.get('ctx')?.baseUrl ?? new URL(c.req.url).origin}/api.php`,
      clientIp: c.get('ctx')?.client.ip,
    });
    const headers: Record<string, string> = { 'Content-Type': 'application/json; charset=utf-8' };
    // A wiki answers errors with 200 and names the code in this header.
    if (answer.errorCode) headers['MediaWiki-API-Error'] = answer.errorCode;
    if (answer.anyOrigin) headers['Access-Control-Allow-Origin'] = '*';
    return c.body(answer.body, 200, headers);
  };

  app.get('/api.php', (c) => answerApi(c));

  // Wiki clients POST too (mwclient's Site.api(), mwn's long requests as multipart/form-data):
  // the body's fields add to the query string and, as PHP's $_POST over $_GET, win over it.
  app.post('/api.php', async (c) => {
    const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (type === 'multipart/form-data') return answerApi(c, await readMultipartFields(c, API_PHP_MAX_BODY_BYTES));
    if (type === 'application/x-www-form-urlencoded') return answerApi(c, await readBodyText(c, API_PHP_MAX_BODY_BYTES, 'lenient'));
    return answerApi(c);
  });

  app.get('/api/catalogue/modules', (c) => {
    const filters = moduleFiltersSchema.safeParse(c.req.query());
    if (!filters.success) return c.json({ error: `Invalid filter: ${zodMessage(filters.error)}.` }, 400);
    return c.json({ modules: catalogue.listModules(filters.data) });
  });

  app.get('/api/catalogue/modules/:name', (c) => {
    const module = catalogue.getModule(c.req.param('name'));
    if (!module) return c.json({ error: `There is no query module named "${c.req.param('name')}".` }, 404);
    return c.json(module);
  });

  app.get('/api/catalogue/validate', (c) => {
    const query = validateInputSchema.safeParse(rawQuery(c.req.url));
    if (!query.success) return c.json({ error: `Invalid query: ${zodMessage(query.error)}.` }, 400);
    return c.json(catalogue.validate(query.data));
  });

  app.get('/catalogue', (c) => {
    const filters = moduleFiltersSchema.safeParse({ q: c.req.query('q') || undefined, group: c.req.query('group') || undefined });
    const values = filters.success ? filters.data : {};
    const body = h(CatalogueListPage, {
      modules: catalogue.listModules(values),
      total: catalogue.listModules().length,
      q: c.req.query('q') ?? '',
      group: values.group,
      error: filters.success ? undefined : zodMessage(filters.error),
    });
    return sendPage(c, filters.success ? 200 : 400, { verbatim: 'Query module catalogue' }, body);
  });

  app.get('/catalogue/:name', (c) => {
    const module = catalogue.getModule(c.req.param('name'));
    if (!module) return sendPage(c, 404, { verbatim: 'Module not found' }, h(CatalogueNotFoundPage, { name: c.req.param('name') }));
    return sendPage(c, 200, { verbatim: module.path }, h(CatalogueModulePage, { module }));
  });

  return app as unknown as Hono;
}
