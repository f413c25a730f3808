/**
 * The private passkey-link message never offers a link that no longer works: its click replaces
 * it (opened, or expired after its 5 minutes), and once the page used it, it says so. Pure: the
 * words and the button's value Slack would receive.
 */
import { describe, expect, it } from 'vitest';
import {
  readStepUpClick,
  stepUpLinkUsedText,
  stepUpOfferBlocks,
  stepUpUsedText,
} from '../../../src/adapters/slack/blocks/step-up.js';

const EXPIRES = Date.UTC(2026, 10, 28, 12, 5);
const buttonValue = (blocks: unknown): string =>
  (JSON.stringify(blocks).match(/"value":"([^"]+)"/)?.[1] as string | undefined) ?? '';

describe('the passkey link message', () => {
  const value = buttonValue(stepUpOfferBlocks('R-1002', 'https://rampart.example/step-up#t', 'approve', EXPIRES));

  it('carries when its link stops working in the button, never the link token', () => {
    expect(value).toBe(`approve:R-1002:${EXPIRES}`);
    expect(readStepUpClick(value, EXPIRES)).toEqual({ purpose: 'approve', subject: 'R-1002', expired: false });
    expect(readStepUpClick(value, EXPIRES + 1).expired).toBe(true);
    // A button posted before its value carried the time never reads as expired.
    expect(readStepUpClick('resume:B-1003', EXPIRES + 1)).toEqual({
      purpose: 'resume',
      subject: 'B-1003',
      expired: false,
    });
    // A time that is not a number never keeps a link live.
    expect(readStepUpClick('approve:R-1002:soon', EXPIRES - 1).expired).toBe(true);
    expect(readStepUpClick('approve:R-1002:', EXPIRES - 1).expired).toBe(true);
  });

  it('clicked in time: says the page was opened and how to get another link', () => {
    expect(stepUpUsedText(readStepUpClick(value, EXPIRES - 1))).toContain(
      'The passkey page for R-1002 was opened from this link',
    );
  });

  it('clicked after its 5 minutes: says it expired and to click Approve again, and that nothing was recorded', () => {
    expect(stepUpUsedText(readStepUpClick(value, EXPIRES + 1))).toBe(
      ':hourglass: This link for R-1002 expired — click Approve on the card again for a new one. Nothing was recorded.',
    );
    const resume = buttonValue(stepUpOfferBlocks('B-1003', 'https://rampart.example/step-up#t', 'resume', EXPIRES));
    expect(stepUpUsedText(readStepUpClick(resume, EXPIRES + 1))).toContain('click Resume on the card again');
  });

  it('once used: "Passkey link used", with no link left to click', () => {
    expect(stepUpLinkUsedText('R-1002')).toBe(
      ':key: Passkey link used: the link for R-1002 worked once and is spent. The card shows what your passkey did.',
    );
  });
});
