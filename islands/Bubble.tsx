import type { TFunction } from "i18next";
import { type ReactNode, useState } from "react";
import { clockTime } from "./lib/format";
import { Icon } from "./lib/icons";
import { usePopover } from "./lib/popover";
import { richText } from "./lib/rich-text";
import type { Message } from "../src/shared/contracts";
import { LocationCard, VcardCard } from "./chat/BubbleCards";
import { Media, MediaState } from "./chat/BubbleMedia";
import type { Enlarged } from "./chat/Lightbox";
import { isForwardable } from "./chat/ForwardDialog";
import { QuickReactions, ReactMenu } from "./chat/ReactMenu";
import { useLongPress } from "./chat/use-long-press";

/** A message's ticks (clock, sent, delivered, read), also shown on the sandbox's phone. */
export function Ack({ m, t }: { m: Pick<Message, "ack" | "sendState">; t: TFunction }) {
  const { ack } = m;
  if (m.sendState === "queued" || m.sendState === "sending")
    return (
      <span className="ack" title={t("chat.ack.queued")}>
        <Icon name="clock" size={14} />
      </span>
    );
  if (ack <= 0)
    return (
      <span className="ack" title={t("chat.ack.pending")}>
        <Icon name="clock" size={14} />
      </span>
    );
  if (ack <= 2)
    return (
      <span className="ack" title={t("chat.ack.sent")}>
        <Icon name="check" size={14} />
      </span>
    );
  if (ack === 3)
    return (
      <span className="ack" title={t("chat.ack.delivered")}>
        <Icon name="doneAll" size={14} />
      </span>
    );
  return (
    <span className="ack read" title={t("chat.ack.read")}>
      <Icon name="doneAll" size={14} />
    </span>
  );
}

/** The reactions under a bubble: each emoji once, with how many reacted with it. */
function Reactions({ reactions, t }: { reactions: NonNullable<Message["reactions"]>; t: TFunction }) {
  const counts = new Map<string, number>();
  for (const r of reactions) counts.set(r.emoji, (counts.get(r.emoji) ?? 0) + 1);
  return (
    // biome-ignore lint/a11y/useSemanticElements: the emoji counts under a bubble, not form fields
    <span className="reactions" role="group" aria-label={t("chat.reactions")}>
      {[...counts].map(([emoji, n]) => (
        <span key={emoji} className="reaction">
          {emoji}
          {n > 1 && <small>{n}</small>}
        </span>
      ))}
    </span>
  );
}

/** Why a send failed, from its error code (translated like the toasts). */
function failureText(m: Message, t: TFunction): string {
  const reason = t(`errors.${m.sendError ?? "ERR_SENDING_WAPP_MSG"}`, {
    defaultValue: t("errors.ERR_SENDING_WAPP_MSG"),
  });
  return t("chat.ack.failed", { reason });
}

/** A failed send: the red mark (its reason as tooltip) and the button that sends it again. */
function SendFailed({ m, t, onRetry }: { m: Message; t: TFunction; onRetry?: (m: Message) => Promise<void> }) {
  const [busy, setBusy] = useState(false);
  const text = failureText(m, t);
  return (
    <>
      <span className="ack failed" role="img" aria-label={text} title={text}>
        <Icon name="error" size={14} />
      </span>
      {onRetry && (
        <button
          type="button"
          className="retry-button"
          title={text}
          disabled={busy}
          onClick={() => {
            setBusy(true);
            void onRetry(m).finally(() => setBusy(false));
          }}
        >
          <Icon name="retry" size={14} /> {t("chat.retry")}
        </button>
      )}
    </>
  );
}

const MEDIA_KINDS = new Set(["image", "audio", "video", "document", "application", "sticker"]);
/** Kinds whose body is a stand-in rather than a caption the sender wrote. */
const NO_CAPTION = new Set(["audio", "sticker"]);

