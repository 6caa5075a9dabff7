import type makeWASocket from "baileys";
import type { Logger } from "../../log";

/** The pino-shaped logger Baileys takes. */
export type BaileysLogger = NonNullable<Parameters<typeof makeWASocket>[0]["logger"]>;

/** A pino-compatible logger that forwards Baileys' warnings and errors to ours. */
export function bridgeLogger(log: Logger, bindings: Record<string, unknown>): BaileysLogger {
  const data = (obj: unknown) => ({
    ...bindings,
    ...(obj && typeof obj === "object" ? (obj as Record<string, unknown>) : { detail: obj }),
  });
  const text = (obj: unknown, msg?: string) => msg ?? (typeof obj === "string" ? obj : "baileys");
  return {
    level: "warn",
    child: (obj) => bridgeLogger(log, { ...bindings, ...obj }),
    trace: () => {},
    debug: () => {},
    info: () => {},
    warn: (obj, msg) => log.warn(text(obj, msg), data(obj)),
    error: (obj, msg) => log.error(text(obj, msg), data(obj)),
  };
}
