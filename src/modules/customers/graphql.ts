import { KYC_STATUSES, kycStatusOf } from '../../domain/kyc.js';
import { ConflictError, ForbiddenError, NotFoundError, UnprocessableError, ValidationError } from '../../domain/errors.js';
import type { FiatCurrency, PaymentRails } from '../../domain/money.js';
import { AddressInput, AddressRef } from '../../graphql/address.js';
import { undefinedIfNull, withoutNulls } from '../../graphql/arguments.js';
import { builder } from '../../graphql/builder.js';
import { snapshotRef } from '../events/snapshots.js';
import { reads } from '../../graphql/columns.js';
import { connectionFieldOptions, nodeConnection, ownPosition, resolveKeysetPage } from '../../graphql/connection.js';
import { scopeOf } from '../../graphql/context.js';
import { domainEnum, FiatCurrencyEnum, PaymentRailsEnum } from '../../graphql/enums.js';
import { nullIfNotFound, withInputPaths } from '../../graphql/errors.js';
import { creatingMutation } from '../../graphql/idempotency.js';
import { databaseIdOf } from '../../graphql/node.js';
import { idempotencyKeyField, payloadOf } from '../../graphql/payload.js';
import type { CustomerRow } from './queries.js';
import { CUSTOMER_TYPES } from './inputs.js';

const CustomerTypeEnum = domainEnum('CustomerType', CUSTOMER_TYPES);
const KycStatusEnum = domainEnum('KycStatus', KYC_STATUSES);
const KycDecisionEnum = domainEnum('KycDecision', ['approved', 'rejected'] as const);

const KycRailStatusRef = builder.objectRef<CustomerRow['kycStatusBreakdown'][number]>('KycRailStatus').implement({
  fields: (t) => ({
    currency: t.field({ type: FiatCurrencyEnum, resolve: (r) => r.currency as FiatCurrency }),
    paymentRails: t.field({ type: PaymentRailsEnum, resolve: (r) => r.payment_rails as PaymentRails }),
    status: t.field({ type: KycStatusEnum, resolve: (r) => r.status }),
  }),
});

