import { isPostgresUrl } from "./db/tables";
import { chmodSync, existsSync, readFileSync, readlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { IpRanges, LOOPBACK, PRIVATE_NETWORKS, parseIpRange } from "./shared/ip-ranges";
import { isLogLevel, type LogLevel } from "./log";
import { parseS3Location, type S3Location } from "./shared/s3-location";
import { randomBase64url } from "./shared/random";
import { prepareDataDir } from "./data-dirs";

export type PasswordHashing = Parameters<typeof Bun.password.hash>[1];

export interface Config {
  port: number;
  dataDir: string;
  databasePath: string;
  /** A PostgreSQL database to store in instead of SQLite under DATA_DIR (`DATABASE_URL=postgres://…`). */
  databaseUrl?: string;
  /** The signing secrets are the cluster's, kept in the database (PostgreSQL without JWT_SECRET/JWT_REFRESH_SECRET). */
  secretsInDatabase?: boolean;
  mediaDir: string;
  adminEmail: string;
  /** Absent means: generate one and print it once. */
  adminPassword?: string;
  jwtSecret: string;
  jwtRefreshSecret: string;
  logLevel: LogLevel;
  passwordHashing: PasswordHashing;
  /** Password hashes computed at once (PASSWORD_HASH_CONCURRENCY); absent: every core but one. */
  passwordHashConcurrency?: number;
  /** Access-token lifetime in seconds. */
  accessTokenTtl: number;
  /** Refresh-token lifetime in seconds. */
  refreshTokenTtl: number;
  /**
   * The reverse proxies in front of the server, by address: X-Forwarded-For, -Proto and -Host count only on a request
   * whose socket peer is one of them, and the client is the first X-Forwarded-For entry from the right that is not.
   */
  trustProxy: IpRanges;
  /** How much of the API one signed-in user may use at once (API_USER_CONCURRENCY, API_USER_RATE). */
  apiUserLimits: ApiUserLimits;
  /** Settings that still work but should change, logged once at start. */
  warnings?: string[];
  /** Always set the Secure flag on cookies (it is also set whenever a request arrives over HTTPS). */
  secureCookies: boolean;
  /** Sandbox WhatsApp connections may be created. */
  sandbox: boolean;
  /** IANA time zone used for work hours, placeholders and the dashboard. */
  timeZone: string;
  /** Open tickets idle this many hours are closed; 0 disables. */
  autoCloseHours: number;
  /** Largest media file accepted, in MB: panel uploads, sandbox inbound and WhatsApp downloads. */
  maxMediaMb: number;
  /** Hours between scheduled backups into DATA_DIR/backups; 0 switches them off. */
  backupEveryHours: number;
  /** Scheduled backups kept (older ones are deleted), here and off-site. */
  backupKeep: number;
  /** Where each scheduled backup is uploaded too (BACKUP_S3_URL and its keys); absent: nowhere. */
  backupS3?: S3Location;
  /** Bearer token that opens /metrics; without one, /metrics answers only callers on this machine. */
  metricsToken?: string;
  /** Log lines as JSON objects (LOG_FORMAT=json) instead of text. */
  logFormat: "text" | "json";
  /** WhatsApp Web version to present (WA_VERSION); absent means the latest published, else Baileys' own. */
  waVersion?: [number, number, number];
  /** Where WhatsApp Web connections open their socket (WA_SOCKET_URL): a proxy, or a fake server in tests. */
  waSocketUrl?: string;
  /** The key the server's certificate chain must be signed by (WA_CERT_ROOT), in place of WhatsApp's own. */
  waCertRoot?: Buffer;
  /** Origins (`https://host[:port]`) whose pages may call /api from the browser (CORS); empty means only our own. */
  corsOrigins: string[];
  /** The address browsers reach Zapdesk at (PUBLIC_URL), for absolute links such as media URLs; else the request's. */
  publicUrl?: string;
  /** Webhooks may target this machine and private networks (WEBHOOK_ALLOW_PRIVATE=1); else only public addresses. */
  webhookAllowPrivate: boolean;
  /** Where the WhatsApp Cloud API is reached (WHATSAPP_CLOUD_API_URL, default https://graph.facebook.com). */
  cloudApiUrl: string;
  /** The Graph API version its paths start with (WHATSAPP_CLOUD_API_VERSION, default v21.0). */
  cloudApiVersion: string;
}

/** Per user, over their authenticated /api requests; 0 switches a limit off. */
export interface ApiUserLimits {
  /** Requests being handled at once. */
  inFlight: number;
  /** Requests started per second, sustained, once a burst of `burst` is spent. */
  perSecond: number;
  burst: number;
}

type Env = Record<string, string | undefined>;

/**
 * Reads the configuration from the environment for a server or a command that writes: DATA_DIR and MEDIA_DIR are
 * created (private) when missing, and secrets not given are generated once and kept under DATA_DIR.
 */
export function loadConfig(env: Env = process.env): Config {
  const config = readConfig(env);
  prepareDataDir(config.dataDir, "DATA_DIR");
  prepareDataDir(config.mediaDir, "MEDIA_DIR");
  if (config.secretsInDatabase) return config;
  const secrets = persistedSecrets(config.dataDir);
  return {
    ...config,
    jwtSecret: env.JWT_SECRET || secrets.jwtSecret,
    jwtRefreshSecret: env.JWT_REFRESH_SECRET || secrets.jwtRefreshSecret,
  };
}

/**
 * The configuration as the environment gives it, for commands that only read (a backup): nothing is created,
 * and the signing secrets are those given or already kept under DATA_DIR (empty when there are none).
 */
export function readConfig(env: Env = process.env): Config {
  const dataDir = resolve(env.DATA_DIR || "./data");
  // Nodes sharing a database share their media too: a mounted directory, or DATA_DIR/media on one node.
  const mediaDir = env.MEDIA_DIR ? resolve(env.MEDIA_DIR) : join(dataDir, "media");
  const databaseUrl = isPostgresUrl(env.DATABASE_URL) ? env.DATABASE_URL : undefined;
  // Several nodes share one PostgreSQL database: they must sign with the same secrets, kept there.
  const secretsInDatabase = !!databaseUrl && !(env.JWT_SECRET && env.JWT_REFRESH_SECRET);
  const secrets = secretsInDatabase ? { jwtSecret: "", jwtRefreshSecret: "" } : storedSecrets(dataDir);
  const trusted = parseTrustProxy(env.TRUST_PROXY);
  return {
    port: parsePort(env.PORT),
    dataDir,
    databasePath: join(dataDir, "zapdesk.sqlite"),
    databaseUrl,
    secretsInDatabase,
    mediaDir,
    adminEmail: (env.ADMIN_EMAIL || "admin@example.com").trim().toLowerCase(),
    adminPassword: env.ADMIN_PASSWORD || undefined,
    jwtSecret: env.JWT_SECRET || secrets.jwtSecret,
    jwtRefreshSecret: env.JWT_REFRESH_SECRET || secrets.jwtRefreshSecret,
    logLevel: isLogLevel(env.LOG_LEVEL) ? env.LOG_LEVEL : "info",
    passwordHashing: { algorithm: "argon2id" },
    passwordHashConcurrency: wholeNumber("PASSWORD_HASH_CONCURRENCY", env.PASSWORD_HASH_CONCURRENCY, 0) || undefined,
    accessTokenTtl: 15 * 60,
    refreshTokenTtl: 7 * 24 * 3600,
    trustProxy: trusted.proxies,
    warnings: trusted.warning ? [trusted.warning] : [],
    apiUserLimits: parseApiUserLimits(env),
    secureCookies: env.SECURE_COOKIES === "true" || env.SECURE_COOKIES === "1",
    sandbox: env.SANDBOX !== "off",
    timeZone: systemTimeZone(env.TZ),
    autoCloseHours: Math.max(0, Number(env.AUTO_CLOSE_HOURS) || 0),
    maxMediaMb: parseMediaMb(env.MAX_MEDIA_MB),
    waVersion: parseWaVersion(env.WA_VERSION),
    ...parseWaSocket(env.WA_SOCKET_URL, env.WA_CERT_ROOT),
    metricsToken: env.METRICS_TOKEN || undefined,
    backupEveryHours: wholeNumber("BACKUP_EVERY_HOURS", env.BACKUP_EVERY_HOURS, 24),
    backupKeep: Math.max(1, wholeNumber("BACKUP_KEEP", env.BACKUP_KEEP, 7)),
    backupS3: parseS3Location(env),
    logFormat: env.LOG_FORMAT === "json" ? "json" : "text",
    corsOrigins: parseOrigins(env.CORS_ORIGINS),
    publicUrl: parsePublicUrl(env.PUBLIC_URL),
    webhookAllowPrivate: env.WEBHOOK_ALLOW_PRIVATE === "1" || env.WEBHOOK_ALLOW_PRIVATE === "true",
    cloudApiUrl: parseCloudApiUrl(env.WHATSAPP_CLOUD_API_URL),
    cloudApiVersion: parseCloudApiVersion(env.WHATSAPP_CLOUD_API_VERSION),
  };
}

/**
 * `TRUST_PROXY`: the proxies' addresses or CIDR ranges, comma-separated; `true` for a proxy on this machine
 * (loopback), `false` or empty for none. A number of proxies, the former format, cannot tell a proxy from a client
 * that wrote the header itself: it is still read, as "on this machine or a private network" (where the proxies of
 * the former recipes are: on the same host, or a container beside this one), with a warning to list them instead.
 */
export function parseTrustProxy(value: string | undefined): { proxies: IpRanges; warning?: string } {
  const text = (value ?? "").trim().toLowerCase();
  if (text === "" || text === "false" || text === "0") return { proxies: IpRanges.none };
  if (text === "true") return { proxies: LOOPBACK };
  if (/^\d+$/.test(text))
    return {
      proxies: LOOPBACK.with(PRIVATE_NETWORKS),
      warning:
        `TRUST_PROXY=${text} counts proxies, which cannot tell a proxy from a client: it is read as "a proxy on ` +
        "this machine or a private network (127.0.0.0/8, ::1, 10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16, " +
        "fc00::/7)\". Set TRUST_PROXY to the proxies' addresses instead, e.g. TRUST_PROXY=127.0.0.1 or " +
        "TRUST_PROXY=172.18.0.0/16",
    };
  const entries = text.split(",").map((entry) => entry.trim());
  const wrong = entries.find((entry) => !parseIpRange(entry));
  if (wrong !== undefined)
    throw new Error(
      "TRUST_PROXY must list the proxies' addresses or CIDR ranges (e.g. 127.0.0.1,10.0.0.0/8,::1), true (a proxy " +
        `on this machine) or false; "${wrong}" is neither an IP address nor a range`,
    );
  return { proxies: IpRanges.of(...entries) };
}

/**
 * `API_USER_CONCURRENCY` requests in progress (16) and `API_USER_RATE` per second (20) after a burst of three
 * seconds' worth: a page load takes fewer than ten, so a person with several tabs and devices stays well below.
 */
function parseApiUserLimits(env: Env): ApiUserLimits {
  const perSecond = wholeNumber("API_USER_RATE", env.API_USER_RATE, 20);
  return {
    inFlight: wholeNumber("API_USER_CONCURRENCY", env.API_USER_CONCURRENCY, 16),
    perSecond,
    burst: 3 * perSecond,
  };
}

/** `CORS_ORIGINS`: comma-separated origins, each reduced to scheme://host[:port] as browsers send it in `Origin`. */
function parseOrigins(value: string | undefined): string[] {
  const origins = (value ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const url = URL.parse(entry);
      if (!url || (url.protocol !== "http:" && url.protocol !== "https:") || url.origin !== entry.replace(/\/+$/, ""))
        throw new Error(`CORS_ORIGINS must list origins like https://app.example.com, got "${entry}"`);
      return url.origin;
    });
  return [...new Set(origins)];
}

