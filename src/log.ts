const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
export type LogLevel = keyof typeof LEVELS;

export interface Logger {
  debug(msg: string, data?: Record<string, unknown>): void;
  info(msg: string, data?: Record<string, unknown>): void;
  warn(msg: string, data?: Record<string, unknown>): void;
  error(msg: string, data?: Record<string, unknown>): void;
}

/**
 * A line-per-event logger: `2026-01-01T10:00:00.000Z INFO message {"key":"value"}`, or with `json` one object per
 * line (`{"time":…,"level":"info","msg":…,"key":"value"}`) for log collectors.
 */
export function createLogger(
  level: LogLevel = "info",
  write: (line: string) => void = (l) => console.log(l),
  format: "text" | "json" = "text",
): Logger {
  const min = LEVELS[level] ?? LEVELS.info;
  const emit = (lvl: Exclude<LogLevel, "silent">) => (msg: string, data?: Record<string, unknown>) => {
    if (LEVELS[lvl] < min) return;
    const time = new Date().toISOString();
    if (format === "json") return write(JSON.stringify({ time, level: lvl, msg, ...data }, errorReplacer));
    const extra = data && Object.keys(data).length ? ` ${JSON.stringify(data, errorReplacer)}` : "";
    write(`${time} ${lvl.toUpperCase()} ${msg}${extra}`);
  };
  return { debug: emit("debug"), info: emit("info"), warn: emit("warn"), error: emit("error") };
}

function errorReplacer(_key: string, value: unknown) {
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack };
  return value;
}

export function isLogLevel(value: string | undefined): value is LogLevel {
  return !!value && value in LEVELS;
}
