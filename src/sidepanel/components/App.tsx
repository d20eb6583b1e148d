import { currentTabTitle } from '../current-tab.ts';
import { ToolsView } from './ToolsView.tsx';

export function App() {
  return (
    <>
      <header class="app">
        <img src="/icons/icon-32.png" width="20" height="20" alt="" />
        <h1>Steward</h1>
        <span class="tab" title={currentTabTitle.value}>
          {currentTabTitle.value}
        </span>
      </header>
      <main>
        <ToolsView />
      </main>
    </>
  );
}
