import { customerService } from './modules/customers/service.js';

export interface ServiceOptions {
  /** Base address of this deployment, for links handed to partners. */
  publicUrl: () => string;
}

/** Every use case, built once at start and shared by GraphQL and REST. */
export function buildServices(options: ServiceOptions) {
  return {
    customers: customerService(options),
  };
}
export type Services = ReturnType<typeof buildServices>;
