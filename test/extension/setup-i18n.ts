import { fakeBrowser } from 'wxt/testing/fake-browser';
import en from '../../extension/public/_locales/en/messages.json';

/**
 * WXT's fake browser has no `i18n.getMessage` (it throws). The extension's tests read the English
 * catalogue the way a browser in English would: the message of the key, `$1`… replaced by the
 * substitutions, `$$` a dollar sign, '' for an unknown key.
 */
const messages: Record<string, { message: string }> = en;
fakeBrowser.i18n.getMessage = ((key: string, subs?: string | string[]) => {
  if (key === '@@bidi_dir') return 'ltr';
  const entry = messages[key];
  if (!entry) return '';
  const list = subs === undefined ? [] : Array.isArray(subs) ? subs : [subs];
  return entry.message.replace(/\$(\$|[1-9])/g, (_, which: string) => (which === '$' ? '$' : (list[Number(which) - 1] ?? '')));
}) as typeof fakeBrowser.i18n.getMessage;
fakeBrowser.i18n.getUILanguage = () => 'en';
