import { eq } from "drizzle-orm";
import type { AppDeps } from "../../deps";
import { whatsapps } from "../../db/schema";
import { notFound } from "../../errors";

function assertExists(deps: AppDeps, id: number) {
  const row = deps.db.select({ id: whatsapps.id }).from(whatsapps).where(eq(whatsapps.id, id)).get();
  if (!row) throw notFound("ERR_NO_WAPP_FOUND");
}

/** "Try again": starts the session; the outcome arrives as whatsappSession events. */
export async function startSession(deps: AppDeps, id: number) {
  assertExists(deps, id);
  await deps.channels.start(id);
  return { message: "Starting session." };
}

/** "New QR": wipes the credentials and phone book, then starts again. */
export async function newQr(deps: AppDeps, id: number) {
  assertExists(deps, id);
  await deps.channels.newQr(id);
  return { message: "Starting session." };
}

/** "Disconnect": logs out; the connection stays DISCONNECTED until started again. */
export async function disconnectSession(deps: AppDeps, id: number) {
  assertExists(deps, id);
  await deps.channels.disconnect(id);
  return { message: "Session disconnected." };
}

/** Stops and starts every connection; the answer comes once they were asked to start. */
export async function restartAll(deps: AppDeps) {
  await deps.channels.restartAll();
  return { message: "Restarting." };
}
