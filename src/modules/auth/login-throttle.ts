import type { AppDeps } from "../../deps";

export interface LoginThrottleOptions {
  /** Wrong passwords for one email from one address before waiting starts. */
  freeFailures: number;
  /** The first wait; it doubles with every further failure, up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A pair's count is forgotten after this long without a failure. */
  forgetAfterMs: number;
  /** Wrong passwords from one address, whatever the email, within `addressWindowMs`. */
  addressFailures: number;
  addressWindowMs: number;
}

const DEFAULTS: LoginThrottleOptions = {
  freeFailures: 5,
  baseDelayMs: 1_000,
  maxDelayMs: 15 * 60_000,
  forgetAfterMs: 24 * 3600_000,
  addressFailures: 50,
  addressWindowMs: 15 * 60_000,
};

const MAX_ENTRIES = 50_000;

/**
 * Slows down password guessing without handing attackers a way to lock people out. Failures are counted per
 * email and address: after a few, each further try from that address waits twice as long as the one before.
 * A looser cap counts failures per address across emails. Only failures count, a success clears its pair, and
 * nothing is counted per email alone, so wrong passwords sent from one address never delay the owner of the
 * account signing in from another.
 */
export class LoginThrottle {
  private pairs = new Map<string, { failures: number; lastAt: number }>();
  private addresses = new Map<string, number[]>();
  private readonly opts: LoginThrottleOptions;

  constructor(
    private readonly now: () => number,
    opts: Partial<LoginThrottleOptions> = {},
  ) {
    this.opts = { ...DEFAULTS, ...opts };
  }

  /** Milliseconds before `email` may be tried from `address` again (0: now). */
  waitFor(email: string, address: string): number {
    const t = this.now();
    return Math.max(this.pairWait(pairKey(email, address), t), this.addressWait(address, t));
  }

  failed(email: string, address: string) {
    const t = this.now();
    const key = pairKey(email, address);
    const pair = this.livePair(key, t);
    this.pairs.delete(key);
    this.pairs.set(key, { failures: (pair?.failures ?? 0) + 1, lastAt: t });
    const recent = this.recentFailures(address, t);
    this.addresses.delete(address);
    this.addresses.set(address, [...recent, t]);
    this.trim();
  }

  succeeded(email: string, address: string) {
    this.pairs.delete(pairKey(email, address));
  }

  private pairWait(key: string, t: number): number {
    const pair = this.livePair(key, t);
    if (!pair || pair.failures < this.opts.freeFailures) return 0;
    const delay = Math.min(this.opts.maxDelayMs, this.opts.baseDelayMs * 2 ** (pair.failures - this.opts.freeFailures));
    return Math.max(0, pair.lastAt + delay - t);
  }

  private addressWait(address: string, t: number): number {
    const recent = this.recentFailures(address, t);
    return recent.length >= this.opts.addressFailures ? recent[0]! + this.opts.addressWindowMs - t : 0;
  }

  private livePair(key: string, t: number) {
    const pair = this.pairs.get(key);
    return pair && t - pair.lastAt < this.opts.forgetAfterMs ? pair : undefined;
  }

  private recentFailures(address: string, t: number): number[] {
    return (this.addresses.get(address) ?? []).filter((at) => at > t - this.opts.addressWindowMs);
  }

  /** Maps keep insertion order and entries are re-inserted on use, so the first ones are the stalest. */
  private trim() {
    for (const map of [this.pairs, this.addresses] as Map<string, unknown>[]) {
      while (map.size > MAX_ENTRIES) map.delete(map.keys().next().value!);
    }
  }
}

function pairKey(email: string, address: string): string {
  return `${email.trim().toLowerCase()}\n${address}`;
}

const throttles = new WeakMap<AppDeps, LoginThrottle>();

/** The app's one throttle (shared by login and the current-password check of a password change). */
export function loginThrottleFor(deps: AppDeps): LoginThrottle {
  let throttle = throttles.get(deps);
  if (!throttle) throttles.set(deps, (throttle = new LoginThrottle(() => deps.clock.now())));
  return throttle;
}
