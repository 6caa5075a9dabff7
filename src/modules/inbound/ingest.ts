import type { InboundSink } from "../../channels/types";
import type { AppDeps } from "../../deps";
import { savePhonebook } from "../connections/phonebook";
import { linkLids } from "../contacts/lid";
import { isMediaPending, settleMedia } from "../messages/inbound-media";
import { markRejected } from "../messages/outbox";
import { applyEdit, applyReaction, markRevoked, updateAck } from "../messages/store";
import { botActions } from "./actions";
import { CallHandler } from "./calls";
import { importHistory } from "./history";
import { InboundPipeline } from "./pipeline";

/** The sink drivers report to (besides statuses): the inbound pipeline and the calls rule. */
export function createIngest(deps: AppDeps): InboundSink {
  const actions = botActions(deps);
  const pipeline = new InboundPipeline(deps, actions);
  const calls = new CallHandler(deps, actions, pipeline);
  return {
    onMessage: (connectionId, message) => pipeline.handle(connectionId, message),
    wantsMedia: (connectionId, messageId) => isMediaPending(deps, connectionId, messageId),
    onMedia: async (connectionId, messageId, outcome) => void settleMedia(deps, connectionId, messageId, outcome),
    onAck: (connectionId, messageId, ack) => void updateAck(deps, connectionId, messageId, ack),
    onRevoked: (connectionId, messageId) => void markRevoked(deps, connectionId, messageId),
    onEdit: (connectionId, edit) => void applyEdit(deps, connectionId, edit),
    onReaction: (connectionId, reaction) => void applyReaction(deps, connectionId, reaction),
    onCall: (connectionId, call) => calls.handle(connectionId, call),
    onContacts: (connectionId, contacts) => {
      savePhonebook(deps.db, connectionId, contacts);
      linkLids(deps, contacts);
    },
    onSendRejected: (connectionId, messageId, reason) => markRejected(deps, connectionId, messageId, reason),
    onHistory: async (connectionId, messages) => void (await importHistory(deps, connectionId, messages)),
  };
}
