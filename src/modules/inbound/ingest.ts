import type { InboundSink } from "../../channels/types";
import type { AppDeps } from "../../deps";
import { linkLids } from "../contacts/lid";
import { isMediaPending, settleMedia } from "../messages/inbound-media";
import { markRejected } from "../messages/outbox";
import { applyEdit, applyReaction, markRevoked, updateAck } from "../messages/store";
import { botActions } from "./actions";
import { CallHandler } from "./calls";
import { importHistory } from "./history";
import { savePhonebook } from "./phonebook";
import { InboundPipeline } from "./pipeline";

/** The sink drivers report to (besides statuses): the inbound pipeline and the calls rule. */
export function createIngest(deps: AppDeps): InboundSink {
  const actions = botActions(deps);
  const pipeline = new InboundPipeline(deps, actions);
  const calls = new CallHandler(deps, actions, pipeline);
  return {
    onMessage: (whatsappId, message) => pipeline.handle(whatsappId, message),
    wantsMedia: (whatsappId, messageId) => isMediaPending(deps, whatsappId, messageId),
    onMedia: async (whatsappId, messageId, outcome) => void settleMedia(deps, whatsappId, messageId, outcome),
    onAck: (whatsappId, messageId, ack) => void updateAck(deps, whatsappId, messageId, ack),
    onRevoked: (whatsappId, messageId) => void markRevoked(deps, whatsappId, messageId),
    onEdit: (whatsappId, edit) => void applyEdit(deps, whatsappId, edit),
    onReaction: (whatsappId, reaction) => void applyReaction(deps, whatsappId, reaction),
    onCall: (whatsappId, call) => calls.handle(whatsappId, call),
    onContacts: (whatsappId, contacts) => {
      savePhonebook(deps.db, whatsappId, contacts);
      linkLids(deps, contacts);
    },
    onSendRejected: (whatsappId, messageId, reason) => markRejected(deps, whatsappId, messageId, reason),
    onHistory: async (whatsappId, messages) => void (await importHistory(deps, whatsappId, messages)),
  };
}
