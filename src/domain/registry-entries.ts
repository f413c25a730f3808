/**
 * What Rampart's registries keep of an identity and a beneficiary: personal data
 * masked — a BVN as its last four digits, an account number masked.
 */
import { z } from 'zod';

export const identityEntry = z.object({
  id: z.string(),
  name: z.string(),
  type: z.string(),
  // Empty when the service showed no BVN (spec 2.6 details are loosely shaped).
  bvnLast4: z.string().regex(/^(\d{4})?$/),
  createdBy: z.string(),
  createdAt: z.number(),
  /** undefined or 'rampart': created through Rampart; 'service': it already existed. */
  source: z.enum(['rampart', 'service']).optional(),
  /** The service's answer at the last GET /identity, and when. */
  isActive: z.boolean().optional(),
  checkedAt: z.number().optional(),
});
export type IdentityEntry = z.infer<typeof identityEntry>;

export const beneficiaryEntry = z.object({
  id: z.string(),
  label: z.string(),
  identityId: z.string(),
  identityName: z.string(),
  bankName: z.string(),
  accountMasked: z.string(),
  holderName: z.string(),
  createdBy: z.string(),
  approvedBy: z.string(),
  createdAt: z.number(),
  requestId: z.string(),
  /** Registered as already existing at the service: bank, account digits and label as stated. */
  asStated: z.boolean().optional(),
  /** Who vouched for holderName when it was added: the bank lookup or the requester. */
  holderSource: z.enum(['lookup', 'typed']).optional(),
});
export type BeneficiaryEntry = z.infer<typeof beneficiaryEntry>;
