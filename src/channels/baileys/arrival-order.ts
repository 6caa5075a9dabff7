import type { BinaryNode, WASocket } from "baileys";

type MessageListener = (node: BinaryNode) => unknown;

/**
 * Makes Baileys handle a socket's live message stanzas one after another, in the order they arrived, as it does
 * with the offline backlog. Baileys starts each live stanza as it arrives and, before its one-at-a-time section,
 * awaits the sender's LID mapping (stored, and the session moved to the LID, when the mapping is new). A later
 * message whose mapping was stored meanwhile passes an earlier one still storing it, and is receipted and emitted
 * first: one chat's messages would be journaled and stored out of order. Call it before adding listeners of
 * message stanzas of our own: those still run as each stanza arrives.
 */
export function handleMessagesInArrivalOrder(sock: WASocket) {
  const ws = sock.ws;
  const baileys = ws.listeners("CB:message") as MessageListener[];
  for (const listener of baileys) ws.off("CB:message", listener);
  let handled: Promise<unknown> = Promise.resolve();
  ws.on("CB:message", (node: BinaryNode) => {
    handled = handled.then(() => Promise.allSettled(baileys.map(async (listener) => await listener(node))));
  });
}
