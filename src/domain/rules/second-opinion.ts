/**
 * The optional second opinion (SCREENING_URL): a screening service in the shape of Chainalysis'
 * free sanctions API, asked at submission only. An identification refuses; no answer refuses
 * unless SCREENING_ON_ERROR=allow. Pure: the rule and the one sentence each door shows.
 */
import { ALLOW, type RuleOutcome } from './outcome.js';

/** One identification as the service gives it (category and name are all a person is shown). */
export interface Identification {
  category: string;
  name: string;
}

/** The service's answer for one destination, or none (down, slow, refused, unreadable). */
export type SecondOpinion = { kind: 'answered'; identifications: Identification[] } | { kind: 'unanswered' };

export type SecondOpinionCode = 'screening_identified' | 'screening_unanswered';

export type OnError = 'refuse' | 'allow';

export function secondOpinionRule(answer: SecondOpinion, onError: OnError): RuleOutcome<SecondOpinionCode> {
  if (answer.kind === 'unanswered') return onError === 'allow' ? ALLOW : { ok: false, code: 'screening_unanswered' };
  return answer.identifications.length > 0 ? { ok: false, code: 'screening_identified' } : ALLOW;
}

/** The sentence for a refusal: the service's category and name only, never its description or link. */
export function secondOpinionSentence(code: SecondOpinionCode, answer: SecondOpinion): string {
  if (code === 'screening_unanswered' || answer.kind !== 'answered')
    return 'The screening service did not answer, so Rampart will not pay this address yet; try again in a few minutes or ask an admin.';
  const first = answer.identifications[0];
  const named = first ? `${first.category}: ${first.name}` : 'an identification';
  return `The screening service identifies this address (${named}), so Rampart will not pay it; check the destination with compliance.`;
}
