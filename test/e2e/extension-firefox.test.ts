import { extensionSuite } from './support/extension-suite';
import { firefoxHarness, firefoxHasLanguage, hasFirefox, missingFirefoxMessage } from './support/firefox';

// The extension in Debian's Firefox ESR (puppeteer-core over WebDriver BiDi); the same suite runs in Chromium.
extensionSuite({
  name: 'Firefox',
  build: 'firefox',
  available: hasFirefox,
  missingMessage: missingFirefoxMessage,
  launch: (dir, profile, theme, language) => firefoxHarness(dir, profile, theme, language),
  hasLanguage: firefoxHasLanguage,
  missingLanguageMessage: (l) => `Firefox has no language pack for "${l}": install firefox-esr-l10n-${l}.`,
  openCommand: '_execute_browser_action',
});
