import type { AppDeps } from "../../deps";
import { notFound } from "../../errors";
import { connectionExists } from "../connections/lookup";

async function assertExists(deps: AppDeps, id: number) {
  if (!(await connectionExists(deps.db, id))) throw notFound("ERR_NO_WAPP_FOUND");
}

/** "Try again": starts the session; the outcome arrives as whatsappSession events. */
export async function startSession(deps: AppDeps, id: number) {
  await assertExists(deps, id);
  await deps.channels.restart(id);
  return { message: "Starting session." };
}

/** "New QR": wipes the credentials and phone book, then starts again. */
export async function newQr(deps: AppDeps, id: number) {
  await assertExists(deps, id);
  await deps.channels.newQr(id);
  return { message: "Starting session." };
}

/** "Disconnect": logs out; the connection stays DISCONNECTED until started again. */
export async function disconnectSession(deps: AppDeps, id: number) {
  await assertExists(deps, id);
  await deps.channels.disconnect(id);
  return { message: "Session disconnected." };
}

/** Stops and starts every connection; the answer comes once they were asked to start. */
export async function restartAll(deps: AppDeps) {
  await deps.channels.restartAll();
  return { message: "Restarting." };
}
