/** The open-request caps as a rule: fewer than the cap may open one more; the requester first. */
import { describe, expect, it } from 'vitest';
import { openCapOutcome, tooManyOpen } from '../../../src/domain/open-caps.js';

describe('openCapOutcome', () => {
  it('allows one more below each cap and refuses at it with too_many_open', () => {
    expect(openCapOutcome({ requester: 1 }, { requester: 2 })).toEqual({ ok: true });
    expect(openCapOutcome({ requester: 2 }, { requester: 2 })).toMatchObject({
      ok: false,
      code: 'too_many_open',
      holder: 'requester',
      message: tooManyOpen(2),
    });
    expect(openCapOutcome({ requester: 0, apiKey: 0 }, { requester: 20, apiKey: 1 })).toEqual({ ok: true });
    const key = openCapOutcome({ requester: 0, apiKey: 1 }, { requester: 20, apiKey: 1 }, 'erp');
    expect(key).toMatchObject({ ok: false, code: 'too_many_open', holder: 'api_key' });
    expect(key.ok ? '' : key.message).toBe(
      'API key erp already has 1 open request, its --max-open; wait until some are decided or cancelled, then send it again.',
    );
  });

  it('names the requester when both are full, and a cap that is not a whole number of at least 1 allows nothing', () => {
    expect(openCapOutcome({ requester: 5, apiKey: 5 }, { requester: 5, apiKey: 5 })).toMatchObject({
      holder: 'requester',
    });
    expect(openCapOutcome({ requester: 0 }, { requester: 0 }).ok).toBe(false);
    expect(openCapOutcome({ requester: 0 }, { requester: Number.NaN }).ok).toBe(false);
    expect(openCapOutcome({ requester: 0, apiKey: 0 }, { requester: 1, apiKey: 0.5 }).ok).toBe(false);
  });
});
