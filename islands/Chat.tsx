import { TemplateDialog } from "./chat/TemplateDialog";
import { useEffect, useLayoutEffect, useState } from "react";
import { can, isAdmin } from "../src/shared/permissions";
import { ContactDrawer } from "./agent/ContactDrawer";
import { ScheduleModal } from "./agent/ScheduleModal";
import { TagEditor } from "./agent/TagEditor";
import { TransferDialog } from "./agent/TransferDialog";
import { AiSummaryDialog } from "./chat/AiSummaryDialog";
import { ChatHeader, type ChatDialog } from "./chat/ChatHeader";
import { ChatSearch } from "./chat/ChatSearch";
import { Composer } from "./chat/Composer";
import { MessageList } from "./chat/MessageList";
import { NewMessagesPill } from "./chat/NewMessagesPill";
import { type MessagePage, useChatHistory } from "./chat/use-chat-history";
import { useAiSuggest } from "./chat/use-ai-suggest";
import { useAiTranslateReply } from "./chat/use-ai-translate";
import { useComposer } from "./chat/use-composer";
import { useFileDrop } from "./chat/use-file-drop";
import { useCustomerPresence, useTypingPresence } from "./chat/use-presence";
import { useTicketActions } from "./chat/use-ticket-actions";
import { useAiFeatures } from "./lib/ai-features";
import { getBoot } from "./lib/boot";
import { useT } from "./lib/i18n-context";
import { Confirm } from "./lib/modal";
import { useMounted } from "./lib/mounted";
import { Onboarding } from "./lib/onboarding";
import { showChatPane, useOpenTicket } from "./lib/ticket-nav";
import type { OnboardingDto } from "../src/shared/contracts/onboarding";

interface Props {
  ticketId: number;
  userId: number;
  /** The ticket and its latest messages, rendered by the server; fetched after mount when absent. */
  initial?: MessagePage | null;
}

/**
 * The tickets page's chat pane: the chat of the ticket open there (`ticketId` is the one the server rendered,
 * with `initial`), or a welcome note (under the first-run checklist, for admins while it is not done). Opening another ticket switches it in place, fetching that ticket's chat.
 */
export default function ChatPane({
  ticketId: renderedId,
  userId,
  initial,
  onboarding,
}: Omit<Props, "ticketId"> & {
  ticketId: number | null;
  onboarding?: OnboardingDto | null;
}) {
  const t = useT();
  const ticketId = useOpenTicket(renderedId);
  // The server's messages belong to the first ticket shown: once another one opens, coming back fetches afresh.
  const [preloadedId, setPreloadedId] = useState(initial ? renderedId : null);
  useEffect(() => {
    if (ticketId !== preloadedId) setPreloadedId(null);
  }, [ticketId, preloadedId]);
  useLayoutEffect(() => showChatPane(ticketId != null), [ticketId]);

  if (ticketId == null)
    return (
      <div className="chat-welcome">
        {onboarding && <Onboarding initial={onboarding} />}
        <p>{t("tickets.welcome")}</p>
      </div>
    );
  return (
    <Chat key={ticketId} ticketId={ticketId} userId={userId} initial={ticketId === preloadedId ? initial : null} />
  );
}

