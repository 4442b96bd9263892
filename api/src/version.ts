/** The version the product shows (docs/product.md §1). */
export const APP_VERSION = '1.0.12';
