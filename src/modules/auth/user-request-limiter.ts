import type { ApiUserLimits } from "../../config";
import type { AppDeps } from "../../deps";
import { TokenBucket } from "../../shared/token-bucket";

/** What a refused request is told to wait when the user's requests in progress are what stopped it. */
const IN_FLIGHT_RETRY_MS = 1_000;

/**
 * A request still counted after this long is taken as finished: a handler that never settled must not keep a
 * slot, or enough of them would lock their user out of the API.
 */
export const HOLD_LIMIT_MS = 5 * 60_000;

export type Admission = { admitted: true; release: () => void } | { admitted: false; retryAfterMs: number };

interface UserState {
  /** When each request in progress started, by its release. */
  held: Map<() => void, number>;
  bucket?: TokenBucket;
}

/**
 * Keeps one user's burst of API requests from holding up everybody else: at most `inFlight` of a user's requests
 * are handled at once, and they start at most `perSecond` per second after a burst of `burst`. A refused request
 * takes no slot and spends nothing.
 */
export class UserRequestLimiter {
  private users = new Map<number, UserState>();

  constructor(
    private readonly limits: ApiUserLimits,
    private readonly now: () => number,
  ) {}

  /** Starts a request of `userId`; the admission's `release` ends it (once, however often it is called). */
  admit(userId: number): Admission {
    const state = this.stateOf(userId);
    const t = this.now();
    for (const [release, startedAt] of state.held) if (t - startedAt >= HOLD_LIMIT_MS) state.held.delete(release);
    if (this.limits.inFlight > 0 && state.held.size >= this.limits.inFlight)
      return { admitted: false, retryAfterMs: IN_FLIGHT_RETRY_MS };
    if (state.bucket && !state.bucket.take()) return { admitted: false, retryAfterMs: state.bucket.msUntilNext() };
    const release = () => {
      state.held.delete(release);
    };
    state.held.set(release, t);
    return { admitted: true, release };
  }

  private stateOf(userId: number): UserState {
    let state = this.users.get(userId);
    if (!state) {
      const { perSecond, burst } = this.limits;
      const bucket = perSecond > 0 ? new TokenBucket(Math.max(1, burst), perSecond, this.now) : undefined;
      this.users.set(userId, (state = { held: new Map(), bucket }));
    }
    return state;
  }
}

const limiters = new WeakMap<AppDeps, UserRequestLimiter>();

/** The app's one limiter, shared by the routes of every module. */
export function userRequestLimiterFor(deps: AppDeps): UserRequestLimiter {
  let limiter = limiters.get(deps);
  if (!limiter)
    limiters.set(deps, (limiter = new UserRequestLimiter(deps.config.apiUserLimits, () => deps.clock.now())));
  return limiter;
}
