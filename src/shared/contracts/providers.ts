/** The messaging networks a connection can use; `sandbox` is the built-in simulated one. */
export const PROVIDERS = ["baileys", "sandbox"] as const;

export type Provider = (typeof PROVIDERS)[number];
