/**
 * The messaging networks a connection can use: `baileys` (a linked device), `cloud` (Meta's WhatsApp Business
 * Cloud API) and `sandbox` (the built-in simulated one).
 */
export const PROVIDERS = ["baileys", "sandbox", "cloud"] as const;

export type Provider = (typeof PROVIDERS)[number];
