import { browser } from 'wxt/browser';
import type en from '../public/_locales/en/messages.json';

/**
 * The extension's words, from `_locales/<language>/messages.json` through the WebExtension i18n
 * API: the browser picks the catalogue from its own UI language (falling back to `en`, the
 * manifest's default_locale), so nothing here negotiates languages or ships catalogues in the
 * bundle. WebExtension messages have no plural forms: a counted message has `_one` and `_other`
 * keys, chosen with the CLDR rules of the catalogue's language.
 */
export type MessageKey = keyof typeof en;
/** Keys that come in `_one`/`_other` pairs, named without the suffix. */
export type PluralKey = { [K in MessageKey]: K extends `${infer Base}_one` ? (`${Base}_other` extends MessageKey ? Base : never) : never }[MessageKey];

/** `$1`… in the message are replaced by `subs` (numbers are written as they are). */
export function t(key: MessageKey, ...subs: Array<string | number>): string {
  return browser.i18n.getMessage(key, subs.map(String));
}

/** The `_one` or `_other` form of `key` for `count`; `subs` fill `$1`… as in `t`. */
export function tn(key: PluralKey, count: number, ...subs: Array<string | number>): string {
  return t(`${key}_${plurals().select(count) === 'one' ? 'one' : 'other'}` as MessageKey, ...subs);
}

/**
 * A message split around its `$1`, for putting an element there (a `<time>`, a `<strong>`):
 * `[before, after]`.
 */
export function tAround(key: MessageKey, ...rest: Array<string | number>): [string, string] {
  const mark = '\u0001';
  const [before = '', after = ''] = t(key, mark, ...rest).split(mark);
  return [before, after];
}

/** The BCP 47 tag of the catalogue in use (`en`, `de`, `pt-BR`, `zh-CN`…): for `<html lang>`, dates, plurals. */
export function uiLanguage(): string {
  return t('lang') || 'en';
}

/** The writing direction of the browser's UI language (`ltr` or `rtl`). */
export function uiDirection(): 'ltr' | 'rtl' {
  return browser.i18n.getMessage('@@bidi_dir' as MessageKey) === 'rtl' ? 'rtl' : 'ltr';
}

let rules: Intl.PluralRules | undefined;
function plurals(): Intl.PluralRules {
  return (rules ??= new Intl.PluralRules(uiLanguage()));
}
