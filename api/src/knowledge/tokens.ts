export const STORAGE = Symbol('STORAGE');
