import { KYC_STATUSES, kycStatusOf } from '../../domain/kyc.js';
import { ConflictError, ForbiddenError, NotFoundError, UnprocessableError, ValidationError } from '../../domain/errors.js';
import type { FiatCurrency, PaymentRails } from '../../domain/money.js';
import { AddressInput, AddressRef } from '../../graphql/types/address.js';
import { undefinedIfNull, withoutNulls } from '../../graphql/types/arguments.js';
import { builder } from '../../graphql/builder.js';
import { snapshotRef } from '../events/snapshots.js';
import { reads } from '../../graphql/types/columns.js';
import { connectionFieldOptions, nodeConnection, ownPosition, resolveKeysetPage } from '../../graphql/types/connection.js';
import { scopeOf } from '../../graphql/context.js';
import { domainEnum, FiatCurrencyEnum, PaymentRailsEnum } from '../../graphql/types/enums.js';
import { nullIfNotFound, withInputPaths } from '../../graphql/types/errors.js';
import { creatingMutation } from '../../graphql/types/idempotency.js';
import { databaseIdOf } from '../../graphql/types/node.js';
import { idempotencyKeyField, payloadOf } from '../../graphql/types/payload.js';
import type { CustomerRow } from './queries.js';
import { CUSTOMER_TYPES } from './inputs.js';

const CustomerTypeEnum = domainEnum('CustomerType', CUSTOMER_TYPES, {
  description: 'Whether a customer is a person or a company (REST: type)',
  describe: { individual: 'A person: firstName and lastName are required', corporate: 'A company: companyName is required' },
});
const KycStatusEnum = domainEnum('KycStatus', KYC_STATUSES, {
  description: 'Where a customer is in KYC (the partner guide, /docs#kyc-statuses-and-transitions, has the transition table)',
  describe: {
    not_started: 'No KYC data submitted yet (a new customer)',
    pending: 'KYC data started (submission under way, or resubmitted after a rejection)',
    in_review: 'Submitted: the KYC provider is reviewing it',
    approved: 'Verified: final, nothing downgrades it',
    rejected: 'Refused by the KYC provider; new KYC data starts again',
  },
});
const KycDecisionEnum = domainEnum('KycDecision', ['approved', 'rejected'] as const, {
  description: "The KYC provider's decision a sandbox simulation plays",
  describe: { approved: 'Approve: KYC becomes APPROVED', rejected: 'Reject: KYC becomes REJECTED' },
});

const KycRailStatusRef = builder.objectRef<CustomerRow['kycStatusBreakdown'][number]>('KycRailStatus').implement({
  description: "A customer's KYC status on one currency and rail (REST: an item of kycs.status_breakdown)",
  fields: (t) => ({
    currency: t.field({ type: FiatCurrencyEnum, description: 'The currency this status covers', resolve: (r) => r.currency as FiatCurrency }),
    paymentRails: t.field({ type: PaymentRailsEnum, description: 'The rail this status covers', resolve: (r) => r.payment_rails as PaymentRails }),
    status: t.field({ type: KycStatusEnum, description: 'KYC status on this currency and rail', resolve: (r) => r.status }),
  }),
});

