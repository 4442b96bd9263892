/**
 * Billing's decisions, as functions of plain values (no database): the spending order, periods, the trial, the usage
 * alerts, and what a paid checkout or a subscription's end changes. The repositories of `@sparks/db` call them inside
 * their transactions (imported as `@sparks/domain/billing`, a project of its own that `@sparks/db` may depend on),
 * and `@sparks/domain` exports them to the api and the worker.
 */
export * from './plan';
export * from './period';
export * from './trial';
export * from './spending';
export * from './alerts';
export * from './fulfilment';
