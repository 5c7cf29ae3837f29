import { type EntityManager, p } from '@mikro-orm/core';
import { type Actor, ENVIRONMENTS, type Environment } from '../../domain/environment.js';

/**
 * Every row a partner owns carries its tenant: the partner and the environment (sandbox or
 * production) of the key that made it. Entities declare it once with `tenantColumns()` and
 * `TENANT_FILTERS`; a Scope's EntityManager carries the caller's tenant as the filter's
 * parameters (scopeFor). From then on every find, count, update and delete of such an entity is
 * narrowed to the caller's rows by MikroORM itself, and a query on an EntityManager without a
 * tenant fails loudly ("No arguments provided for filter 'tenant'") instead of reading every
 * partner's rows. Work that spans tenants on purpose (background jobs) says so: ACROSS_TENANTS.
 */
export const TENANT_FILTER = 'tenant';

export interface Tenant {
  partnerId: string;
  environment: Environment;
}

/** The caller's tenant: the columns of its rows and the filter's parameters. */
export const tenantOf = (actor: Pick<Actor, 'partnerId' | 'environment'>): Tenant => ({ partnerId: actor.partnerId, environment: actor.environment });

/** The filter, on by default, for `filters` of every tenant-owned entity definition. */
export const TENANT_FILTERS = {
  [TENANT_FILTER]: {
    name: TENANT_FILTER,
    cond: (tenant: Tenant) => ({ partnerId: tenant.partnerId, environment: tenant.environment }),
    default: true,
  },
};

/** The tenant an EntityManager works for; a write without one is a bug, not a row of nobody's. */
export function tenantOfEm(em: EntityManager): Tenant {
  const tenant = em.getFilterParams<Tenant>(TENANT_FILTER);
  if (!tenant) throw new Error('A tenant-owned row was created outside a tenant scope (scopeFor)');
  return tenant;
}

/** `partnerId` and `environment`, filled on insert from the creating EntityManager's tenant. */
export const tenantColumns = () => ({
  partnerId: p.uuid().onCreate((_: unknown, em: EntityManager) => tenantOfEm(em).partnerId),
  environment: p.enum(ENVIRONMENTS).onCreate((_: unknown, em: EntityManager) => tenantOfEm(em).environment),
});

/** Find options of work that reads or moves rows of every tenant on purpose (jobs, the dispatcher). */
export const ACROSS_TENANTS = { filters: { [TENANT_FILTER]: false } } as const;

/** Scopes `em` to the caller's tenant (it and every fork or transaction made from it). */
export function scopeTo<E extends EntityManager>(em: E, actor: Pick<Actor, 'partnerId' | 'environment'>): E {
  em.setFilterParams(TENANT_FILTER, tenantOf(actor));
  return em;
}
