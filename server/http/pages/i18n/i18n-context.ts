import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import { defaultLocale, direction, type Locale } from './locales.js';
import { formatDateTime, translator, type Translate } from './translator.js';

export interface PageLanguage {
  locale: Locale;
  dir: 'ltr' | 'rtl';
  t: Translate;
  /** A date and time for this language (UTC). */
  date: (iso: string | null) => string;
}

export function pageLanguage(locale: Locale): PageLanguage {
  return { locale, dir: direction(locale), t: translator(locale), date: (iso) => formatDateTime(locale, iso) };
}

/** The language of the page being rendered; components read it with useLanguage(). */
export const LanguageContext = createContext<PageLanguage>(pageLanguage(defaultLocale));

export function useLanguage(): PageLanguage {
  return useContext(LanguageContext);
}