function parsePublicUrl(value: string | undefined): string | undefined {
  if (!value?.trim()) return undefined;
  const url = URL.parse(value.trim());
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:"))
    throw new Error(`PUBLIC_URL must be an http(s) address like https://zapdesk.example.com, got "${value}"`);
  return url.origin + url.pathname.replace(/\/+$/, "");
}

function parseCloudApiUrl(value: string | undefined): string {
  if (!value?.trim()) return "https://graph.facebook.com";
  const url = URL.parse(value.trim());
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:"))
    throw new Error(
      `WHATSAPP_CLOUD_API_URL must be an http(s) address like https://graph.facebook.com, got "${value}"`,
    );
  return url.origin + url.pathname.replace(/\/+$/, "");
}

function parseCloudApiVersion(value: string | undefined): string {
  if (!value?.trim()) return "v21.0";
  if (!/^v\d+\.\d+$/.test(value.trim()))
    throw new Error(`WHATSAPP_CLOUD_API_VERSION must be a Graph API version like v21.0, got "${value}"`);
  return value.trim();
}

function parseMediaMb(value: string | undefined): number {
  if (!value) return 64;
  const mb = Number(value);
  if (!Number.isFinite(mb) || mb <= 0 || mb > 1024)
    throw new Error(`MAX_MEDIA_MB must be a size in MB (1-1024), got "${value}"`);
  return mb;
}