/**
 * The caption a media message carries, if any. A document's body is its caption, or else its file name (sent from
 * here) or its title, the file name without its extension (received): those are no caption.
 */
export function captionOf(m: Pick<Message, "body" | "mediaType" | "fileName">): string | null {
  if (!m.body || NO_CAPTION.has(m.mediaType) || m.body.startsWith("data:")) return null;
  const name = m.fileName ?? "";
  if (m.body === name || (name && m.body === name.replace(/\.[^.]*$/, ""))) return null;
  return m.body;
}

/**
 * One message bubble: own on the right, contact's on the left; text is rendered as text only. A private note is
 * marked as such, with its author, and has no delivery ticks (it is never sent).
 */
export function Bubble({
  m,
  t,
  onReply,
  onRetry,
  onEnlarge,
  onDelete,
  onForward,
  onReact,
  selected,
  onSelect,
  showTime = true,
  highlighted = false,
  onTranslate,
  translation,
}: {
  m: Message;
  t: TFunction;
  onReply: (m: Message) => void;
  onRetry?: (m: Message) => Promise<void>;
  onEnlarge?: (media: Enlarged) => void;
  /** Offered on the user's own messages. */
  onDelete?: (m: Message) => void;
  onForward?: (m: Message) => void;
  /** Offered on the contact's messages while the user may send on their ticket. */
  onReact?: (m: Message, emoji: string) => void;
  /** While messages are being picked to forward: whether this one is, and how to pick it or leave it out. */
  selected?: boolean;
  onSelect?: (m: Message) => void;
  /** Times are in the browser's time zone, so a server-rendered bubble leaves them out until it is mounted. */
  showTime?: boolean;
  /** The search hit the user is on. */
  highlighted?: boolean;
  /** Offered on the contact's texts while AI translation is on. */
  onTranslate?: (m: Message) => void;
  /** The text's translation, once asked for ("…" while it is being made). */
  translation?: string;
}) {
  const time = showTime ? clockTime(m.createdAt) : "";
  let content: ReactNode;
  if (m.isDeleted) {
    content = (
      <span className="deleted">
        <Icon name="block" size={16} /> {t("chat.deleted")}
      </span>
    );
  } else if (m.mediaType === "vcard") {
    content = <VcardCard body={m.body} t={t} />;
  } else if (m.mediaType === "location") {
    content = <LocationCard body={m.body} t={t} />;
  } else if (m.mediaType === "waiting") {
    content = (
      <span className="waiting">
        <Icon name="clock" size={16} /> {t("chat.waiting")}
      </span>
    );
  } else if (m.mediaType === "call_log") {
    content = <span className="call">{t("chat.missedCall", { time })}</span>;
  } else if (m.mediaUrl || m.mediaState || MEDIA_KINDS.has(m.mediaType)) {
    content = (
      <>
        {m.mediaState ? <MediaState m={m} t={t} /> : <Media m={m} t={t} onEnlarge={onEnlarge} />}
        {captionOf(m) && <span className="text">{richText(m.body)}</span>}
      </>
    );
  } else {
    content = <span className="text">{richText(m.body)}</span>;
  }
  const sticker = m.mediaType === "sticker" && !m.isDeleted && !m.mediaState;
  const canReply = !m.isDeleted && !m.isPrivate;
  const canDelete = !m.isDeleted && m.fromMe && !!onDelete;
  const canForward = !!onForward && isForwardable(m);
  const canReact = !!onReact && !m.fromMe && !m.isDeleted && !m.isPrivate;
  const canTranslate = !!onTranslate && !m.fromMe && !m.isDeleted && !!m.body.trim() && translation === undefined;
  // On a touch screen the actions have no buttons of their own: a long press opens them as a menu.
  const actions = usePopover();
  const longPress = useLongPress(
    () => (canReply || canDelete || canForward || canReact || canTranslate) && actions.setOpen(true),
  );
  const act = (run: () => void) => () => {
    actions.setOpen(false);
    run();
  };
  return (
    <div
      ref={actions.root}
      className={`bubble ${m.fromMe ? "me" : "them"}${m.isPrivate ? " note" : ""}${sticker ? " sticker" : ""}${highlighted ? " search-hit" : ""}`}
      data-message-id={m.id}
      {...longPress}
    >
      {onSelect && isForwardable(m) && (
        <input
          type="checkbox"
          className="select-box"
          aria-label={t("chat.forward.select")}
          checked={!!selected}
          onChange={() => onSelect(m)}
        />
      )}
      {m.isPrivate && (
        <span className="note-label">
          <Icon name="lock" size={14} /> {t("chat.note.title")}
          {m.senderName && ` · ${m.senderName}`}
        </span>
      )}
      {m.quotedMsg && (
        <div className={`quote ${m.quotedMsg.fromMe ? "me" : "them"}`}>
          <strong>{m.quotedMsg.fromMe ? t("chat.you") : (m.quotedMsg.contact?.name ?? "")}</strong>
          <span>{m.quotedMsg.body}</span>
        </div>
      )}
      {content}
      {translation !== undefined && (
        <span className="translation">
          <Icon name="translate" size={14} /> {translation || t("chat.ai.translating")}
        </span>
      )}
      <span className="meta">
        {m.isEdited && !m.isDeleted && <span className="edited">{t("chat.edited")}</span>}
        <time dateTime={m.createdAt}>{time}</time>
        {m.fromMe &&
          !m.isPrivate &&
          !m.isDeleted &&
          (m.sendState === "failed" ? <SendFailed m={m} t={t} onRetry={onRetry} /> : <Ack m={m} t={t} />)}
      </span>
      {!m.isDeleted && !!m.reactions?.length && <Reactions reactions={m.reactions} t={t} />}
      {canReply && (
        <button type="button" className="reply-button" aria-label={t("chat.reply")} onClick={() => onReply(m)}>
          <Icon name="reply" size={16} />
        </button>
      )}
      {canForward && (
        <button
          type="button"
          className="forward-button"
          aria-label={t("chat.forward.open")}
          onClick={() => onForward?.(m)}
        >
          <Icon name="forward" size={16} />
        </button>
      )}
      {canReact && <ReactMenu m={m} t={t} onReact={onReact!} />}
      {canTranslate && (
        <button
          type="button"
          className="translate-button"
          aria-label={t("chat.ai.translate")}
          onClick={() => onTranslate?.(m)}
        >
          <Icon name="translate" size={16} />
        </button>
      )}
      {canDelete && (
        <button type="button" className="delete-button" aria-label={t("chat.delete")} onClick={() => onDelete?.(m)}>
          <Icon name="trash" size={16} />
        </button>
      )}
      {actions.open && (
        <div className="menu bubble-menu" role="menu">
          {canReact && <QuickReactions m={m} t={t} onPick={(emoji) => act(() => onReact?.(m, emoji))()} />}
          {canReply && (
            <button type="button" role="menuitem" onClick={act(() => onReply(m))}>
              {t("chat.reply")}
            </button>
          )}
          {!m.isDeleted && m.body && !m.mediaUrl && (
            <button type="button" role="menuitem" onClick={act(() => void navigator.clipboard?.writeText(m.body))}>
              {t("chat.copy")}
            </button>
          )}
          {canTranslate && (
            <button type="button" role="menuitem" onClick={act(() => onTranslate?.(m))}>
              {t("chat.ai.translate")}
            </button>
          )}
          {canForward && (
            <button type="button" role="menuitem" onClick={act(() => onForward?.(m))}>
              {t("chat.forward.open")}
            </button>
          )}
          {canDelete && (
            <button type="button" role="menuitem" onClick={act(() => onDelete?.(m))}>
              {t("chat.delete")}
            </button>
          )}
        </div>
      )}
    </div>
  );
}
