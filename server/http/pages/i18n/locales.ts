/**
 * The languages of the pages people read (recipient, account, create and error pages). The API
 * and its error messages stay English: clients match on them.
 */
export const locales = ['en', 'de', 'fr', 'es', 'pt-BR', 'ja', 'zh-CN'] as const;
export type Locale = (typeof locales)[number];
export const defaultLocale: Locale = 'en';

/** Each language named in itself, for the language menu. */
export const localeNames: Record<Locale, string> = {
  en: 'English',
  de: 'Deutsch',
  fr: 'Français',
  es: 'Español',
  'pt-BR': 'Português (Brasil)',
  ja: '日本語',
  'zh-CN': '简体中文',
};

/** Scripts written right to left: the layout mirrors for them (none of ours yet; ready for one). */
const RTL = new Set(['ar', 'fa', 'he', 'ur']);

export function direction(locale: string): 'ltr' | 'rtl' {
  return RTL.has(locale.split('-')[0]!.toLowerCase()) ? 'rtl' : 'ltr';
}

/** An exact tag (any case), or its language alone (`pt` → pt-BR, `zh-Hans-CN` → zh-CN). */
export function matchLocale(tag: string): Locale | undefined {
  const wanted = tag.trim().toLowerCase();
  if (!wanted) return undefined;
  const exact = locales.find((l) => l.toLowerCase() === wanted);
  if (exact) return exact;
  const language = wanted.split('-')[0];
  if (language === 'zh') return /-(tw|hk|mo|hant)\b/.test(wanted) ? undefined : 'zh-CN';
  return locales.find((l) => l.split('-')[0]!.toLowerCase() === language);
}

/** The best of our languages for an Accept-Language header (RFC 9110 weights), or the default. */
export function negotiate(acceptLanguage: string | undefined): Locale {
  if (!acceptLanguage) return defaultLocale;
  const ranges = acceptLanguage
    .split(',')
    .slice(0, 20)
    .map((part, i) => {
      const [tag = '', ...params] = part.split(';');
      const q = params.map((p) => /^\s*q=([01](?:\.\d{0,3})?)\s*$/.exec(p)?.[1]).find(Boolean);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), i };
    })
    .filter((r) => r.tag && r.tag !== '*' && r.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i);
  for (const r of ranges) {
    const found = matchLocale(r.tag);
    if (found) return found;
  }
  return defaultLocale;
}