function parseWaVersion(value: string | undefined): [number, number, number] | undefined {
  if (!value?.trim()) return undefined;
  const match = /^(\d+)\.(\d+)\.(\d+)$/.exec(value.trim());
  if (!match) throw new Error(`WA_VERSION must be a WhatsApp Web version like 2.3000.1023456789, got "${value}"`);
  return [Number(match[1]), Number(match[2]), Number(match[3])];
}

/**
 * WA_SOCKET_URL (a `ws://` or `wss://` address) and WA_CERT_ROOT (a 32-byte public key in base64), which only
 * such an address may come with: WhatsApp's own servers are reached and checked as Baileys does by default.
 */
function parseWaSocket(url: string | undefined, root: string | undefined): Pick<Config, "waSocketUrl" | "waCertRoot"> {
  const address = url?.trim();
  const key = root?.trim();
  if (!address) {
    if (key) throw new Error("WA_CERT_ROOT is only used with WA_SOCKET_URL");
    return {};
  }
  let protocol: string | undefined;
  try {
    protocol = new URL(address).protocol;
  } catch {}
  if (protocol !== "ws:" && protocol !== "wss:")
    throw new Error(`WA_SOCKET_URL must be a ws:// or wss:// address, got "${url}"`);
  if (!key) return { waSocketUrl: address };
  const bytes = Buffer.from(key, "base64");
  if (bytes.length !== 32 || bytes.toString("base64") !== key)
    throw new Error("WA_CERT_ROOT must be a 32-byte public key in base64");
  return { waSocketUrl: address, waCertRoot: bytes };
}

