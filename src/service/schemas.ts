/**
 * zod schemas for every request and response of the service interface (spec sections 2 and 4).
 * The sandbox validates with the same schemas, so client and sandbox cannot drift apart.
 */

import { z } from 'zod';
import { ASSET_IDS } from '../domain/assets.js';
import { BANK_CODE, NUBAN } from '../domain/bank-account.js';
import { isRealDate } from '../domain/identity-form.js';

// spec 2.1
export const envelope = <T extends z.ZodType>(data: T) =>
  z.object({
    success: z.literal(true),
    status: z.number().int(),
    message: z.string(),
    timestamp: z.string(),
    data,
  });

export const errorEnvelope = z.object({
  success: z.literal(false),
  status: z.number().int().optional(),
  message: z.string().optional(),
});

// spec 2.2: exactly the 17 listed identifiers.
export const assetId = z.enum(ASSET_IDS, {
  error: (issue) => `"${String(issue.input)}" is not one of the assets of spec 2.2 (for example base:usdc)`,
});

const nonEmpty = z.string().trim().min(1, 'must not be empty');

/** A day that exists: 31-02-2000 is refused. */
export const dob = z
  .string()
  .regex(/^\d{2}-\d{2}-\d{4}$/, 'must be a date written DD-MM-YYYY')
  .refine((s) => {
    const [d, m, y] = s.split('-').map(Number) as [number, number, number];
    return isRealDate(d, m, y) && y >= 1900;
  }, 'is not a real calendar date');

export const bvn = z.string().regex(/^\d{11}$/, 'must be exactly 11 digits');

// spec 4.3, 4.7: NGN is the allowed value; the sample writes it lowercase. Users may type any
// case; CURRENCY_WIRE_FORM is the one place that decides what goes on the wire.
export const CURRENCIES = ['NGN'] as const;
export type Currency = (typeof CURRENCIES)[number];
export const currencyWireForm = (c: Currency): string => c.toLowerCase();
export const currency = z
  .string()
  .transform((s) => s.trim().toUpperCase())
  .pipe(z.enum(CURRENCIES, { error: 'must be NGN, the only currency of the service interface' }));

// ---- 2.3 Wallet
export const wallet = z.object({
  id: z.string(),
  reference: z.string(),
  is_active: z.boolean(),
  address: z.object({ evm: z.string(), svm: z.string() }),
  transfer: z.boolean(),
  swap: z.boolean(),
  offramp: z.boolean(),
});
export type Wallet = z.infer<typeof wallet>;

// ---- 2.4 Balance entry
export const balanceEntry = z.object({
  id: z.string(),
  name: z.string(),
  code: z.string(),
  blockchain: z.object({ id: z.number().int(), name: z.string() }),
  balance: z.number(),
  available: z.number(),
  debt: z.number(),
});
export type BalanceEntry = z.infer<typeof balanceEntry>;

// ---- 2.6 Identity
export const identity = z.object({
  is_active: z.boolean(),
  id: z.string(),
  type: z.string(),
  details: z.object({ bvn: z.string().optional() }).catchall(z.unknown()),
});
export type Identity = z.infer<typeof identity>;

// ---- 2.7, 2.8, 2.9
export const userCreated = z.object({ code: z.number().int(), key: z.string() });
export const accountLookup = z.object({
  bank_code: z.string(),
  bank_name: z.string(),
  account_number: z.string(),
  account_name: z.string(),
});
export type AccountLookup = z.infer<typeof accountLookup>;
export const rate = z.object({ rate: z.number() });

