import { render } from 'preact';
import { App } from './components/App.tsx';
import { trackCurrentTab } from './current-tab.ts';

trackCurrentTab();
render(<App />, document.getElementById('app')!);
