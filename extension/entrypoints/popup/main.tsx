import { render } from 'preact';
import { App, type TabName } from '../../components/App';
import { createPopupEnv } from '../../lib/popup-env';
import './style.css';

const tab = new URLSearchParams(location.search).get('tab');
const initialTab = tab === 'push' || tab === 'history' || tab === 'settings' ? (tab as TabName) : undefined;
render(<App env={createPopupEnv()} initialTab={initialTab} />, document.getElementById('app')!);
