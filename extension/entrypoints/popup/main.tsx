import { render } from 'preact';
import { App, type TabName } from '../../components/App';
import { uiDirection, uiLanguage } from '../../lib/i18n';
import { createPopupEnv } from '../../lib/popup-env';
import './style.css';

// This module is in the popup's one chunk, 'popup-core' (wxt.config.ts), which the options page
// loads too: the popup is drawn on the popup's page only.
if (location.pathname.endsWith('/popup.html')) {
  // The page speaks the language of the catalogue the browser picked (screen readers, hyphenation, fonts).
  document.documentElement.lang = uiLanguage();
  document.documentElement.dir = uiDirection();
  const tab = new URLSearchParams(location.search).get('tab');
  const initialTab = tab === 'push' || tab === 'history' ? (tab as TabName) : undefined;
  render(<App env={createPopupEnv()} initialTab={initialTab} />, document.getElementById('app')!);
}
