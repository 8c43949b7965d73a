import { chromiumHarness, hasChromium, missingChromiumMessage } from './support/chromium';
import { extensionSuite } from './support/extension-suite';

// The extension in Debian's Chromium (playwright-core); the same suite runs in Firefox.
extensionSuite({
  name: 'Chromium',
  build: 'chrome',
  available: hasChromium,
  missingMessage: missingChromiumMessage,
  launch: (dir, profile, theme) => chromiumHarness(dir, profile, theme),
  openCommand: '_execute_action',
});
