export const CLOCK = Symbol('CLOCK');
