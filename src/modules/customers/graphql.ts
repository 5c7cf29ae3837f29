import { resolveCursorConnection, type ResolveCursorConnectionArgs } from '@pothos/plugin-relay';
import { KYC_STATUSES, kycStatusOf } from '../../domain/kyc.js';
import { AddressInput, AddressRef } from '../../graphql/address.js';
import { undefinedIfNull, withoutNulls } from '../../graphql/arguments.js';
import { builder } from '../../graphql/builder.js';
import { scopeOf } from '../../graphql/context.js';
import { MUTATION_ERRORS, nullIfNotFound, withInputPaths } from '../../graphql/errors.js';
import { idempotentMutation } from '../../graphql/idempotency.js';
import { cursorOf } from '../../platform/pagination.js';
import type { Customer } from './entities.js';
import { CUSTOMER_TYPES } from './inputs.js';
import { pageSizeRule } from '../../graphql/connection.js';
import { connectionComplexity, edgesCountedByPage } from '../../graphql/limits.js';

const CustomerTypeEnum = builder.enumType('CustomerType', { values: CUSTOMER_TYPES });
const KycStatusEnum = builder.enumType('KycStatus', { values: KYC_STATUSES });
const KycDecisionEnum = builder.enumType('KycDecision', { values: ['APPROVED', 'REJECTED'] as const });

const KycRailStatusRef = builder.objectRef<Customer['kycStatusBreakdown'][number]>('KycRailStatus').implement({
  fields: (t) => ({
    currency: t.exposeString('currency'),
    paymentRails: t.exposeString('payment_rails'),
    status: t.field({ type: KycStatusEnum, resolve: (r) => r.status }),
  }),
});

const KycRef = builder.objectRef<Customer>('Kyc').implement({
  fields: (t) => ({
    status: t.field({
      type: KycStatusEnum,
      description: 'The customer-level status (every rail moves together; see the README for the transitions).',
      resolve: (c) => kycStatusOf(c.kycStatusBreakdown),
    }),
    statusBreakdown: t.field({ type: [KycRailStatusRef], resolve: (c) => c.kycStatusBreakdown }),
    subStatus: t.exposeString('kycSubStatus', { nullable: true }),
    kycFlowLink: t.string({
      nullable: true,
      description: 'Sandbox: the hosted verification page (the link is its own credential). Null in production.',
      resolve: (c, _, ctx) => ctx.services.customers.kycFlowLink(c),
    }),
  }),
});

