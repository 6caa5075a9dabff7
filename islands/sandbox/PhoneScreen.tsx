import { type FormEvent, useEffect, useRef } from "react";
import { clockTime } from "../lib/format";
import { useT } from "../lib/i18n-context";
import { Icon } from "../lib/icons";
import { richText } from "../lib/rich-text";
import { Ack } from "../Bubble";

/** One message on the customer's phone: `in` is what the customer sent, `out` what the connection sent them. */
export interface Line {
  id: string;
  direction: "in" | "out";
  body: string;
  ack?: number;
  createdAt: string;
  mediaType?: string;
  fileName?: string | null;
}

/**
 * The customer's phone screen: the conversation with WhatsApp's formatting and the ticks of what the connection
 * sent, kept scrolled to the end, and the message input.
 */
export function PhoneScreen({
  title,
  peer,
  lines,
  text,
  onText,
  onSend,
  canSend,
  typing = false,
}: {
  title: string;
  peer: string;
  lines: Line[];
  text: string;
  onText: (text: string) => void;
  onSend: (e: FormEvent) => void;
  canSend: boolean;
  /** The connection shows this phone the agent typing. */
  typing?: boolean;
}) {
  const t = useT();
  const list = useRef<HTMLDivElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new line grows the list, which then scrolls to it
  useEffect(() => {
    list.current?.scrollTo({ top: list.current.scrollHeight });
  }, [lines.length]);
  return (
    <section className="phone" aria-label={t("sandbox.phoneTitle")}>
      <header className="phone-header">
        <strong>{title}</strong>
        <span>{typing ? t("chat.presence.typing") : peer}</span>
      </header>
      <div className="messages" ref={list} aria-live="polite">
        {lines.length === 0 && <p className="list-empty">{t("sandbox.empty")}</p>}
        {lines.map((l) => (
          // On the customer's phone their own messages are on the right.
          <div key={l.id} className={`bubble ${l.direction === "in" ? "me" : "them"}`} data-sandbox-id={l.id}>
            <span className="text">{l.body ? richText(l.body) : l.fileName || l.mediaType}</span>
            <span className="meta">
              <time dateTime={l.createdAt}>{clockTime(l.createdAt)}</time>
              {l.direction === "out" && <Ack m={{ ack: l.ack ?? 0, sendState: "sent" }} t={t} />}
            </span>
          </div>
        ))}
      </div>
      <form className="composer" onSubmit={onSend}>
        <textarea
          aria-label={t("sandbox.message")}
          placeholder={t("sandbox.message")}
          rows={1}
          value={text}
          maxLength={4096}
          onChange={(e) => onText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter" && !e.shiftKey) {
              e.preventDefault();
              e.currentTarget.form?.requestSubmit();
            }
          }}
        />
        <button type="submit" className="icon-button send" aria-label={t("chat.send")} disabled={!canSend}>
          <Icon name="send" />
        </button>
      </form>
    </section>
  );
}
