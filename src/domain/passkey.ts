/** An approver's passkey as Rampart keeps it: the store writes it, cards and pages show it. */
import { z } from 'zod';

export const passkeySchema = z.object({
  /** The credential id, base64url. */
  id: z.string().min(1),
  user: z.string().min(1),
  /** COSE public key, base64url. */
  publicKey: z.string().min(1),
  transports: z.array(z.string()).optional(),
  aaguid: z.string(),
  /** What the enrolling browser said it was (user agent, shortened). */
  browser: z.string(),
  createdAt: z.number(),
  /** pending: waits for another approver's passkey approval. */
  status: z.enum(['active', 'pending']),
  /** Counts for payments only from this moment (PASSKEY_COOLDOWN; 0 for a bootstrap). */
  usableFrom: z.number(),
  /** 'cli' for a bootstrap enrolment, else the approver whose passkey approved it. */
  approvedBy: z.string().optional(),
});
export type Passkey = z.infer<typeof passkeySchema>;

export interface StoredPasskey extends Passkey {
  counter: number;
}

/** Where a new passkey's approval card was posted, so it can be redrawn once decided. */
export interface PasskeyCard {
  channel: string;
  ts: string;
}

/**
 * How a pending passkey's card ends: approved by another approver's passkey,
 * or removed before anyone approved it (`by` the owner with another passkey, or 'cli').
 */
export type PasskeyCardDecision =
  | { kind: 'approved'; by: string; usableFrom: number }
  | { kind: 'removed'; by: string };