/** The chat of one ticket: header with actions, paged history, live messages and acks, and the input. */
function Chat({ ticketId, userId, initial }: Props) {
  const t = useT();
  const history = useChatHistory(ticketId, initial);
  const { ticket, setTicket } = history;
  const actions = useTicketActions({ ticketId, userId, ticket, setTicket, leaving: history.leaving });
  const composer = useComposer(ticketId, history.stickToBottom);
  const aiFeatures = useAiFeatures();
  const suggestion = useAiSuggest(ticketId, composer.text, composer.setText);
  const replyTranslation = useAiTranslateReply(ticketId, composer.text, composer.setText);
  const [dialog, setDialog] = useState<ChatDialog | null>(null);
  const [searching, setSearching] = useState(false);
  const mounted = useMounted();
  const canDelete = mounted && can(getBoot()?.user?.profile, "ticket-options:deleteTicket");
  const canSnooze =
    mounted && ticket?.status !== "closed" && (ticket?.userId === userId || isAdmin(getBoot()?.user?.profile));

  const isOpen = ticket?.status === "open";
  const presence = useCustomerPresence(ticketId);
  const mayType = isOpen && mounted && (ticket?.userId === userId || isAdmin(getBoot()?.user?.profile));
  useTypingPresence(ticketId, composer.text, mayType && !composer.note);
  const name = ticket?.contact?.name || ticket?.contact?.number || "";
  const close = () => setDialog(null);
  const { needsTemplate, setNeedsTemplate } = composer;
  useEffect(() => {
    if (!needsTemplate) return;
    setNeedsTemplate(false);
    setDialog("template");
  }, [needsTemplate, setNeedsTemplate]);
  const drop = useFileDrop(isOpen ? composer.stage : null);

  return (
    <section
      className={`chat${drop.over ? " dropping" : ""}`}
      aria-label={name || t("chat.title")}
      data-drop-hint={t("chat.staged.drop")}
      {...drop.handlers}
    >
      <ChatHeader
        ticketId={ticketId}
        ticket={ticket}
        name={name}
        canDelete={canDelete}
        canSnooze={canSnooze}
        onStatus={(status) => void actions.setStatus(status)}
        onSnooze={(until) => void actions.snooze(until)}
        onUnsnooze={() => void actions.unsnooze()}
        onCall={() => void actions.startCall()}
        onDialog={setDialog}
        onSearch={() => setSearching(true)}
        canSummarize={aiFeatures.includes("summary")}
        presence={presence}
      />
      {searching && (
        <ChatSearch
          ticketId={ticketId}
          onFocus={(id) => void history.focusMessage(id)}
          onClose={() => setSearching(false)}
        />
      )}
      {ticket && <TagEditor ticket={ticket} onChange={(tk) => setTicket(() => tk)} />}
      {dialog === "transfer" && ticket && <TransferDialog ticket={ticket} onClose={close} />}
      {dialog === "template" && ticket?.whatsappId != null && (
        <TemplateDialog ticketId={ticketId} whatsappId={ticket.whatsappId} onClose={close} />
      )}
      {dialog === "delete" && (
        <Confirm
          title={t("agent.ticket.deleteTitle", { id: ticketId })}
          text={t("agent.ticket.deleteText")}
          onClose={close}
          onConfirm={() => {
            close();
            void actions.deleteTicket();
          }}
        />
      )}
      {dialog === "summary" && <AiSummaryDialog ticketId={ticketId} onClose={close} />}
      {dialog === "contact" && ticket?.contact && (
        <ContactDrawer
          contactId={ticket.contact.id}
          ticketId={ticket.id}
          userId={userId}
          csat={ticket.csat}
          onClose={close}
        />
      )}
      {dialog === "schedule" && ticket?.contact && (
        <ScheduleModal
          value={null}
          prefill={{
            contact: { id: ticket.contact.id, name },
            body: composer.text,
            ticketId: ticket.id,
            whatsappId: ticket.whatsappId,
          }}
          onClose={close}
          onSaved={() => composer.setText("")}
        />
      )}
      <MessageList
        list={history.list}
        messages={history.messages}
        events={history.events}
        ticketId={ticketId}
        loading={history.loading}
        failed={history.failed}
        onScroll={history.onScroll}
        onReply={composer.setReplyTo}
        onRetry={isOpen ? actions.retry : undefined}
        highlighted={history.focused}
        canReact={mayType}
        canTranslate={aiFeatures.includes("translate")}
      />
      <NewMessagesPill count={history.unseen} onClick={history.scrollToBottom} />
      <Composer
        composer={composer}
        isOpen={isOpen}
        contactName={name}
        canSchedule={!!ticket?.contact}
        onSchedule={() => setDialog("schedule")}
        suggestion={mayType && !composer.note && aiFeatures.includes("suggest") ? suggestion : undefined}
        translation={mayType && !composer.note && aiFeatures.includes("translate") ? replyTranslation : undefined}
      />
    </section>
  );
}
