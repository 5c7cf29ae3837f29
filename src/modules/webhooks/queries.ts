import type { KeysetPage } from '../../platform/reads/pagination.js';
import { type Columns, keyset, readsOver, rowShape, rowsOf, selecting } from '../../platform/reads/queries.js';
import { type Scope, modelOf } from '../../platform/use-cases/scope.js';
import { type DeliveryStatus, WebhookDelivery, WebhookEndpoint, type WebhookTables } from './entities.js';

/** A registered webhook and a delivery as lists show them: their columns as plain objects (an entity fits too). */
export type WebhookEndpointRow = Columns<WebhookEndpoint>;
export type WebhookDeliveryRow = Columns<WebhookDelivery>;

const { tenant } = readsOver<WebhookTables>();

/** Which deliveries a page lists (the service has checked that the endpoint is the caller's). */
export interface DeliveriesMatching {
  endpointId?: string;
  eventId?: string;
  status?: DeliveryStatus;
}

/** GraphQL `webhooks`: a keyset page of the registered (not deleted) webhooks, oldest first. */
export function endpointPage(scope: Scope, page: KeysetPage): Promise<WebhookEndpointRow[]> {
  const endpoints = rowShape(modelOf(scope), WebhookEndpoint, 'w');
  const query = selecting(tenant(scope, 'webhook_endpoints', 'w'), endpoints).where('w.deleted_at', 'is', null);
  return rowsOf(keyset(query, page, 'w'), endpoints);
}

/** GraphQL `webhookDeliveries`: a keyset page of the deliveries `matching` names, oldest first. */
export function deliveryPage(scope: Scope, matching: DeliveriesMatching, page: KeysetPage): Promise<WebhookDeliveryRow[]> {
  const deliveries = rowShape(modelOf(scope), WebhookDelivery, 'd');
  let query = selecting(tenant(scope, 'webhook_deliveries', 'd'), deliveries);
  if (matching.endpointId) query = query.where('d.endpoint_id', '=', matching.endpointId);
  if (matching.eventId) query = query.where('d.event_id', '=', matching.eventId);
  if (matching.status) query = query.where('d.status', '=', matching.status);
  return rowsOf(keyset(query, page, 'd'), deliveries);
}
