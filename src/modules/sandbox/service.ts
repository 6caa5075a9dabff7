import { eq } from "drizzle-orm";
import type { SandboxControls, SandboxInbound } from "../../channels/sandbox/controls";
import type { AppDeps } from "../../deps";
import { whatsapps } from "../../db/schema";
import { AppError, notFound } from "../../errors";

/** The sandbox connection `id`, or 404 when it does not exist / 400 when it is not a sandbox connection. */
function sandboxConnection(deps: AppDeps, id: number) {
  const row = deps.db
    .select({ id: whatsapps.id, provider: whatsapps.provider })
    .from(whatsapps)
    .where(eq(whatsapps.id, id))
    .get();
  if (!row) throw notFound("ERR_NO_WAPP_FOUND");
  if (row.provider !== "sandbox") throw new AppError("ERR_NO_WAPP_FOUND", 404);
  return row;
}

/** Refuses every sandbox call when the sandbox is switched off. */
export function assertSandboxEnabled(deps: AppDeps) {
  if (!deps.config.sandbox || !deps.sandbox) throw new AppError("ERR_SANDBOX_DISABLED", 403);
}

/** The simulated phone scans the connection's QR. */
export function scan(deps: AppDeps, sandbox: SandboxControls, id: number) {
  sandboxConnection(deps, id);
  sandbox.scan(id);
}

/** A simulated phone writes to the connection; returns the message id. */
export function inbound(deps: AppDeps, sandbox: SandboxControls, id: number, input: SandboxInbound) {
  sandboxConnection(deps, id);
  return sandbox.inbound(id, input);
}

/** The network tells the connection which phone number a LID belongs to. */
export function mapLid(deps: AppDeps, sandbox: SandboxControls, id: number, lid: string, phone: string) {
  sandboxConnection(deps, id);
  sandbox.mapLid(id, lid, phone);
}

/** What the connection sent, oldest first (to one number when `to` is given). */
export function outbox(deps: AppDeps, sandbox: SandboxControls, id: number, to?: string) {
  sandboxConnection(deps, id);
  return sandbox.outbox(id, to).map((m) => ({
    id: m.wid,
    to: m.peer,
    body: m.body,
    mediaType: m.mediaType ?? "chat",
    fileName: m.fileName,
    quotedId: m.quotedId,
    ack: m.ack,
    createdAt: m.createdAt,
  }));
}

/** The simulated contact reads the messages the connection sent them. */
export function read(deps: AppDeps, sandbox: SandboxControls, id: number, to: string) {
  sandboxConnection(deps, id);
  sandbox.read(id, to);
}

/** The network refuses a message the connection sent (a nack), as WhatsApp does to a restricted account. */
export function reject(deps: AppDeps, sandbox: SandboxControls, id: number, wid: string) {
  sandboxConnection(deps, id);
  if (!sandbox.reject(id, wid)) throw notFound("ERR_NO_MESSAGE_FOUND");
}
