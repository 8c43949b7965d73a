import { render } from 'preact';
import { OptionsApp } from '../../components/OptionsApp';
import { uiDirection, uiLanguage } from '../../lib/i18n';
import { createOptionsEnv } from '../../lib/options-env';
import '../popup/style.css';
import './options.css';

// The page speaks the language of the catalogue the browser picked (screen readers, hyphenation, fonts).
document.documentElement.lang = uiLanguage();
document.documentElement.dir = uiDirection();
render(<OptionsApp env={createOptionsEnv()} />, document.getElementById('app')!);
