/**
 * The one ES module of the passkey pages, served by Rampart at assets/passkey.js. It
 * reads the token from the fragment, drops it from the address bar, POSTs it, shows the HTML the
 * server rendered and asks the browser for the passkey. It decides nothing the server does not
 * check again (STYLE "Pages without a framework's weight").
 */
export const CLIENT_MODULE = `import { startAuthentication, startRegistration } from './webauthn/index.js';

const main = document.getElementById('main');
const page = document.body.dataset.page;
const base = document.body.dataset.base;
const token = location.hash.slice(1);
// The token leaves the address bar at once: no history entry, no copy-paste, no referrer.
history.replaceState(null, '', location.pathname);
// Another link opened in this tab changes only the fragment: start again with its token.
window.addEventListener('hashchange', () => location.reload());

async function post(step, body) {
  const r = await fetch(base + '/' + page + '/' + step, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    credentials: 'omit',
    cache: 'no-store',
    referrerPolicy: 'no-referrer',
  });
  return r.json();
}

function status(text) {
  const s = document.getElementById('status');
  if (s) s.textContent = text;
}

async function start() {
  const begun = await post('begin', { token });
  main.innerHTML = begun.html;
  if (!begun.options) return;
  const button = document.getElementById('go');
  button.addEventListener('click', async () => {
    button.disabled = true;
    status('Waiting for your passkey…');
    let response;
    try {
      response = page === 'step-up'
        ? await startAuthentication({ optionsJSON: begun.options })
        : await startRegistration({ optionsJSON: begun.options });
    } catch (err) {
      status('Your browser did not give a passkey (' + (err && err.name ? err.name : 'error') + '). Try again.');
      button.disabled = false;
      return;
    }
    const done = await post('finish', { token, response });
    main.innerHTML = done.html;
  });
}

start().catch(() => {
  main.textContent = 'Rampart could not be reached. Go back to Slack and try again.';
});
`;

export const STYLESHEET = `body { font: 16px/1.5 system-ui, sans-serif; max-width: 40rem; margin: 2rem auto; padding: 0 1rem; color: #1d1c1d; }
h1 { font-size: 1.25rem; } h2 { font-size: 1.1rem; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; }
dt { font-weight: 600; } dd { margin: 0; overflow-wrap: anywhere; white-space: pre-line; font-family: ui-monospace, monospace; }
button { font-size: 1rem; padding: .6rem 1.2rem; border-radius: .4rem; border: 0; background: #007a5a; color: #fff; cursor: pointer; }
button:disabled { opacity: .5; }
.refused { color: #a4000f; } .ok { color: #007a5a; }
.card { border-left: 4px solid #ddd; padding: 0 1rem; overflow-wrap: anywhere; }
.card .context { font-size: .875rem; color: #616061; }
.hash .short { font: 600 1.4rem ui-monospace, monospace; letter-spacing: .05em; }
.hash .full code { overflow-wrap: anywhere; font-size: .8rem; }
.check { color: #a4000f; }
`;
