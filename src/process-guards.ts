import type { Logger } from "./log";

/**
 * An error nothing caught is logged instead of ending the process: one bad frame or callback must not take
 * every socket, queue and WhatsApp session down with it, and nothing restarts the server.
 */
export function keepRunningOnUncaughtErrors(log: Logger, proc: Pick<NodeJS.Process, "on"> = process) {
  proc.on("unhandledRejection", (reason) => log.error("unhandled promise rejection", { error: reason }));
  proc.on("uncaughtException", (error) => log.error("uncaught exception", { error }));
}
