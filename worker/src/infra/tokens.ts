export { CONFIG, DB } from '@sparks/nest';
export const REDIS = Symbol('REDIS');