const KycRef = builder.objectRef<CustomerRow>('Kyc').implement({
  description: "A customer's KYC: overall status, per-rail breakdown and the hosted verification link (REST: kycs)",
  fields: (t) => ({
    status: t.field({
      type: KycStatusEnum,
      description: 'The customer-level status (every rail moves together; see the partner guide at /docs for the transitions).',
      resolve: (c) => kycStatusOf(c.kycStatusBreakdown),
    }),
    statusBreakdown: t.field({
      type: [KycRailStatusRef],
      description:
        'The status on each currency and rail (usd/ach, usd/wire, usd/swift, eur/sepa, eur/swift, aed/uaefts, aed/swift); a transfer checks its own rail',
      resolve: (c) => c.kycStatusBreakdown,
    }),
    subStatus: t.exposeString('kycSubStatus', {
      nullable: true,
      description: 'The step within the status, e.g. kyc_form_submission_started, kyc_form_submitted, kyc_approved (REST: sub_status); null for a new customer',
    }),
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

/** A field showing a personal value: it reads the sealed column its value is opened from (personal-data.ts). */
const personal = <T>(resolve: (c: CustomerRow) => T) => ({ extensions: reads(['personal']), resolve });

/** The fields of a Customer (and of a snapshot of one, as an event kept it). */
function fieldsOfCustomer(t: PothosSchemaTypes.ObjectFieldBuilder<typeof builder.$inferSchemaTypes, CustomerRow>) {
  return {
    databaseId: t.expose('id', { type: 'UUID', description: 'The id REST shows for this customer (customer_id)' }),
    email: t.string({ description: 'Email address, lower-cased; unique per partner and environment', ...personal((c) => c.email) }),
    type: t.field({ type: CustomerTypeEnum, description: 'Person or company', extensions: reads(['type']), resolve: (c) => c.type }),
    firstName: t.string({ nullable: true, description: "An individual's first name; null for a corporate customer", ...personal((c) => c.firstName ?? null) }),
    lastName: t.string({ nullable: true, description: "An individual's last name; null for a corporate customer", ...personal((c) => c.lastName ?? null) }),
    companyName: t.string({
      nullable: true,
      description: "A corporate customer's company name; null for an individual",
      ...personal((c) => c.companyName ?? null),
    }),
    address: t.field({ type: AddressRef, nullable: true, description: 'Postal address; null when none was given', ...personal((c) => c.address ?? null) }),
    kycs: t.field({ type: KycRef, description: "The customer's KYC status and verification link", resolve: (c) => c }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the customer was created' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When the customer or its KYC last changed' }),
    redactedAt: t.expose('redactedAt', {
      type: 'DateTime',
      nullable: true,
      description: "When the customer's personal data was erased (redactCustomer): its names read [redacted], its address is null. Null while kept.",
    }),
  };
}

CustomerRef.implement({
  description: 'A person or company you move money for; its KYC, bank accounts, virtual accounts and transfers belong to it',
  fields: (t) => fieldsOfCustomer(t),
});

export const CustomerSnapshotRef = snapshotRef(CustomerRef, {
  description: "A customer as an event kept it: an id of its own (the event's), the fields as they were, `live` for the customer now",
  fields: (t) => fieldsOfCustomer(t as never),
});

export const CustomerConnection = nodeConnection(CustomerRef, 'Customer');

const CreateCustomerInputRef = builder.inputType('CreateCustomerInput', {
  description: 'A new customer (REST: POST /v0/customers)',
  fields: (t) => ({
    email: t.string({ required: true, description: 'A valid email address, unique per partner and environment (ConflictError customer_email_taken)' }),
    type: t.field({ type: CustomerTypeEnum, required: true, description: 'Person or company: decides which names are required' }),
    firstName: t.string({ description: 'Required for an individual, not allowed for a corporate customer (1 to 200 characters)' }),
    lastName: t.string({ description: 'Required for an individual, not allowed for a corporate customer (1 to 200 characters)' }),
    companyName: t.string({ description: 'Required for a corporate customer, not allowed for an individual (1 to 200 characters)' }),
    address: t.field({ type: AddressInput, description: 'Optional postal address' }),
    idempotencyKey: idempotencyKeyField(t),
  }),
});

const IdDocumentInput = builder.inputType('IdDocumentInput', {
  description: 'An identity document (REST: identifying_information.id_document)',
  fields: (t) => ({
    number: t.string({ required: true, description: "The document's number (1 to 100 characters)" }),
    issuingCountry: t.string({ required: true, description: 'The issuing country, ISO 3166-1 alpha-2 or alpha-3 in capitals, e.g. "FR"' }),
  }),
});
const DocumentInput = builder.inputType('CustomerDocumentInput', {
  description: 'A KYC document already uploaded to the KYC provider (REST: an item of documents)',
  fields: (t) => ({
    fileId: t.string({ required: true, description: "The uploaded file's id (1 to 200 characters)" }),
    purpose: t.string({ required: true, description: 'What the document proves, e.g. proof_of_address (1 to 100 characters)' }),
    description: t.string({ description: 'Optional free text (at most 500 characters)' }),
  }),
});

const UpdateCustomerInputRef = builder.inputType('UpdateCustomerInput', {
  description: 'Changes to a customer (REST: PUT /v0/customers/{customer_id}); fields left out stay as they are',
  fields: (t) => ({
    customerId: t.id({ required: true, description: "The customer's global id or databaseId" }),
    email: t.string({ description: 'A new email address, unique per partner and environment' }),
    firstName: t.string({ description: "An individual's first name (not allowed for a corporate customer)" }),
    lastName: t.string({ description: "An individual's last name (not allowed for a corporate customer)" }),
    companyName: t.string({ description: "A corporate customer's company name (not allowed for an individual)" }),
    address: t.field({ type: AddressInput, description: 'A new postal address (replaces the old one whole)' }),
    providerShareKycToken: t.string({
      description:
        "A KYC provider's share token (sandbox: approve_<applicant>, reject_<applicant>, review_<applicant>): imports the provider's verification of this individual customer, whose email must be the applicant's. Used once; field codes malformed_token, kyc_token_already_used, kyc_applicant_mismatch, kyc_import_customer_is_corporate.",
    }),
    idDocument: t.field({
      type: IdDocumentInput,
      description: 'KYC data: an identity document; submitting KYC data moves NOT_STARTED (or REJECTED) to PENDING',
    }),
    taxNumber: t.string({ description: 'KYC data: the tax identification number (1 to 100 characters)' }),
    documents: t.field({ type: [DocumentInput], description: 'KYC data: uploaded documents (at most 50)' }),
  }),
});

const CreateKycLinkInputRef = builder.inputType('CreateKycLinkInput', {
  description: 'Which customer gets a fresh hosted verification link',
  fields: (t) => ({
    customerId: t.id({ required: true, description: "The customer's global id or databaseId" }),
    redirectUri: t.string({ description: 'Where the hosted page returns the applicant after a decision, with customer_id and status added' }),
    idempotencyKey: idempotencyKeyField(t),
  }),
});

const SimulateKycDecisionInputRef = builder.inputType('SimulateKycDecisionInput', {
  description: 'A sandbox KYC decision for a customer',
  fields: (t) => ({
    customerId: t.id({ required: true, description: "The customer's global id or databaseId" }),
    decision: t.field({ type: KycDecisionEnum, required: true, description: 'Approve or reject' }),
  }),
});

const SimulateKycSubmissionInputRef = builder.inputType('SimulateKycSubmissionInput', {
  description: 'A sandbox KYC submission for a customer',
  fields: (t) => ({ customerId: t.id({ required: true, description: "The customer's global id or databaseId" }) }),
});

const customerIdOf = (id: string | number) => databaseIdOf(id, 'Customer');

builder.queryFields((t) => ({
  customer: t.field({
    keyScope: 'read',
    type: CustomerRef,
    nullable: true,
    description: "One of the caller's customers by global id or databaseId; null when unknown (or another partner's).",
    args: { id: t.arg.id({ required: true, description: "The customer's global id, or its databaseId (REST's customer_id)" }) },
    resolve: (_, { id }, ctx) => nullIfNotFound(ctx.services.customers.get(scopeOf(ctx), customerIdOf(id))),
  }),
  customers: t.connection(
    {
      keyScope: 'read',
      type: CustomerRef,
      description: 'Customers, oldest first, with cursor pagination (at most 100 a page).',
      args: {
        email: t.arg.string({ description: 'Only the customer with this email (case-insensitive); none matches: an empty page' }),
        type: t.arg({ type: CustomerTypeEnum, description: 'Only customers of this type' }),
        kycStatus: t.arg({ type: KycStatusEnum, description: 'Only customers whose overall KYC status (Kyc.status) is this' }),
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
    keyScope: 'write',
    type: CustomerRef,
    description:
      'Creates a customer (REST: POST /v0/customers), KYC NOT_STARTED. ValidationError for invalid fields, ConflictError customer_email_taken when the email is in use.',
    errors: payloadOf('CreateCustomer', 'customer', [ValidationError, ConflictError, UnprocessableError]),
    args: {
      input: t.arg({ type: CreateCustomerInputRef, required: true, description: 'What to do, as one input object (ValidationError paths point into it)' }),
    },
    // The input is the use case's own (NewCustomer): it goes as it is, and its errors' paths are the input's.
    resolve: creatingMutation({
      run: (customer, scope, { services }) => services.customers.create(scope, withoutNulls(customer)),
      load: (id, scope, { services }) => services.customers.get(scope, id),
    }),
  }),
  createKycLink: t.field({
    keyScope: 'write',
    type: KycRef,
    description:
      'A fresh kycFlowLink for the customer (REST: POST /v0/customers/{id}/kycs): earlier links stop working. After a decision the sandbox page returns the applicant to redirectUri with customer_id and status added. Sandbox only for now: ForbiddenError kyc_provider_not_configured in production. ConflictError customer_redacted for an erased customer.',
    errors: payloadOf(
      'CreateKycLink',
      'kyc',
      [ValidationError, NotFoundError, ForbiddenError, ConflictError, UnprocessableError],
      "The customer's KYC, with the fresh kycFlowLink",
    ),
    args: {
      input: t.arg({ type: CreateKycLinkInputRef, required: true, description: 'What to do, as one input object (ValidationError paths point into it)' }),
    },
    resolve: creatingMutation({
      run: ({ customerId, redirectUri }, scope, { services }) =>
        services.customers.createKycLink(scope, customerIdOf(customerId), { redirectUri: undefinedIfNull(redirectUri) }),
      load: (id, scope, { services }) => services.customers.get(scope, id),
    }),
  }),
  simulateKycDecision: t.field({
    keyScope: 'simulate',
    type: CustomerRef,
    description:
      'Sandbox only: approve or reject the customer as the KYC provider would (ForbiddenError in production; ConflictError kyc_transition_not_allowed when the transition table forbids it, e.g. once approved; customer_redacted for an erased customer).',
    errors: payloadOf('SimulateKycDecision', 'customer', [NotFoundError, ForbiddenError, ConflictError]),
    args: {
      input: t.arg({ type: SimulateKycDecisionInputRef, required: true, description: 'What to do, as one input object (ValidationError paths point into it)' }),
    },
    resolve: (_, { input }, ctx) => ctx.services.customers.decideKyc(scopeOf(ctx), customerIdOf(input.customerId), input.decision),
  }),
  simulateKycSubmission: t.field({
    keyScope: 'simulate',
    type: CustomerRef,
    description:
      'Sandbox only: the applicant submits the verification form, moving KYC to IN_REVIEW (as on the hosted page). ConflictError customer_redacted for an erased customer.',
    errors: payloadOf('SimulateKycSubmission', 'customer', [NotFoundError, ForbiddenError, ConflictError]),
    args: {
      input: t.arg({
        type: SimulateKycSubmissionInputRef,
        required: true,
        description: 'What to do, as one input object (ValidationError paths point into it)',
      }),
    },
    resolve: (_, { input }, ctx) => ctx.services.customers.submitKyc(scopeOf(ctx), customerIdOf(input.customerId)),
  }),
  updateCustomer: t.field({
    keyScope: 'write',
    type: CustomerRef,
    description:
      "Changes a customer and submits KYC data (REST: PUT /v0/customers/{customer_id}); a providerShareKycToken imports a KYC provider's verification instead. ConflictError customer_redacted for a redacted customer.",
    errors: payloadOf('UpdateCustomer', 'customer', [ValidationError, NotFoundError, ConflictError]),
    args: {
      input: t.arg({ type: UpdateCustomerInputRef, required: true, description: 'What to do, as one input object (ValidationError paths point into it)' }),
    },
    // The rest of the input is the use case's own (CustomerChanges): its errors' paths are the input's.
    resolve: (_, { input: { customerId, ...changes } }, ctx) =>
      withInputPaths(ctx.services.customers.update(scopeOf(ctx), customerIdOf(customerId), withoutNulls(changes))),
  }),
}));
