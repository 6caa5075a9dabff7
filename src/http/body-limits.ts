import type { Config } from "../config";
import type { Permission } from "../shared/permissions";

const KB = 1024;
const MB = 1024 * KB;

/** Every request body not listed below: enough for any form of the app with its longest fields. */
export const DEFAULT_BODY_LIMIT = 64 * KB;

/** A Cloud API notification batches a few messages or statuses; Meta sends nothing near this. */
export const CLOUD_WEBHOOK_BODY_LIMIT = 512 * KB;

/** How much body a route may receive, and who may send more than the default. */
export interface BodyLimit {
  bytes: number;
  /**
   * Set when `bytes` exceeds the default: the caller must be signed in (with this permission), or hold the
   * external API token (`apiToken`), before it is read.
   */
  auth?: true | Permission | "apiToken";
  /** The route reads its own body (through `readCapped`); the shared parser leaves it alone. */
  ownReader?: boolean;
}

interface Rule {
  methods: string[];
  path: RegExp;
  limit: (config: Config, contentType: string) => BodyLimit;
}

const fixed = (bytes: number, auth: true | Permission) => () => ({ bytes, auth });
const mediaBytes = (config: Config) => config.maxMediaMb * MB;

/**
 * Routes whose real payloads outgrow the default. Elysia parses a body before any route hook runs, so these
 * are decided from the method and path alone, before the body is read. Sizes allow the longest fields in
 * UTF-8 (a 30 000-character message may take 90 KB), not just typical use.
 */
const RULES: Rule[] = [
  // The external API: the same sizes as a panel send, authorised by the API token.
  {
    methods: ["POST"],
    path: /^\/api\/messages\/send\/?$/,
    limit: (config, type) => ({
      bytes: type === "multipart/form-data" ? mediaBytes(config) + MB : 256 * KB,
      auth: "apiToken",
      ownReader: true,
    }),
  },
  // Panel sends: text up to 64 K characters, or up to ten files in one multipart body.
  {
    methods: ["POST"],
    path: /^\/api\/messages\/[^/]+\/?$/,
    limit: (config, type) => ({
      bytes: type === "multipart/form-data" ? mediaBytes(config) + MB : 256 * KB,
      auth: true,
      ownReader: true,
    }),
  },
  // Simulated inbound media arrives base64-encoded inside JSON.
  {
    methods: ["POST"],
    path: /^\/api\/sandbox\/[^/]+\/inbound\/?$/,
    limit: (config) => ({ bytes: Math.ceil((mediaBytes(config) * 4) / 3) + MB, auth: "connections:manage" }),
  },
  // Up to 10 000 recipients with their rendered messages.
  { methods: ["POST"], path: /^\/api\/bulkMessage\/?$/, limit: fixed(16 * MB, "bulk:manage") },
  // A queue with its whole chatbot tree.
  { methods: ["POST", "PUT"], path: /^\/api\/(queue|chatbot)(\/[^/]+)?\/?$/, limit: fixed(MB, "queues:manage") },
  // Greeting, farewell, transfer and out-of-hours messages.
  { methods: ["POST", "PUT"], path: /^\/api\/whatsapp(\/[^/]+)?\/?$/, limit: fixed(512 * KB, "connections:manage") },
  // Up to 100 extra-info fields of 2 000 characters.
  { methods: ["POST", "PUT"], path: /^\/api\/(contacts(\/[^/]+)?|contact)\/?$/, limit: fixed(512 * KB, true) },
  // The WhatsApp Cloud API's notifications: signed, read raw by their route to check the signature.
  {
    methods: ["POST"],
    path: /^\/api\/webhooks\/whatsapp-cloud\/[^/]+\/?$/,
    limit: () => ({ bytes: CLOUD_WEBHOOK_BODY_LIMIT, ownReader: true }),
  },
  // Socket.IO's long-polling posts (a few join events): the engine reads them itself, within the default.
  { methods: ["POST"], path: /^\/socket\.io\/?$/, limit: () => ({ bytes: DEFAULT_BODY_LIMIT, ownReader: true }) },
  // A 30 000-character message.
  { methods: ["POST", "PUT"], path: /^\/api\/(quickAnswers|schedules)(\/[^/]+)?\/?$/, limit: fixed(256 * KB, true) },
];

/** The body limit of a request, from its method, path and media type (without parameters). */
export function bodyLimitFor(config: Config, method: string, path: string, contentType: string): BodyLimit {
  const rule = RULES.find((r) => r.methods.includes(method) && r.path.test(path));
  return rule ? rule.limit(config, contentType) : { bytes: DEFAULT_BODY_LIMIT };
}

/** The largest body any route accepts: the server refuses anything bigger before the app sees it. */
export function largestBodyLimit(config: Config): number {
  return Math.max(DEFAULT_BODY_LIMIT, ...RULES.map((r) => r.limit(config, "multipart/form-data").bytes));
}
