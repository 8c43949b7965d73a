import type { Locale } from './locales.js';
import { en, type MessageKey } from './messages/en.js';
import { de } from './messages/de.js';
import { es } from './messages/es.js';
import { fr } from './messages/fr.js';
import { ja } from './messages/ja.js';
import { ptBR } from './messages/pt-BR.js';
import { zhCN } from './messages/zh-CN.js';

/** A message with forms by number (Intl.PluralRules categories; `other` is always there). */
export type PluralMessage = { other: string } & Partial<Record<'zero' | 'one' | 'two' | 'few' | 'many', string>>;
export type Message = string | PluralMessage;
/** Every language has every key (the compiler checks it; test/server/pages/i18n.test.ts too). */
export type Catalogue = Record<MessageKey, Message>;

export const catalogues: Record<Locale, Catalogue> = { en, de, fr, es, 'pt-BR': ptBR, ja, 'zh-CN': zhCN };

export type Params = Record<string, string | number>;
export type Translate = (key: MessageKey, params?: Params) => string;

/**
 * `t(key, {name: value})` in a language: `{name}` placeholders are filled (numbers formatted for
 * the language), and a plural message picks its form by `count`.
 */
export function translator(locale: Locale): Translate {
  const catalogue = catalogues[locale];
  const plurals = new Intl.PluralRules(locale);
  const numbers = new Intl.NumberFormat(locale);
  return (key, params = {}) => {
    const message: Message | undefined = catalogue[key] ?? en[key];
    if (message === undefined) return key;
    const text = typeof message === 'string' ? message : (message[plurals.select(Number(params.count ?? 0))] ?? message.other);
    return text.replace(/\{(\w+)\}/g, (whole, name: string) => {
      const value = params[name];
      if (value === undefined) return whole;
      return typeof value === 'number' ? numbers.format(value) : value;
    });
  };
}

/** A date and time as people of that language write it, in UTC (the page names the zone). */
export function formatDateTime(locale: Locale, iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return new Intl.DateTimeFormat(locale, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    // 24-hour everywhere: audit times are read as evidence, and 13:05 cannot be misread.
    hourCycle: 'h23',
    timeZone: 'UTC',
    timeZoneName: 'short',
  }).format(d);
}
