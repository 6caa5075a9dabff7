import type { PasswordHashing } from "../../config";

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
  return Buffer.from(crypto.getRandomValues(new Uint8Array(12))).toString("base64url");
}