const KycRef = builder.objectRef<CustomerRow>('Kyc').implement({
  fields: (t) => ({
    status: t.field({
      type: KycStatusEnum,
      description: 'The customer-level status (every rail moves together; see the partner guide at /docs for the transitions).',
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

export const CustomerRef = builder.loadableNodeRef<CustomerRow>('Customer', {
  id: { resolve: (c) => c.id },
  // Batches every customer looked up in one request into one query, scoped to the caller.
  load: (ids: string[], ctx) => ctx.services.customers.loadMany(scopeOf(ctx), ids),
  sort: (customer) => customer.id,
});

/** The fields of a Customer (and of a snapshot of one, as an event kept it). */
function fieldsOfCustomer(t: PothosSchemaTypes.ObjectFieldBuilder<typeof builder.$inferSchemaTypes, CustomerRow>) {
  return {
    databaseId: t.expose('id', { type: 'UUID', description: 'The id REST shows for this customer (customer_id)' }),
    email: t.exposeString('email'),
    type: t.field({ type: CustomerTypeEnum, extensions: reads(['type']), resolve: (c) => c.type }),
    firstName: t.exposeString('firstName', { nullable: true }),
    lastName: t.exposeString('lastName', { nullable: true }),
    companyName: t.exposeString('companyName', { nullable: true }),
    address: t.field({ type: AddressRef, nullable: true, extensions: reads(['address']), resolve: (c) => c.address ?? null }),
    kycs: t.field({ type: KycRef, resolve: (c) => c }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    redactedAt: t.expose('redactedAt', {
      type: 'DateTime',
      nullable: true,
      description: "When the customer's personal data was erased (redactCustomer): its names read [redacted], its address is null. Null while kept.",
    }),
  };
}

CustomerRef.implement({
  fields: (t) => fieldsOfCustomer(t),
});

export const CustomerSnapshotRef = snapshotRef(CustomerRef, {
  description: "A customer as an event kept it: an id of its own (the event's), the fields as they were, `live` for the customer now",
  fields: (t) => fieldsOfCustomer(t as never),
});

export const CustomerConnection = nodeConnection(CustomerRef, 'Customer');

const CreateCustomerInputRef = builder.inputType('CreateCustomerInput', {
  fields: (t) => ({
    email: t.string({ required: true }),
    type: t.field({ type: CustomerTypeEnum, required: true }),
    firstName: t.string(),
    lastName: t.string(),
    companyName: t.string(),
    address: t.field({ type: AddressInput }),
    idempotencyKey: idempotencyKeyField(t),
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
    customerId: t.id({ required: true }),
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

const CreateKycLinkInputRef = builder.inputType('CreateKycLinkInput', {
  fields: (t) => ({
    customerId: t.id({ required: true }),
    redirectUri: t.string({ description: 'Where the hosted page returns the applicant after a decision, with customer_id and status added' }),
    idempotencyKey: idempotencyKeyField(t),
  }),
});

const SimulateKycDecisionInputRef = builder.inputType('SimulateKycDecisionInput', {
  fields: (t) => ({ customerId: t.id({ required: true }), decision: t.field({ type: KycDecisionEnum, required: true }) }),
});

const SimulateKycSubmissionInputRef = builder.inputType('SimulateKycSubmissionInput', {
  fields: (t) => ({ customerId: t.id({ required: true }) }),
});

const customerIdOf = (id: string | number) => databaseIdOf(id, 'Customer');

builder.queryFields((t) => ({
  customer: t.field({
    type: CustomerRef,
    nullable: true,
    description: "One of the caller's customers by global id or databaseId; null when unknown (or another partner's).",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_, { id }, ctx) => nullIfNotFound(ctx.services.customers.get(scopeOf(ctx), customerIdOf(id))),
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
      ...connectionFieldOptions(),
      resolve: (_, args, ctx, info) => {
        const filter = { email: undefinedIfNull(args.email), type: undefinedIfNull(args.type), kycStatus: undefinedIfNull(args.kycStatus) };
        return resolveKeysetPage(ctx, info, args, ownPosition, (page) => ctx.services.customers.list(scopeOf(ctx), filter, page), {
          count: () => ctx.services.customers.count(scopeOf(ctx), filter),
        });
      },
    },
    CustomerConnection,
  ),
}));

builder.mutationFields((t) => ({
  createCustomer: t.field({
    type: CustomerRef,
    errors: payloadOf('CreateCustomer', 'customer', [ValidationError, ConflictError, UnprocessableError]),
    args: { input: t.arg({ type: CreateCustomerInputRef, required: true }) },
    // The input is the use case's own (NewCustomer): it goes as it is, and its errors' paths are the input's.
    resolve: creatingMutation({
      run: (customer, scope, { services }) => services.customers.create(scope, withoutNulls(customer)),
      load: (id, scope, { services }) => services.customers.get(scope, id),
    }),
  }),
  createKycLink: t.field({
    type: KycRef,
    description:
      'A fresh kycFlowLink for the customer (REST: POST /v0/customers/{id}/kycs): earlier links stop working. After a decision the sandbox page returns the applicant to redirectUri with customer_id and status added. Sandbox only for now: ForbiddenError kyc_provider_not_configured in production.',
    errors: payloadOf('CreateKycLink', 'kyc', [ValidationError, NotFoundError, ForbiddenError, ConflictError, UnprocessableError]),
    args: { input: t.arg({ type: CreateKycLinkInputRef, required: true }) },
    resolve: creatingMutation({
      run: ({ customerId, redirectUri }, scope, { services }) =>
        services.customers.createKycLink(scope, customerIdOf(customerId), { redirectUri: undefinedIfNull(redirectUri) }),
      load: (id, scope, { services }) => services.customers.get(scope, id),
    }),
  }),
  simulateKycDecision: t.field({
    type: CustomerRef,
    description:
      'Sandbox only: approve or reject the customer as the KYC provider would (ForbiddenError in production; ConflictError kyc_transition_not_allowed when the transition table forbids it, e.g. once approved).',
    errors: payloadOf('SimulateKycDecision', 'customer', [NotFoundError, ForbiddenError, ConflictError]),
    args: { input: t.arg({ type: SimulateKycDecisionInputRef, required: true }) },
    resolve: (_, { input }, ctx) => ctx.services.customers.decideKyc(scopeOf(ctx), customerIdOf(input.customerId), input.decision),
  }),
  simulateKycSubmission: t.field({
    type: CustomerRef,
    description: 'Sandbox only: the applicant submits the verification form, moving KYC to IN_REVIEW (as on the hosted page).',
    errors: payloadOf('SimulateKycSubmission', 'customer', [NotFoundError, ForbiddenError, ConflictError]),
    args: { input: t.arg({ type: SimulateKycSubmissionInputRef, required: true }) },
    resolve: (_, { input }, ctx) => ctx.services.customers.submitKyc(scopeOf(ctx), customerIdOf(input.customerId)),
  }),
  updateCustomer: t.field({
    type: CustomerRef,
    errors: payloadOf('UpdateCustomer', 'customer', [ValidationError, NotFoundError, ConflictError]),
    args: { input: t.arg({ type: UpdateCustomerInputRef, required: true }) },
    // The rest of the input is the use case's own (CustomerChanges): its errors' paths are the input's.
    resolve: (_, { input: { customerId, ...changes } }, ctx) =>
      withInputPaths(ctx.services.customers.update(scopeOf(ctx), customerIdOf(customerId), withoutNulls(changes))),
  }),
}));