export const CustomerRef = builder.loadableObject('Customer', {
  // Batches every customer looked up in one request into one query, scoped to the caller.
  load: (ids: string[], ctx) => ctx.services.customers.loadMany(scopeOf(ctx), ids),
  sort: (customer) => customer.id,
  fields: (t) => ({
    id: t.exposeID('id'),
    email: t.exposeString('email'),
    type: t.field({ type: CustomerTypeEnum, resolve: (c) => c.type }),
    firstName: t.exposeString('firstName', { nullable: true }),
    lastName: t.exposeString('lastName', { nullable: true }),
    companyName: t.exposeString('companyName', { nullable: true }),
    address: t.field({ type: AddressRef, nullable: true, resolve: (c) => c.address ?? null }),
    kycs: t.field({ type: KycRef, resolve: (c) => c }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const CreateCustomerInputRef = builder.inputType('CreateCustomerInput', {
  fields: (t) => ({
    email: t.string({ required: true }),
    type: t.field({ type: CustomerTypeEnum, required: true }),
    firstName: t.string(),
    lastName: t.string(),
    companyName: t.string(),
    address: t.field({ type: AddressInput }),
  }),
});

const IdDocumentInput = builder.inputType('IdDocumentInput', {
  fields: (t) => ({ number: t.string({ required: true }), issuingCountry: t.string({ required: true }) }),
});
const DocumentInput = builder.inputType('CustomerDocumentInput', {
  fields: (t) => ({ fileId: t.string({ required: true }), purpose: t.string({ required: true }), description: t.string() }),
});

const UpdateCustomerInputRef = builder.inputType('UpdateCustomerInput', {
  fields: (t) => ({
    email: t.string(),
    firstName: t.string(),
    lastName: t.string(),
    companyName: t.string(),
    address: t.field({ type: AddressInput }),
    providerShareKycToken: t.string({
      description:
        "A KYC provider's share token (sandbox: approve_<applicant>, reject_<applicant>, review_<applicant>): imports the provider's verification of this individual customer, whose email must be the applicant's. Used once; field codes malformed_token, kyc_token_already_used, kyc_applicant_mismatch, kyc_import_customer_is_corporate.",
    }),
    idDocument: t.field({ type: IdDocumentInput }),
    taxNumber: t.string(),
    documents: t.field({ type: [DocumentInput] }),
  }),
});

builder.queryFields((t) => ({
  customer: t.field({
    type: CustomerRef,
    nullable: true,
    description: "One of the caller's customers; null when unknown (or another partner's).",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_, { id }, ctx) => nullIfNotFound(ctx.services.customers.get(scopeOf(ctx), String(id))),
  }),
  customers: t.connection(
    {
      type: CustomerRef,
      description: 'Customers, oldest first, with cursor pagination (at most 100 a page).',
      args: {
        email: t.arg.string(),
        type: t.arg({ type: CustomerTypeEnum }),
        kycStatus: t.arg({ type: KycStatusEnum }),
      },
      validate: pageSizeRule(),
      complexity: connectionComplexity(20),
      resolve: (_, args, ctx) =>
        resolveCursorConnection({ args, toCursor: cursorOf, defaultSize: 20, maxSize: 100 }, (page: ResolveCursorConnectionArgs) =>
          ctx.services.customers.list(
            scopeOf(ctx),
            { email: undefinedIfNull(args.email), type: undefinedIfNull(args.type), kycStatus: undefinedIfNull(args.kycStatus) },
            page,
          ),
        ),
    },
    edgesCountedByPage,
  ),
}));

builder.mutationFields((t) => ({
  createCustomer: t.field({
    type: CustomerRef,
    errors: { types: MUTATION_ERRORS },
    args: { input: t.arg({ type: CreateCustomerInputRef, required: true }), idempotencyKey: t.arg.string() },
    // The input is the use case's own (NewCustomer): it goes as it is, and its errors' paths are the input's.
    resolve: (_, args, ctx) =>
      idempotentMutation(
        ctx,
        'createCustomer',
        args,
        (em) => withInputPaths(ctx.services.customers.create({ ...scopeOf(ctx), em }, withoutNulls(args.input))),
        (id) => ctx.services.customers.get(scopeOf(ctx), id),
      ),
  }),
  createKycLink: t.field({
    type: KycRef,
    description:
      'A fresh kycFlowLink for the customer (REST: POST /v0/customers/{id}/kycs): earlier links stop working. After a decision the sandbox page returns the applicant to redirectUri with customer_id and status added. Sandbox only for now: ForbiddenError kyc_provider_not_configured in production.',
    errors: { types: MUTATION_ERRORS },
    args: { customerId: t.arg.id({ required: true }), redirectUri: t.arg.string(), idempotencyKey: t.arg.string() },
    resolve: (_, args, ctx) =>
      idempotentMutation(
        ctx,
        'createKycLink',
        args,
        (em) =>
          withInputPaths(
            ctx.services.customers.createKycLink({ ...scopeOf(ctx), em }, String(args.customerId), { redirectUri: undefinedIfNull(args.redirectUri) }),
          ),
        (id) => ctx.services.customers.get(scopeOf(ctx), id),
      ),
  }),
  simulateKycDecision: t.field({
    type: CustomerRef,
    description:
      'Sandbox only: approve or reject the customer as the KYC provider would (ForbiddenError in production; ConflictError kyc_transition_not_allowed when the transition table forbids it, e.g. once approved).',
    errors: { types: MUTATION_ERRORS },
    args: { customerId: t.arg.id({ required: true }), decision: t.arg({ type: KycDecisionEnum, required: true }) },
    resolve: (_, { customerId, decision }, ctx) =>
      ctx.services.customers.decideKyc(scopeOf(ctx), String(customerId), decision === 'APPROVED' ? 'approved' : 'rejected'),
  }),
  simulateKycSubmission: t.field({
    type: CustomerRef,
    description: 'Sandbox only: the applicant submits the verification form, moving KYC to in_review (as on the hosted page).',
    errors: { types: MUTATION_ERRORS },
    args: { customerId: t.arg.id({ required: true }) },
    resolve: (_, { customerId }, ctx) => ctx.services.customers.submitKyc(scopeOf(ctx), String(customerId)),
  }),
  updateCustomer: t.field({
    type: CustomerRef,
    errors: { types: MUTATION_ERRORS },
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateCustomerInputRef, required: true }) },
    // The input is the use case's own (CustomerChanges): it goes as it is, and its errors' paths are the input's.
    resolve: (_, { id, input }, ctx) => withInputPaths(ctx.services.customers.update(scopeOf(ctx), String(id), withoutNulls(input))),
  }),
}));