// ---- 2.10 Bank details: two strict variants, exactly one must match.
export const bankAddress = z.strictObject({
  house_no: z.number(),
  street: nonEmpty,
  city: nonEmpty,
  state: nonEmpty,
  postal_code: nonEmpty,
  country: nonEmpty,
});
export const nigerianBankDetails = z.strictObject({
  bank_code: z.string().regex(BANK_CODE, 'must be the bank code, 3 to 6 digits'),
  account_number: z.string().regex(NUBAN, 'must be a 10-digit NUBAN account number'),
});
export const crossBorderBankDetails = z.strictObject({
  bank_address: bankAddress.optional(),
  bank_name: z.string().optional(),
  account_name: z.string().optional(),
  account_number: z.string().optional(),
  routing_number: z.string().optional(),
  transit_number: z.string().optional(),
  ifsc_code: z.string().optional(),
  sort_code: z.string().optional(),
  bsb_number: z.string().optional(),
  ncc_number: z.string().optional(),
  clabe_number: z.string().optional(),
  branch_code: z.string().optional(),
  cnaps_code: z.string().optional(),
  clearing_code: z.string().optional(),
  pix_code: z.string().optional(),
  iban: z.string().optional(),
  swift_code: z.string().optional(),
});
// "Exactly one": variant 1 needs bank_code, which strict variant 2 refuses, so no object fits both;
// an empty object fits neither.
export const bankDetails = z.union([
  nigerianBankDetails,
  crossBorderBankDetails.refine((d) => Object.keys(d).length > 0, 'must name at least one field'),
]);
export type BankDetails = z.infer<typeof bankDetails>;

// ---- Requests (section 4)
export const createUserRequest = z.strictObject({
  email: z.email('must be an email address'),
  password: z.string().min(1, 'must not be empty'),
  name: nonEmpty,
  website: z.url('must be a URL such as https://example.com').optional(),
  description: z.string().optional(),
});
export type CreateUserRequest = z.infer<typeof createUserRequest>;

// spec 4.2 and 8.1: positive, or exactly -1 for the entire available balance.
export const transferAmount = z
  .number()
  .refine(
    (n) => Number.isFinite(n) && (n > 0 || n === -1),
    'must be more than zero, or -1 for the entire available balance',
  );

export const transferRequest = z.strictObject({
  wallet_id: nonEmpty,
  amount: transferAmount,
  receiver: nonEmpty,
  asset: assetId,
});
export type TransferRequest = z.infer<typeof transferRequest>;

export const createBeneficiaryRequest = z.strictObject({
  currency: z.string().regex(/^ngn$/i, 'must be NGN'),
  identity_id: nonEmpty,
  details: bankDetails,
});
export type CreateBeneficiaryRequest = z.infer<typeof createBeneficiaryRequest>;

// spec 4.4: offramp has no -1.
export const offrampRequest = z.strictObject({
  wallet_id: nonEmpty,
  amount: z.number().refine((n) => Number.isFinite(n) && n > 0, 'must be more than zero'),
  beneficiary_id: nonEmpty,
  asset: assetId,
});
export type OfframpRequest = z.infer<typeof offrampRequest>;

export const createIdentityRequest = z.strictObject({
  type: z.string().regex(/^bvn$/i, 'must be BVN'),
  name: nonEmpty,
  details: z.strictObject({ bvn, dob }),
});
export type CreateIdentityRequest = z.infer<typeof createIdentityRequest>;

export const lookupRequest = z.strictObject({
  bank_code: z.string().regex(BANK_CODE, 'must be the bank code, 3 to 6 digits'),
  currency: z.string().regex(/^ngn$/i, 'must be NGN'),
  account_number: z.string().regex(NUBAN, 'must be a 10-digit NUBAN account number'),
});
export type LookupRequest = z.infer<typeof lookupRequest>;

// ---- Response data per operation
export const transferResult = z.object({ hash: z.string().min(1), link: z.url() });
export type TransferResult = z.infer<typeof transferResult>;
export const idResult = z.object({ id: z.string().min(1) });
export const offrampResult = z.object({ reference: z.string().min(1) });
export type OfframpResult = z.infer<typeof offrampResult>;
export const identityCreated = z.object({ id: z.string().min(1), link: z.unknown().nullable().optional() });

/** "details.bvn: must be exactly 11 digits" — first issue, field named, value never echoed. */
export function describeZodError(error: z.ZodError): { field: string; message: string } {
  const issue = error.issues[0];
  const field = issue?.path.join('.') || '(body)';
  return { field, message: `${field}: ${issue?.message ?? 'is invalid'}` };
}
