import type { InboundSink } from "../../channels/types";
import type { AppDeps } from "../../deps";
import { savePhonebook } from "../connections/phonebook";
import { linkLids } from "../contacts/lid";
import { isMediaPending, settleMedia } from "../messages/inbound-media";
import { markRejected } from "../messages/outbox";
import { applyEdit, applyReaction, markRevoked, updateAck } from "../messages/store";
import { relayCustomerPresence } from "../presence/customer";
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
    wantsMedia: async (connectionId, messageId) => await isMediaPending(deps, connectionId, messageId),
    onMedia: async (connectionId, messageId, outcome) =>
      void (await settleMedia(deps, connectionId, messageId, outcome)),
    onAck: async (connectionId, messageId, ack) => void (await updateAck(deps, connectionId, messageId, ack)),
    onRevoked: async (connectionId, messageId) => void (await markRevoked(deps, connectionId, messageId)),
    onEdit: async (connectionId, edit) => void (await applyEdit(deps, connectionId, edit)),
    onReaction: async (connectionId, reaction) => void (await applyReaction(deps, connectionId, reaction)),
    onCall: (connectionId, call) => calls.handle(connectionId, call),
    onContacts: async (connectionId, contacts) => {
      await savePhonebook(deps.db, connectionId, contacts);
      await linkLids(deps, contacts);
    },
    onSendRejected: async (connectionId, messageId, reason) =>
      await markRejected(deps, connectionId, messageId, reason),
    onPresence: async (connectionId, presence) => await relayCustomerPresence(deps, connectionId, presence),
    onHistory: async (connectionId, messages) => void (await importHistory(deps, connectionId, messages)),
  };
}
