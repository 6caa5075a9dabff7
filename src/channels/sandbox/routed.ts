import { AppError } from "../../errors";
import type { ConnectionCommands } from "../commands";
import type { ConnectionManager } from "../manager";
import type { SandboxControls, SandboxInbound } from "./controls";
import type { SandboxDriver } from "./driver";
import type { SandboxPresence } from "../../shared/contracts/presence";

/**
 * The simulated phones as every node sees them when nodes share the database: what a phone does to a connection
 * another node runs is stored for that node, as WhatsApp's servers hold a message until the device takes it, and
 * what this node runs is handled here at once. Alone, a node drives its own sandbox connections directly.
 */
export function routedSandbox(
  driver: SandboxDriver,
  manager: ConnectionManager,
  commands: ConnectionCommands | undefined,
): SandboxControls {
  if (!commands) return driver;
  commands
    .handle("sandbox.scan", (id) => driver.scan(id))
    .handle("sandbox.inbound", (id, input) => driver.inbound(id, input as SandboxInbound))
    .handle("sandbox.mapLid", (id, p) => driver.mapLid(id, (p as LidMapping).lid, (p as LidMapping).phone))
    .handle("sandbox.read", (id, p) => driver.read(id, (p as { peer: string }).peer))
    .handle("sandbox.reject", (id, p) => driver.reject(id, (p as { wid: string }).wid))
    .handle("sandbox.presence", (id, p) => driver.presence(id, p as SandboxPresence));
  // A phone reaches only a paired connection, wherever it runs (the driver checks the one it runs here).
  const paired = async (id: number) => {
    if (driver.isRunning(id)) return;
    if (!(await driver.network.pairing(id))) throw new AppError("ERR_WAPP_NOT_INITIALIZED");
  };
  return {
    scan: (id) => manager.onRunner(id, "sandbox.scan", {}, () => driver.scan(id)),
    async inbound(id, input) {
      await paired(id);
      // The id is fixed before the message may wait for another node: sent again, it is still one message.
      const message = { ...input, id: input.id || driver.newMessageId(id) };
      await manager.onRunner(id, "sandbox.inbound", message, () => driver.inbound(id, message));
      return message.id;
    },
    async mapLid(id, lid, phone) {
      await paired(id);
      await manager.onRunner(id, "sandbox.mapLid", { lid, phone } satisfies LidMapping, () =>
        driver.mapLid(id, lid, phone),
      );
    },
    async read(id, peer) {
      await paired(id);
      await manager.onRunner(id, "sandbox.read", { peer }, () => driver.read(id, peer));
    },
    async reject(id, wid) {
      await paired(id);
      if (!(await manager.isRunning(id))) {
        const sent = await driver.network.byWid(wid);
        if (sent?.whatsappId !== id || sent.direction !== "out") return false;
      }
      let known = true;
      await manager.onRunner(id, "sandbox.reject", { wid }, async () => {
        known = await driver.reject(id, wid);
      });
      return known;
    },
    async presence(id, input) {
      await paired(id);
      await manager.onRunner(id, "sandbox.presence", input, () => driver.presence(id, input));
    },
    // Kept by the node that runs the connection, which is the one that showed it.
    presenceShown: (id, to) => driver.presenceShown(id, to),
    outbox: (id, to) => driver.outbox(id, to),
    subscribe: (listener) => driver.subscribe(listener),
  };
}

interface LidMapping {
  lid: string;
  phone: string;
}
