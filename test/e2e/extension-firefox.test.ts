import { extensionSuite } from './support/extension-suite';
import { firefoxHarness, hasFirefox, missingFirefoxMessage } from './support/firefox';

// The extension in Debian's Firefox ESR (puppeteer-core over WebDriver BiDi); the same suite runs in Chromium.
extensionSuite({
  name: 'Firefox',
  build: 'firefox',
  available: hasFirefox,
  missingMessage: missingFirefoxMessage,
  launch: (dir, _profile, theme) => firefoxHarness(dir, theme),
  openCommand: '_execute_browser_action',
});
