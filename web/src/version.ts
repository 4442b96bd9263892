/** The product version shown in the footer (docs/product.md §1: "The app version shown is 1.0.12"). */
export const APP_VERSION = '1.0.12';

/** The brand name, also the default page title (docs/product.md §1). */
export const BRAND_NAME = 'Sparks';
