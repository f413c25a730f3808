/**
 * The passkey pages' part of the app: what a page shows for a one-time link (the record or the
 * passkey, and the options the browser asks the passkey with), then the passkey's answer verified
 * and the decision made. The pages (web/) translate these outcomes to HTML and call nothing else.
 */
import { beginEnrol, finishEnrol } from '../passkey-enrol.js';
import type { StepUpDeps } from '../step-up-deps.js';
import { beginStepUp, finishStepUp } from '../step-up-page.js';

export function passkeyPages(deps: StepUpDeps) {
  return {
    /** A step-up link's page: the card or the passkey it decides, with the assertion options. */
    beginStepUp: (token: string, from: string | undefined) => beginStepUp(deps, token, from),
    /** The passkey's assertion checked, then the vote, resume, confirmation or passkey decision. */
    finishStepUp: (token: string, response: unknown, from: string | undefined) =>
      finishStepUp(deps, token, response, from),
    /** An enrolment link's page: who enrols, with the registration options. */
    beginEnrol: (token: string, from: string | undefined) => beginEnrol(deps, token, from),
    /** The new passkey's attestation checked and kept; `browser`: the page's User-Agent. */
    finishEnrol: (token: string, response: unknown, browser: string, from: string | undefined) =>
      finishEnrol(deps, token, response, browser, from),
  };
}

export type PasskeyPages = ReturnType<typeof passkeyPages>;
