import { render } from 'preact';
render(<p>Secret Push</p>, document.getElementById('app')!);
