import { render } from 'preact';
import { App } from './components/app.js';
import './styles.css';

const root = document.getElementById('app')!;
// The static "Loading…" line is for a page whose script has not run yet: drop it before rendering.
root.replaceChildren();
render(<App />, root);
