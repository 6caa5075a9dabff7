import { networkInterfaces } from "node:os";

/** How the server sees the network for its outbound requests (tests pass one that needs no network). */
export interface HostResolver {
  /** Every address, IPv4 and IPv6, the name resolves to; rejects when it resolves to none. */
  lookup(hostname: string): Promise<string[]>;
  /** The addresses of this machine's own network interfaces. */
  ownAddresses(): string[];
}

/** A name not resolved by then counts as not resolved. */
export const LOOKUP_TIMEOUT_MS = 10_000;

/** The machine's DNS and interfaces. */
export const systemResolver: HostResolver = {
  async lookup(hostname) {
    let timer: Timer | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`DNS lookup of ${hostname} timed out`)), LOOKUP_TIMEOUT_MS);
    });
    try {
      return (await Promise.race([Bun.dns.lookup(hostname, { family: 0 }), late])).map((entry) => entry.address);
    } finally {
      clearTimeout(timer);
    }
  },
  ownAddresses() {
    return Object.values(networkInterfaces()).flatMap((entries) => (entries ?? []).map((entry) => entry.address));
  },
};
