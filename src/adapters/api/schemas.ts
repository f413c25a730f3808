/**
 * The API's shapes as zod schemas: they validate what comes in, type what goes out,
 * and the OpenAPI document is generated from them (api/openapi.ts), never written by hand.
 * Field rules beyond the shape (amounts, addresses, assets, reason) are the modal's own
 * (domain/draft.ts), so an API caller reads the same sentences a person does.
 */
import { z } from 'zod';
import { APPROVAL_STATES, EXECUTION_STATES, type ExecutionState } from '../../domain/approval.js';

const wallet = z.string().max(64).meta({ description: 'A wallet alias as configured in WALLETS.', example: 'ops' });
const asset = z
  .string()
  .max(40)
  .meta({ description: 'chain:token, as the service names it (spec 2.2).', example: 'base:usdc' });
// A decimal string, parsed exactly like the modal's (no float ever): "250", "1,250.50", "12.5".
const amount = z.string().max(40).meta({
  description: 'The exact amount as a decimal string in the asset’s units; a point for decimals, never -1.',
  example: '250.00',
});
const reason = z.string().max(500).meta({ description: 'Why; shown on the approval card.', example: 'Invoice 4417' });
// A payment set for a time: it runs at the later of this and its approval (plus any cancel window).
const runAt = z.string().max(40).optional().meta({
  description:
    'Run no earlier than this moment: ISO 8601 with its offset, in the future and within SCHEDULE_MAX_AHEAD (default 90 days). Leave out to run once approved.',
  example: '2026-12-04T09:00:00+01:00',
});

// A series (recurring payouts): the same payment on a schedule, approved once; each run is
// re-checked against the rules of its day. Its run dates are computed and sealed at submission.
export const scheduleBody = z
  .strictObject({
    every: z.enum(['minutes', 'hours', 'days', 'weeks', 'month']).meta({
      description: 'The cadence: every n minutes, hours, days or weeks, or monthly on `day`.',
      example: 'month',
    }),
    n: z.number().int().optional().meta({ description: 'Every how many (not for month); default 1.', example: 1 }),
    day: z.number().int().optional().meta({
      description: 'For month: the day of the month, 1 to 31; 29 to 31 run on the last day of shorter months.',
      example: 1,
    }),
    at: z.string().max(5).optional().meta({
      description: 'The local time of each run, HH:MM (needed for days, weeks and month).',
      example: '09:00',
    }),
    zone: z.string().max(64).meta({ description: 'An IANA time zone the time is read in.', example: 'Africa/Lagos' }),
    runs: z.number().int().optional().meta({
      description: 'End after this many runs (at most SCHEDULE_MAX_RUNS, default 60). Send runs or until.',
      example: 12,
    }),
    until: z.string().max(10).optional().meta({
      description: 'End on this local date, YYYY-MM-DD (the last run is on or before it). Send runs or until.',
    }),
    from: z.string().max(10).optional().meta({
      description: 'The first local date a run may fall on, YYYY-MM-DD; default today in the zone.',
      example: '2026-12-01',
    }),
  })
  .meta({
    id: 'Schedule',
    description:
      'Makes the payment a series (needs the schedules:create scope): every amount rule, a key’s --max-amount included, judges its total.',
  });

export const transferBody = z
  .strictObject({
    wallet,
    asset,
    amount,
    receiver: z.string().max(128).meta({ description: 'The receiving address on the asset’s chain.' }),
    reason,
    run_at: runAt,
    schedule: scheduleBody.optional(),
  })
  .meta({ id: 'TransferCreate' });

export const offrampBody = z
  .strictObject({
    wallet,
    asset,
    amount,
    beneficiary: z.string().max(128).meta({ description: 'A beneficiary id approved in Rampart.' }),
    reason,
    run_at: runAt,
    schedule: scheduleBody.optional(),
  })
  .meta({ id: 'OfframpCreate' });

// A batch's rows as JSON; each row's cells are checked by the batch file's own rules
// (domain/batch-file.ts readBatchCells), so the sentences are those a CSV upload gets.
const rowReference = z.string().max(1000).optional().meta({
  description:
    'Your reference for this row: one line of at most 140 characters, without control characters, line or paragraph separators or text-direction controls; kept with the row, never sent to the service.',
  example: 'INV-118',
});
export const transferRow = z
  .strictObject({
    receiver: z.string().max(128).meta({ description: 'The receiving address on the asset’s chain.' }),
    amount,
    reference: rowReference,
  })
  .meta({ id: 'BatchTransferRow' });
export const offrampRow = z
  .strictObject({
    beneficiary: z.string().max(128).meta({ description: 'An approved beneficiary’s id or its unique label.' }),
    amount,
    reference: rowReference,
  })
  .meta({ id: 'BatchOfframpRow' });
const batchReason = reason
  .optional()
  .meta({ description: 'Why; shown on the batch card.', example: 'Payroll November' });
const rows = (row: z.ZodType) =>
  z.array(row).meta({ description: 'One payment per row, at most BATCH_MAX_ROWS (default 1,000); run in order.' });
export const transfersBatchBody = z
  .strictObject({ kind: z.literal('transfers'), wallet, asset, rows: rows(transferRow), reason: batchReason })
  .meta({ id: 'TransfersBatchCreate' });
export const offrampsBatchBody = z
  .strictObject({ kind: z.literal('offramps'), wallet, asset, rows: rows(offrampRow), reason: batchReason })
  .meta({ id: 'OfframpsBatchCreate' });
