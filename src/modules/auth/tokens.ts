import { jwt } from "@elysiajs/jwt";
import type { Config } from "../../config";

interface TokenSubject {
  id: number;
  profile: string;
  tokenVersion: number;
}

/** Refresh tokens always name their family and generation; access tokens name the family they were issued for. */
export type Verified =
  | { status: "ok"; userId: number; tokenVersion: number; familyId?: number; generation?: number; expiresAt: number }
  | { status: "expired" }
  | { status: "invalid" };

/** A refresh family's position a refresh token is signed for. */
export interface FamilyClaim {
  id: number;
  generation: number;
}

type Signer = {
  sign(payload: Record<string, string | number>): Promise<string>;
  verify(token?: string, options?: { currentDate?: Date }): Promise<false | Record<string, unknown>>;
};

/**
 * HS256 tokens of `ttlSeconds`, checked by @elysiajs/jwt (jose). They are signed here with the same header and
 * claims, byte for byte what the plugin writes, by a synchronous HMAC: WebCrypto's asynchronous signing, with its
 * key imported again for each token, cost 0.1 ms of every page load, which signs a fresh access token.
 */
function signer(name: string, secret: string, ttlSeconds: number): Signer {
  const plugin = jwt({ name, secret, exp: `${ttlSeconds}s` });
  const { verify } = (plugin as unknown as { decorator: Record<string, Signer> }).decorator[name]!;
  const key = new TextEncoder().encode(secret);
  return {
    async sign(payload) {
      const iat = Math.floor(Date.now() / 1000);
      const signed = `${JWT_HEADER}.${base64url(JSON.stringify({ ...payload, exp: iat + ttlSeconds, iat }))}`;
      return `${signed}.${new Bun.CryptoHasher("sha256", key).update(signed).digest("base64url")}`;
    },
    verify,
  };
}

const base64url = (text: string) => Buffer.from(text).toString("base64url");

const JWT_HEADER = base64url(JSON.stringify({ alg: "HS256", typ: "JWT" }));

/**
 * Access tokens (short-lived, `Authorization: Bearer`) and refresh tokens (7 days, httpOnly cookie).
 * Both carry the user's token version, so bumping it revokes every session, and the refresh family (one per
 * login), so ending one device's session revokes only that family.
 */
export function createTokens(
  config: Pick<Config, "jwtSecret" | "jwtRefreshSecret" | "accessTokenTtl" | "refreshTokenTtl">,
) {
  const access = signer("accessJwt", config.jwtSecret, config.accessTokenTtl);
  const refresh = signer("refreshJwt", config.jwtRefreshSecret, config.refreshTokenTtl);

  return {
    signAccess: (u: TokenSubject, familyId?: number) =>
      access.sign({
        sub: String(u.id),
        profile: u.profile,
        tv: u.tokenVersion,
        typ: "access",
        ...(familyId ? { fam: familyId } : {}),
      }),
    signRefresh: (u: TokenSubject, family: FamilyClaim) =>
      refresh.sign({ sub: String(u.id), tv: u.tokenVersion, typ: "refresh", fam: family.id, gen: family.generation }),
    verifyAccess: rememberVerified((token: string | undefined) => verify(access, token, "access")),
    // Each page GET checks its refresh cookie; the family and token version are still read every time.
    verifyRefresh: rememberVerified((token: string | undefined) => verify(refresh, token, "refresh")),
  };
}

export type Tokens = ReturnType<typeof createTokens>;

/** How many verified access tokens are remembered. */
const VERIFIED_TOKENS = 1024;

/**
 * Checking a token's signature costs more than the rest of a request's authentication, and a client sends the
 * same access token with every request until it renews it: a token found authentic is remembered until it
 * expires. Only the signature check is skipped; the session checks (user, token version, family) still run on
 * every request, so a revocation takes effect at once.
 */
function rememberVerified(check: (token: string | undefined) => Promise<Verified>) {
  const known = new Map<string, Extract<Verified, { status: "ok" }>>();
  return async (token: string | undefined): Promise<Verified> => {
    const remembered = token ? known.get(token) : undefined;
    if (remembered && Date.now() < remembered.expiresAt) return remembered;
    const verified = await check(token);
    if (token && verified.status === "ok") {
      known.delete(token);
      known.set(token, verified);
      if (known.size > VERIFIED_TOKENS) known.delete(known.keys().next().value!);
    } else if (token) known.delete(token);
    return verified;
  };
}

async function verify(s: Signer, token: string | undefined, typ: string): Promise<Verified> {
  if (!token) return { status: "invalid" };
  const payload = await s.verify(token);
  if (payload) return fromPayload(payload, typ);
  // A second check that ignores the clock tells an expired-but-authentic token from a forged one.
  const ignoringExpiry = await s.verify(token, { currentDate: new Date(0) });
  if (ignoringExpiry && fromPayload(ignoringExpiry, typ).status === "ok") return { status: "expired" };
  return { status: "invalid" };
}

function fromPayload(payload: Record<string, unknown>, typ: string): Verified {
  const userId = Number(payload.sub);
  const tokenVersion = Number(payload.tv);
  if (payload.typ !== typ || !Number.isInteger(userId) || !Number.isInteger(tokenVersion)) return { status: "invalid" };
  const familyId = Number.isInteger(payload.fam) ? (payload.fam as number) : undefined;
  const generation = Number.isInteger(payload.gen) ? (payload.gen as number) : undefined;
  if (typ === "refresh" && (familyId === undefined || generation === undefined)) return { status: "invalid" };
  return { status: "ok", userId, tokenVersion, familyId, generation, expiresAt: Number(payload.exp) * 1000 };
}
