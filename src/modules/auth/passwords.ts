import { availableParallelism } from "node:os";
import type { PasswordHashing } from "../../config";
import type { PasswordHasher } from "../../deps";
import { HashPool } from "./hash-pool";
import { randomBase64url } from "../../shared/random";

export function hashPassword(password: string, hashing: PasswordHashing): Promise<string> {
  return Bun.password.hash(password, hashing);
}

export async function verifyPassword(password: string, hash: string): Promise<boolean> {
  try {
    return await Bun.password.verify(password, hash);
  } catch {
    return false;
  }
}

/** A strong random password for the first admin when none is configured. */
export function generatePassword(): string {
  return randomBase64url(12);
}

/** Hashes at once by default: every core but one, so requests always have a core to run on. */
export function defaultHashConcurrency(): number {
  return Math.max(1, availableParallelism() - 1);
}

/**
 * The app's password hashing and checking, through one bounded pool (see HashPool): past the pool and its
 * short line, a hash is refused with 429 instead of queuing behind hundreds of others.
 */
export class Passwords implements PasswordHasher {
  readonly pool: HashPool;

  constructor(
    private readonly hashing: PasswordHashing,
    concurrency = defaultHashConcurrency(),
  ) {
    this.pool = new HashPool(concurrency, 4 * concurrency);
  }

  typicalMs(): number {
    return this.pool.typicalMs();
  }

  hash(password: string): Promise<string> {
    return this.pool.run(() => hashPassword(password, this.hashing));
  }

  verify(password: string, hash: string): Promise<boolean> {
    return this.pool.run(() => verifyPassword(password, hash));
  }
}
