import type { AppDeps } from "../../deps";
import { AppError } from "../../errors";
import { KeyedLanes } from "../../shared/lanes";

export interface LoginThrottleOptions {
  /** Wrong passwords for one email from one address before waiting starts. */
  freeFailures: number;
  /** The same, once the address is past its cap. */
  freeFailuresPastCap: number;
  /** The first wait; it doubles with every further failure, up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A pair's count is forgotten after this long without a failure. */
  forgetAfterMs: number;
  /** Wrong passwords from one address, whatever the email, within `addressWindowMs`: the address's cap. */
  addressFailures: number;
  addressWindowMs: number;
  /** Past the cap, guesses at unknown emails from one address that may wait their turn at once. */
  unknownWaiting: number;
}

const DEFAULTS: LoginThrottleOptions = {
  freeFailures: 5,
  freeFailuresPastCap: 1,
  baseDelayMs: 1_000,
  maxDelayMs: 15 * 60_000,
  forgetAfterMs: 24 * 3600_000,
  addressFailures: 50,
  addressWindowMs: 15 * 60_000,
  unknownWaiting: 20,
};

const MAX_ENTRIES = 50_000;

/** One password check under way, already counted as a failure until it is known to have succeeded. */
export interface LoginAttempt {
  /** The address failed often lately, across emails: guesses at unknown emails take turns (`unknownEmailTurn`). */
  readonly pastAddressCap: boolean;
  succeeded(): void;
}

const tooMany = (waitMs: number) =>
  new AppError("ERR_TOO_MANY_ATTEMPTS", 429, { retryAfter: Math.max(1, Math.ceil(waitMs / 1000)) });

/**
 * Slows down password guessing without handing attackers a way to lock people out.
 * - Per email and address: after a few failures, each further try from that address waits twice as long as the
 *   one before. Nothing is counted per email alone, so wrong passwords sent from one address never delay the
 *   owner signing in from another.
 * - Per address, across emails: past a cap, an email that failed from there waits after one failure instead of
 *   five, and guesses at emails that are no account are answered one at a time, without hashing. An account
 *   nobody guessed at from that address is still checked at once, so a colleague behind the same NAT as an
 *   attacker signs in as usual.
 * An attempt counts as a failure from the moment it starts (before its hash), so a burst of simultaneous
 * guesses is held to the same limits as guesses one after another; a success takes its count back.
 */
export class LoginThrottle {
  private pairs = new Map<string, { failures: number; lastAt: number }>();
  private addresses = new Map<string, number[]>();
  /** Past the cap, guesses at unknown emails from one address take turns, and how many wait per address. */
  private readonly unknownTurns = new KeyedLanes<string>();
  private readonly unknownWaiting = new Map<string, number>();
  private readonly opts: LoginThrottleOptions;

  constructor(
    private readonly now: () => number,
    opts: Partial<LoginThrottleOptions> = {},
  ) {
    this.opts = { ...DEFAULTS, ...opts };
  }

  /** Starts a password check of `email` from `address`; throws 429 while that pair must wait. */
  begin(email: string, address: string): LoginAttempt {
    const t = this.now();
    const key = pairKey(email, address);
    const recent = this.recentFailures(address, t);
    const pastAddressCap = recent.length >= this.opts.addressFailures;
    const pair = this.livePair(key, t);
    const wait = this.pairWait(pair, pastAddressCap ? this.opts.freeFailuresPastCap : this.opts.freeFailures, t);
    if (wait > 0) throw tooMany(wait);
    this.pairs.delete(key);
    this.pairs.set(key, { failures: (pair?.failures ?? 0) + 1, lastAt: t });
    this.addresses.delete(address);
    this.addresses.set(address, [...recent, t]);
    this.trim();
    return {
      pastAddressCap,
      succeeded: () => {
        this.pairs.delete(key);
        const times = this.addresses.get(address);
        const at = times?.lastIndexOf(t) ?? -1;
        if (at >= 0) times!.splice(at, 1);
      },
    };
  }

  /**
   * Past the address's cap, a guess at an email that is no account waits for the ones before it from that
   * address, then `waitMs` (about a hash's time, so the answer looks like one), and costs no hashing; when too
   * many already wait it is refused at once.
   */
  async unknownEmailTurn(address: string, waitMs: number): Promise<void> {
    const waiting = this.unknownWaiting.get(address) ?? 0;
    if (waiting >= this.opts.unknownWaiting) throw tooMany(waiting * waitMs);
    this.unknownWaiting.set(address, waiting + 1);
    try {
      await this.unknownTurns.run(address, () => new Promise<void>((resolve) => setTimeout(resolve, waitMs)));
    } finally {
      const left = (this.unknownWaiting.get(address) ?? 1) - 1;
      if (left > 0) this.unknownWaiting.set(address, left);
      else this.unknownWaiting.delete(address);
    }
  }

  private pairWait(pair: { failures: number; lastAt: number } | undefined, free: number, t: number): number {
    if (!pair || pair.failures < free) return 0;
    const delay = Math.min(this.opts.maxDelayMs, this.opts.baseDelayMs * 2 ** (pair.failures - free));
    return Math.max(0, pair.lastAt + delay - t);
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
