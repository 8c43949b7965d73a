/** @jsxRuntime automatic */
/** @jsxImportSource preact */
import type { ModuleDescriptor, ModuleGroup, ModuleSummary, ParamDescriptor } from '../../../shared/catalogue-schema.js';
import { moduleGroups } from '../../../shared/catalogue-schema.js';

/** The /catalogue pages: a searchable module list (GET form, no script) and one page per module. */

export interface CatalogueListPageProps {
  modules: ModuleSummary[];
  total: number;
  q: string;
  group?: ModuleGroup;
  error?: string;
}

function Flags({ module }: { module: Pick<ModuleSummary, 'generator' | 'deprecated' | 'readRights'> }) {
  return (
    <span class="catalogue-flags">
      {module.generator && <span class="catalogue-flag">generator</span>}
      {module.deprecated && <span class="catalogue-flag catalogue-flag-warn">deprecated</span>}
      {!module.readRights && <span class="catalogue-flag">no read right needed</span>}
    </span>
  );
}

export function CatalogueListPage({ modules, total, q, group, error }: CatalogueListPageProps) {
  return (
    <section>
      <h1>Query module catalogue</h1>
      <p class="muted">
        The {total} query modules of a MediaWiki-style wiki API, with their parameters. Wiki clients read the same data
        from <a href="/api.php?action=paraminfo&amp;modules=query%2B*&amp;format=json">api.php?action=paraminfo</a>; a
        query can be checked at <code>/api/catalogue/validate?action=query&amp;…</code>.
      </p>
      <form method="get" action="/catalogue" class="card catalogue-search" role="search">
        <label for="catalogue-q">Search module and parameter names</label>
        <div class="row">
          <input type="search" id="catalogue-q" name="q" value={q} placeholder="e.g. allpages, aplimit, namespace" maxLength={200} />
          <select name="group" aria-label="Group">
            <option value="">All groups</option>
            {moduleGroups.map((g) => (
              <option value={g} selected={g === group}>
                {g}
              </option>
            ))}
          </select>
          <button type="submit">Search</button>
        </div>
      </form>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <p class="muted" aria-live="polite">
        {modules.length === total ? `${total} modules` : `${modules.length} of ${total} modules match`}
      </p>
      {modules.length > 0 ? (
        <div class="table-wrap">
          <table class="catalogue-table">
            <thead>
              <tr>
                <th scope="col">Module</th>
                <th scope="col">Group</th>
                <th scope="col">Prefix</th>
                <th scope="col">Parameters</th>
                <th scope="col">Flags</th>
              </tr>
            </thead>
            <tbody>
              {modules.map((m) => (
                <tr>
                  <td>
                    <a href={`/catalogue/${m.name}`}>{m.name}</a>
                  </td>
                  <td>{m.group}</td>
                  <td>{m.prefix ? <code>{m.prefix}</code> : <span class="muted">none</span>}</td>
                  <td>{m.parameterCount}</td>
                  <td>
                    <Flags module={m} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p>No module matches. Try a shorter word, or clear the search.</p>
      )}
    </section>
  );
}

function TypeCell({ param }: { param: ParamDescriptor }) {
  if (!Array.isArray(param.type)) return <code>{param.type}</code>;
  const deprecated = new Set(param.deprecatedValues ?? []);
  return (
    <span>
      one of{' '}
      {param.type.map((v, i) => (
        <>
          {i > 0 && ', '}
          <code class={deprecated.has(v) ? 'catalogue-deprecated' : undefined}>{v === '' ? '(empty)' : v}</code>
          {deprecated.has(v) && <span class="muted"> (deprecated)</span>}
        </>
      ))}
    </span>
  );
}

function limitsText(param: ParamDescriptor): string {
  const parts: string[] = [];
  if (param.min !== undefined && param.max !== undefined) parts.push(`${param.min}–${param.max}`);
  else if (param.min !== undefined) parts.push(`at least ${param.min}`);
  else if (param.max !== undefined) parts.push(`at most ${param.max}`);
  if (param.highmax !== undefined) parts.push(`${param.highmax} with raised limits`);
  if (param.type === 'limit') parts.push('or "max"');
  if (param.multi) parts.push('up to 50 values (500 with raised limits)');
  return parts.join('; ');
}

function flagsOf(param: ParamDescriptor): string[] {
  const flags: string[] = [];
  if (param.required) flags.push('required');
  if (param.multi) flags.push('multi-valued');
  if (param.deprecated) flags.push('deprecated');
  if (param.sensitive) flags.push('sensitive');
  if (param.allowsDuplicates) flags.push('allows duplicates');
  if (param.allSpecifier !== undefined) flags.push(`"${param.allSpecifier}" for all`);
  if (param.extraNamespaces) flags.push(`extra namespaces ${param.extraNamespaces.join(', ')}`);
  if (param.subtypes) flags.push(`user as ${param.subtypes.join(', ')}`);
  for (const marker of param.info ?? []) flags.push(marker.values ? `${marker.name} ${marker.values.join(', ')}` : marker.name);
  if (param.templateVars) {
    for (const [variable, source] of Object.entries(param.templateVars)) flags.push(`{${variable}} from each value of ${source}`);
  }
  return flags;
}

export function CatalogueModulePage({ module }: { module: ModuleDescriptor }) {
  const example = module.parameters.find((p) => !p.templateVars);
  return (
    <section>
      <p>
        <a href="/catalogue">← All modules</a>
      </p>
      <h1>
        <code>{module.path}</code>
      </h1>
      <dl class="catalogue-facts">
        <dt>Group</dt>
        <dd>
          {module.group} (select with <code>{`${module.group}=${module.name}`}</code>)
        </dd>
        <dt>Prefix</dt>
        <dd>{module.prefix ? <code>{module.prefix}</code> : 'none (parameters go by their bare names)'}</dd>
        {module.generator && example && (
          <>
            <dt>As a generator</dt>
            <dd>
              <code>{`generator=${module.name}`}</code>, parameters with <code>g</code> before the prefix, e.g.{' '}
              <code>{`g${module.prefix}${example.name}`}</code>
            </dd>
          </>
        )}
        <dt>Flags</dt>
        <dd>
          <Flags module={module} />
          {!module.generator && !module.deprecated && module.readRights && <span class="muted">none</span>}
        </dd>
        <dt>Help</dt>
        <dd>
          {module.helpUrls.length > 0 ? (
            <span class="catalogue-flags">
              {module.helpUrls.map((url) => (
                <a href={url} rel="noreferrer">
                  {url}
                </a>
              ))}
            </span>
          ) : (
            <span class="muted">no help page</span>
          )}
        </dd>
      </dl>
      <p>
        <a href={`/api/catalogue/modules/${module.name}`}>JSON</a> ·{' '}
        <a href={`/api.php?action=paraminfo&modules=${encodeURIComponent(module.path)}&format=json&formatversion=2`}>
          paraminfo
        </a>
      </p>
      <h2>Parameters</h2>
      <div class="table-wrap">
        <table class="catalogue-table">
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">Name</th>
              <th scope="col">Type</th>
              <th scope="col">Default</th>
              <th scope="col">Limits</th>
              <th scope="col">Flags</th>
            </tr>
          </thead>
          <tbody>
            {module.parameters.map((p) => (
              <tr id={`param-${p.name}`} class={p.deprecated ? 'catalogue-deprecated-row' : undefined}>
                <td>{p.index}</td>
                <td>
                  <code>{module.prefix + p.name}</code>
                </td>
                <td>
                  <TypeCell param={p} />
                </td>
                <td>
                  {p.default === undefined ? (
                    <span class="muted">—</span>
                  ) : p.default === '' ? (
                    <span class="muted">(empty)</span>
                  ) : (
                    <code>{String(p.default)}</code>
                  )}
                </td>
                <td>{limitsText(p)}</td>
                <td>{flagsOf(p).join('; ')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

export function CatalogueNotFoundPage({ name }: { name: string }) {
  return (
    <section class="card center">
      <h1>No such module</h1>
      <p>
        There is no query module named <code>{name}</code>.
      </p>
      <p>
        <a href={`/catalogue?q=${encodeURIComponent(name.slice(0, 200))}`}>Search the catalogue</a> ·{' '}
        <a href="/catalogue">All modules</a>
      </p>
    </section>
  );
}