export const batchBody = z
  .discriminatedUnion('kind', [transfersBatchBody, offrampsBatchBody])
  .meta({ id: 'BatchCreate' });

export type TransferBody = z.infer<typeof transferBody>;
export type OfframpBody = z.infer<typeof offrampBody>;

/** Approval and execution states of DESIGN "States, ids and hashes" (batches also pause and stop). */
export { APPROVAL_STATES, EXECUTION_STATES };

const iso = z.string().meta({ description: 'RFC 3339 time, UTC.', example: '2026-11-21T22:10:04.000Z' });

export const executionView = z
  .object({
    id: z.string().meta({ example: 'R-1042.1' }),
    state: z.enum(EXECUTION_STATES),
    hash: z.string().optional().meta({ description: 'Transaction hash (transfers).' }),
    link: z.string().optional().meta({ description: 'Explorer link (transfers).' }),
    reference: z.string().optional().meta({ description: 'The service’s reference (offramps).' }),
    message: z.string().optional().meta({ description: 'Why it failed, or why its outcome is unknown.' }),
    row: z
      .object({
        number: z
          .number()
          .int()
          .meta({ description: 'Row k of the batch is execution B-<n>.k (JSON pointer /rows/k-1).' }),
        destination: z.string().meta({ description: 'The receiver address, or the beneficiary id it resolved to.' }),
        amount: z.string(),
        reference: z.string().optional().meta({ description: 'The reference sent with the row.' }),
      })
      .optional()
      .meta({ description: 'Batches: the row this execution pays.' }),
  })
  .meta({ id: 'Execution' });

export const executionList = z
  .object({
    object: z.literal('list'),
    data: z.array(executionView),
    next_cursor: z.string().nullable().meta({ description: 'Pass as cursor for the next page of executions.' }),
  })
  .meta({ id: 'ExecutionList' });

export const executionsQuery = z.strictObject({
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
});

export const historyEntryView = z
  .object({
    at: iso,
    event: z.string(),
    by: z.string().optional(),
    detail: z.string().optional(),
    execution: z.string().optional().meta({ description: 'The execution an entry is about (batches).' }),
  })
  .meta({ id: 'HistoryEntry' });

export const requestView = z
  .object({
    id: z.string().meta({ example: 'R-1042' }),
    object: z.literal('request'),
    kind: z.enum(['transfer', 'offramp', 'beneficiary', 'register-beneficiary', 'address-book']),
    state: z.enum([...APPROVAL_STATES, 'live', 'ended']).meta({
      description: 'The approval’s state; a series is live once approved, then ended.',
    }),
    wallet: z.string().optional(),
    asset: z.string().optional(),
    amount: z.string().optional().meta({ description: 'The exact amount sealed in the request (a batch: its total).' }),
    receiver: z.string().optional().meta({ description: 'A single transfer’s receiver (a batch’s are on its rows).' }),
    beneficiary: z.string().optional().meta({ description: 'A single offramp’s beneficiary.' }),
    reason: z.string(),
    requester: z.string().meta({ description: 'Slack user id; for API requests the key’s owner.' }),
    api_key: z.string().optional().meta({ description: 'Name of the API key that made it.' }),
    new_destination: z.boolean().optional(),
    hash: z.string().meta({ description: 'The sealed request hash the card shows.' }),
    required_approvals: z.number().int(),
    approvals: z.array(z.object({ user: z.string(), at: iso })),
    created_at: iso,
    expires_at: iso,
    run_at: iso.optional().meta({
      description:
        'Approved: when it may start (a cancel window or a set time); before approval, the time it was set for.',
    }),
    schedule: z
      .object({
        sentence: z.string().optional().meta({ description: 'What the card says of the series.' }),
        zone: z.string(),
        runs: z.array(iso).meta({ description: 'Every run’s time, sealed at submission.' }),
      })
      .optional()
      .meta({ description: 'A series (`S-` ids): its schedule; each run is a request of its own.' }),
    history: z.array(historyEntryView),
    execution_count: z.number().int().meta({ description: 'How many executions it owns (a batch: its rows).' }),
    execution_counts: z
      .object(
        Object.fromEntries(EXECUTION_STATES.map((s) => [s, z.number().int()])) as Record<ExecutionState, z.ZodNumber>,
      )
      .meta({ description: 'Executions per state.' }),
    executions: z.array(executionView).meta({
      description:
        'The first executions (all of a single request; up to 1,000 of a batch here, 20 in a list or a 201).',
    }),
    executions_next_cursor: z
      .string()
      .nullable()
      .meta({ description: 'More executions: GET /requests/{id}/executions?cursor=…; null when all are shown.' }),
  })
  .meta({ id: 'Request' });
export type RequestView = z.infer<typeof requestView>;

export const requestList = z
  .object({
    object: z.literal('list'),
    data: z.array(requestView),
    next_cursor: z.string().nullable().meta({ description: 'Pass as cursor for the next (older) page.' }),
  })
  .meta({ id: 'RequestList' });

export const listQuery = z.strictObject({
  state: z.enum(APPROVAL_STATES).optional(),
  since: z.iso.datetime({ offset: true }).optional().meta({ description: 'Only requests created at or after.' }),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).optional(),
});

export const problemView = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    code: z.string().meta({ description: 'Stable; branch on it, never on detail.' }),
    detail: z.string(),
    errors: z.array(z.object({ pointer: z.string(), detail: z.string() })).optional(),
  })
  .meta({ id: 'Problem' });
