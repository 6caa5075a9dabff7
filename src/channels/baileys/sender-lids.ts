import { type BinaryNode, extractAddressingContext, isPnUser, type WASocket } from "baileys";
import type { Logger } from "../../log";
import { isIgnoredJid } from "./jid";

/**
 * Baileys handles a socket's inbound messages one after another and, before decrypting one, looks up the LID of
 * its sender. For a sender addressed by phone number whose stanza carries no LID and whose mapping is not stored
 * yet, that lookup is a usync query to WhatsApp, and every later message of the socket waits for its answer. The
 * same lookup is started here as each stanza arrives, so the queries for a burst's new senders run side by side:
 * Baileys then joins the one in flight (it merges equal lookups) or finds the answer stored.
 */
export function lookUpSendersEarly(sock: WASocket, log: Logger) {
  sock.ws.on("CB:message", (node: BinaryNode) => {
    // Baileys drops what comes from status broadcasts and newsletters without decrypting it.
    if (isIgnoredJid(node.attrs.from)) return;
    const sender = node.attrs.participant || node.attrs.from;
    if (!sender || !isPnUser(sender) || extractAddressingContext(node).senderAlt) return;
    sock.signalRepository.lidMapping
      .getLIDForPN(sender)
      .catch((error) => log.debug("sender LID not looked up early", { sender, error }));
  });
}