function wholeNumber(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value.trim() === "") return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number, got "${value}"`);
  return n;
}

function parsePort(value: string | undefined): number {
  const port = Number(value || 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`PORT must be a port number, got "${value}"`);
  return port;
}

interface Secrets {
  jwtSecret: string;
  jwtRefreshSecret: string;
}

function persistedSecrets(dataDir: string): Secrets {
  const stored = storedSecrets(dataDir);
  if (stored.jwtSecret && stored.jwtRefreshSecret) return stored;
  const file = join(dataDir, "secrets.json");
  const fresh: Secrets = { jwtSecret: randomSecret(), jwtRefreshSecret: randomSecret() };
  writeFileSync(file, JSON.stringify(fresh, null, 2), { mode: 0o600 });
  chmodSync(file, 0o600);
  return fresh;
}

/** The secrets kept under DATA_DIR, empty when there are none yet. */
function storedSecrets(dataDir: string): Secrets {
  const file = join(dataDir, "secrets.json");
  const stored = existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as Partial<Secrets>) : {};
  return { jwtSecret: stored.jwtSecret ?? "", jwtRefreshSecret: stored.jwtRefreshSecret ?? "" };
}

export function randomSecret(bytes = 48): string {
  return randomBase64url(bytes);
}

/** Names of UTC that the system may give; Intl calls them all "UTC". */
const UTC_ALIASES = new Set(["UTC", "Etc/UTC", "Etc/UCT", "Etc/Universal", "Etc/Zulu", "Universal", "Zulu", "UCT"]);

/**
 * The time zone the process runs in: `TZ`, else the zone `/etc/localtime` links to, as the C library reads it,
 * else UTC. Read without Intl, whose time zone data costs an idle server about 5 MiB the moment it is touched;
 * a system whose `/etc/localtime` is a copy rather than a link is asked through Intl.
 */
export function systemTimeZone(tz: string | undefined, localtime = readLocaltimeLink): string {
  const zone = tz || zoneOfLink(localtime()) || intlTimeZone();
  return UTC_ALIASES.has(zone) ? "UTC" : zone;
}

function zoneOfLink(target: string | null | undefined): string | undefined {
  if (target === null) return "UTC";
  return target === undefined ? undefined : /zoneinfo\/(.+)$/.exec(target)?.[1];
}

/** Where /etc/localtime links to; null when there is none (the C library then uses UTC), undefined when it is a file. */
function readLocaltimeLink(): string | null | undefined {
  try {
    return readlinkSync("/etc/localtime");
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT" ? null : undefined;
  }
}

function intlTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}
