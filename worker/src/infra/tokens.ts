export const CONFIG = Symbol('CONFIG');
export const DB = Symbol('DB');
export const REDIS = Symbol('REDIS');
