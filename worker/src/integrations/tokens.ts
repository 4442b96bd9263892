/** The worker's `MicrosoftGraph` (`@sparks/knowledge`): Graph clients for the connections, tokens refreshed. */
export const MICROSOFT = Symbol('MICROSOFT');
