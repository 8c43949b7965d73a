import type { TestServer } from '../../support/server.js';

/** A minimal browser for page tests: a cookie jar, no redirect following, form helpers. */
export interface PageResponse {
  status: number;
  headers: Headers;
  text: string;
  /** Set-Cookie lines of this response. */
  setCookies: string[];
}

export class Browser {
  readonly cookies = new Map<string, string>();
  constructor(
    readonly server: TestServer,
    readonly defaults: Record<string, string> = {},
  ) {}

  private cookieHeader() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async request(method: string, path: string, init: { body?: BodyInit; headers?: Record<string, string> } = {}): Promise<PageResponse> {
    const headers: Record<string, string> = { 'user-agent': 'page-test', ...this.defaults, ...init.headers };
    if (this.cookies.size) headers.cookie = this.cookieHeader();
    const res = await fetch(this.server.url + path, { method, headers, body: init.body, redirect: 'manual' });
    const setCookies = res.headers.getSetCookie();
    for (const line of setCookies) {
      const [pair, ...attrs] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      const expired = attrs.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === '';
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return { status: res.status, headers: res.headers, text: await res.text(), setCookies };
  }

  get(path: string, headers?: Record<string, string>) {
    return this.request('GET', path, { headers });
  }

  /** POSTs a form-encoded body (as a browser submits a form without files). */
  post(path: string, fields: Record<string, string>, headers?: Record<string, string>) {
    return this.request('POST', path, {
      body: new URLSearchParams(fields).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    });
  }

  /** POSTs multipart (the create form). */
  postMultipart(path: string, form: FormData, headers?: Record<string, string>) {
    return this.request('POST', path, { body: form, headers });
  }

  /** GETs a page and submits the form whose action is `action`, with its CSRF token. */
  async submit(page: string, action: string, fields: Record<string, string>, headers?: Record<string, string>) {
    const html = (await this.get(page)).text;
    return this.post(action, { csrf_token: csrfFrom(html, action), ...fields }, headers);
  }

  async signUp(email: string, password = 'correct horse battery') {
    const res = await this.submit('/users/sign_up', '/users/sign_up', { email, password });
    if (res.status !== 303) throw new Error(`sign-up failed: ${res.status} ${res.text.slice(0, 300)}`);
    return res;
  }
}

/** The CSRF token of the form with this action (or the first form's). */
export function csrfFrom(html: string, action?: string): string {
  const forms = [...html.matchAll(/<form\b[^>]*action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/g)];
  const form = forms.find((f) => action === undefined || decode(f[1]!) === action) ?? forms[0];
  const m = form && /name="csrf_token" value="([^"]*)"/.exec(form[2]!);
  if (!m) throw new Error(`no CSRF token for form ${action ?? ''} in:\n${html.slice(0, 500)}`);
  return decode(m[1]!);
}

export function decode(s: string) {
  return s.replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>');
}

/** The text content of the element with this id (first match, tags stripped, entities decoded). */
export function textOf(html: string, id: string): string | undefined {
  const m = new RegExp(`<(\\w+)[^>]*\\bid="${id}"[^>]*>([\\s\\S]*?)</\\1>`).exec(html);
  return m ? decode(m[2]!.replace(/<[^>]+>/g, '')) : undefined;
}

export function cookieAttrs(setCookies: string[], name: string): string | undefined {
  return setCookies.find((l) => l.startsWith(`${name}=`));
}
