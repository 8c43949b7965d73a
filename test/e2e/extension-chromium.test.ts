import { chromiumHarness, chromiumHasLanguage, hasChromium, missingChromiumMessage } from './support/chromium';
import { extensionSuite } from './support/extension-suite';

// The extension in Debian's Chromium (playwright-core); the same suite runs in Firefox.
extensionSuite({
  name: 'Chromium',
  build: 'chrome',
  available: hasChromium,
  missingMessage: missingChromiumMessage,
  launch: (dir, profile, theme, language) => chromiumHarness(dir, profile, theme, language),
  hasLanguage: chromiumHasLanguage,
  missingLanguageMessage: (l) => `Chromium has no UI in "${l}" (/usr/lib/chromium/locales/${l}.pak): install chromium-l10n.`,
  openCommand: '_execute_action',
});
