import type { SandboxControls, SandboxInbound } from "../../channels/sandbox/controls";
import type { SandboxPresence } from "../../shared/contracts/presence";
import type { AppDeps } from "../../deps";
import { AppError, notFound } from "../../errors";

/** Refuses with 404 a connection `id` that does not exist or is not a sandbox connection. */
async function sandboxConnection(deps: AppDeps, id: number) {
  const provider = await deps.channels.providerOf(id);
  if (!provider) throw notFound("ERR_NO_WAPP_FOUND");
  if (provider !== "sandbox") throw new AppError("ERR_NO_WAPP_FOUND", 404);
}

/** Refuses every sandbox call when the sandbox is switched off. */
export function assertSandboxEnabled(deps: AppDeps) {
  if (!deps.config.sandbox || !deps.sandbox) throw new AppError("ERR_SANDBOX_DISABLED", 403);
}

/** The simulated phone scans the connection's QR. */
export async function scan(deps: AppDeps, sandbox: SandboxControls, id: number) {
  await sandboxConnection(deps, id);
  await sandbox.scan(id);
}

/** A simulated phone writes to the connection; returns the message id. */
export async function inbound(deps: AppDeps, sandbox: SandboxControls, id: number, input: SandboxInbound) {
  await sandboxConnection(deps, id);
  return sandbox.inbound(id, input);
}

/** The network tells the connection which phone number a LID belongs to. */
export async function mapLid(deps: AppDeps, sandbox: SandboxControls, id: number, lid: string, phone: string) {
  await sandboxConnection(deps, id);
  await sandbox.mapLid(id, lid, phone);
}

/** What the connection sent, oldest first (to one number when `to` is given). */
export async function outbox(deps: AppDeps, sandbox: SandboxControls, id: number, to?: string) {
  await sandboxConnection(deps, id);
  return (await sandbox.outbox(id, to)).map((m) => ({
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
export async function read(deps: AppDeps, sandbox: SandboxControls, id: number, to: string) {
  await sandboxConnection(deps, id);
  await sandbox.read(id, to);
}

/** The network refuses a message the connection sent (a nack), as WhatsApp does to a restricted account. */
export async function reject(deps: AppDeps, sandbox: SandboxControls, id: number, wid: string) {
  await sandboxConnection(deps, id);
  if (!(await sandbox.reject(id, wid))) throw notFound("ERR_NO_MESSAGE_FOUND");
}

/** The simulated phone types, records, comes online or leaves. */
export async function presence(deps: AppDeps, sandbox: SandboxControls, id: number, input: SandboxPresence) {
  await sandboxConnection(deps, id);
  await sandbox.presence(id, input);
}

/** What the connection last showed the phone `to`: `composing`, `paused`, or null when nothing yet. */
export async function presenceShown(deps: AppDeps, sandbox: SandboxControls, id: number, to: string) {
  await sandboxConnection(deps, id);
  return { to, state: await sandbox.presenceShown(id, to) };
}
