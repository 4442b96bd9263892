/** The version the product shows (spec §1). */
export const APP_VERSION = '1.0.12';
