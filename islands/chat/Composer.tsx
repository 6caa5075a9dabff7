import { type ClipboardEvent, type KeyboardEvent, useId, useLayoutEffect, useRef } from "react";
import { QuickAnswerPicker, useQuickAnswers } from "../agent/QuickAnswerPicker";
import { VoiceRecorder } from "../agent/VoiceRecorder";
import { useT } from "../lib/i18n-context";
import { Icon, type IconName } from "../lib/icons";
import { MenuButton } from "../lib/menu-button";
import { AttachmentPreview } from "./AttachmentPreview";
import { EmojiPicker } from "./EmojiPicker";
import type { useAiSuggest } from "./use-ai-suggest";
import type { useAiTranslateReply } from "./use-ai-translate";
import type { ComposerState } from "./use-composer";

type AiSuggestion = ReturnType<typeof useAiSuggest>;
type AiTranslation = ReturnType<typeof useAiTranslateReply>;

const MAX_ROWS = 5;

/**
 * The reply preview and the input row: attach, sign, private note, text with quick answers, send later, voice or
 * send. With the private-note toggle on, the row takes the note style and sending saves a note for the team.
 */
export function Composer({
  composer,
  isOpen,
  contactName,
  canSchedule,
  onSchedule,
  suggestion,
  translation,
}: {
  composer: ComposerState;
  isOpen: boolean;
  contactName: string;
  canSchedule: boolean;
  onSchedule: () => void;
  /** "Suggest a reply" with AI, where it is on and the agent may send (Alt+I in the text). */
  suggestion?: AiSuggestion;
  /** "Translate into the customer's language" with AI, where it is on and the agent may send. */
  translation?: AiTranslation;
}) {
  const t = useT();
  const { text, setText, replyTo, setReplyTo, sending, sign, toggleSign, recording, setRecording, send } = composer;
  const { note, toggleNote } = composer;
  const fileInput = useRef<HTMLInputElement>(null);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const quick = useQuickAnswers(isOpen ? text : "", (message) => {
    setText(message);
    textarea.current?.focus();
  });
  const pickerId = useId();

  // The input grows with its content (wrapped lines too) up to MAX_ROWS rows, then scrolls. The stylesheet does it
  // where the browser sizes fields by their content; elsewhere it is measured here, once the chat is on screen
  // (a hidden pane measures nothing), never below the stylesheet's minimum height.
  // biome-ignore lint/correctness/useExhaustiveDependencies: measures the DOM, which changes with `text`
  useLayoutEffect(() => {
    const el = textarea.current;
    if (!el || el.clientWidth === 0 || CSS.supports("field-sizing", "content")) return;
    const style = getComputedStyle(el);
    const line = parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.2;
    const padding = parseFloat(style.paddingTop) + parseFloat(style.paddingBottom);
    const border = parseFloat(style.borderTopWidth) + parseFloat(style.borderBottomWidth);
    const inner = (px: number) => (style.boxSizing === "border-box" ? px + padding + border : px);
    el.style.height = "auto";
    const content = el.scrollHeight - padding;
    el.style.height = `${inner(Math.min(content, line * MAX_ROWS))}px`;
    el.style.overflowY = content > line * MAX_ROWS + 1 ? "auto" : "hidden";
  }, [text]);

  /** Where the caret goes once an inserted emoji is in the text. */
  const caret = useRef<number | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the caret is placed once the new `text` is rendered
  useLayoutEffect(() => {
    const el = textarea.current;
    if (caret.current == null || !el) return;
    el.focus();
    el.setSelectionRange(caret.current, caret.current);
    caret.current = null;
  }, [text]);

  function insertAtCaret(emoji: string) {
    const el = textarea.current;
    const start = el?.selectionStart ?? text.length;
    const end = el?.selectionEnd ?? text.length;
    caret.current = start + emoji.length;
    setText(text.slice(0, start) + emoji + text.slice(end));
  }

  function onKey(e: KeyboardEvent<HTMLTextAreaElement>) {
    if (quick.onKeyDown(e)) return;
    if (suggestion && e.altKey && e.code === "KeyI") {
      e.preventDefault();
      void suggestion.suggest();
      return;
    }
    if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void sendText();
    }
  }

  /** Sends the text; the original of a translated one is kept as a note once it went. */
  async function sendText() {
    const original = translation?.pendingOriginal();
    if ((await send()) && original) await translation?.keepOriginal(original);
  }

  // A pasted image (or any file) waits in the preview for a caption; pasted text goes in as usual.
  function onPaste(e: ClipboardEvent<HTMLTextAreaElement>) {
    const files = Array.from(e.clipboardData?.files ?? []);
    if (files.length === 0) return;
    e.preventDefault();
    composer.stage(files);
  }

  return (
    <>
      {composer.staged.length > 0 && (
        <AttachmentPreview
          files={composer.staged}
          sending={sending}
          onSend={(caption) => void composer.sendStaged(caption)}
          onCancel={() => {
            composer.unstage();
            textarea.current?.focus();
          }}
        />
      )}
      {replyTo && (
        <div className="reply-preview">
          <div className="quote">
            <strong>{replyTo.fromMe ? t("chat.you") : contactName}</strong>
            <span>{replyTo.body}</span>
          </div>
          <button
            type="button"
            className="icon-button"
            aria-label={t("chat.cancelReply")}
            onClick={() => setReplyTo(null)}
          >
            <Icon name="close" size={18} />
          </button>
        </div>
      )}
      {note && (
        <p className="note-hint">
          <Icon name="lock" size={16} /> {t("chat.note.hint")}
        </p>
      )}
      <form
        className={`composer${note ? " note" : ""}`}
        onSubmit={(e) => {
          e.preventDefault();
          void sendText();
        }}
      >
        <input
          ref={fileInput}
          type="file"
          hidden
          multiple
          onChange={(e) => {
            composer.stage(Array.from(e.target.files ?? []));
            e.target.value = "";
          }}
        />
        <button
          type="button"
          className={`icon-button sign${sign ? " on" : ""}`}
          aria-label={t("chat.sign")}
          title={t("chat.sign")}
          aria-pressed={sign}
          onClick={toggleSign}
        >
          <Icon name="sign" />
        </button>
        <button
          type="button"
          className={`icon-button note-toggle${note ? " on" : ""}`}
          aria-label={t("chat.note.title")}
          title={t("chat.note.title")}
          aria-pressed={note}
          disabled={recording}
          onClick={toggleNote}
        >
          <Icon name="lock" />
        </button>
        <ComposerMenu
          sign={sign}
          note={note}
          canSchedule={canSchedule && !recording}
          onSign={toggleSign}
          onNote={recording ? undefined : toggleNote}
          onSchedule={onSchedule}
        />
        {/* Emoji and attach sit inside the field, as on WhatsApp, so a phone keeps its width for the text. */}
        <div className="composer-field">
          <EmojiPicker disabled={!isOpen || recording} onPick={insertAtCaret} />
          <textarea
            ref={textarea}
            aria-label={note ? t("chat.note.placeholder") : t("chat.placeholder")}
            placeholder={
              !isOpen ? t("chat.closedPlaceholder") : note ? t("chat.note.placeholder") : t("chat.placeholder")
            }
            rows={1}
            value={text}
            maxLength={4096}
            disabled={!isOpen || recording}
            readOnly={suggestion?.suggesting}
            onChange={(e) => setText(e.target.value)}
            onKeyDown={onKey}
            onPaste={onPaste}
            aria-autocomplete="list"
            aria-controls={quick.items.length > 0 ? pickerId : undefined}
            aria-activedescendant={quick.items.length > 0 ? `${pickerId}-${quick.highlighted}` : undefined}
          />
          <button
            type="button"
            className="icon-button"
            aria-label={t("chat.attach")}
            disabled={!isOpen || sending || note}
            onClick={() => fileInput.current?.click()}
          >
            <Icon name="attach" />
          </button>
          {suggestion && (
            <AiButton
              icon="sparkle"
              label={t("chat.ai.suggest")}
              title={`${t("chat.ai.suggest")} (Alt+I)`}
              busyLabel={t("chat.ai.suggesting")}
              busy={suggestion.suggesting}
              disabled={!isOpen || sending || recording}
              onClick={() => void suggestion.suggest()}
            />
          )}
          {translation && (
            <AiButton
              icon="translate"
              label={t("chat.ai.translateReply")}
              busyLabel={t("chat.ai.translating")}
              busy={translation.translating}
              disabled={!isOpen || sending || recording || !text.trim()}
              onClick={() => void translation.translate()}
            />
          )}
        </div>
        <QuickAnswerPicker list={quick} id={pickerId} />
        <button
          type="button"
          className="icon-button send-later"
          aria-label={t("chat.sendLater")}
          title={t("chat.sendLater")}
          disabled={!canSchedule || recording}
          onClick={onSchedule}
        >
          <Icon name="clock" />
        </button>
        {isOpen && !note && (recording || !text.trim()) ? (
          <VoiceRecorder
            t={t}
            disabled={sending}
            onRecordingChange={setRecording}
            onSend={(file) => void send([file])}
          />
        ) : (
          <button
            type="submit"
            className="icon-button send"
            aria-label={note ? t("chat.note.save") : t("chat.send")}
            disabled={!isOpen || sending || !text.trim()}
          >
            <Icon name="send" />
          </button>
        )}
      </form>
    </>
  );
}

/**
 * On a phone the sign, private-note and send-later buttons fold into one menu beside the field (the stylesheet
 * shows either the buttons or this menu).
 */
function ComposerMenu({
  sign,
  note,
  canSchedule,
  onSign,
  onNote,
  onSchedule,
}: {
  sign: boolean;
  note: boolean;
  canSchedule: boolean;
  onSign: () => void;
  /** Absent while the toggle is unavailable (a voice message is being recorded). */
  onNote?: () => void;
  onSchedule: () => void;
}) {
  const t = useT();
  return (
    <MenuButton
      className="composer-more"
      buttonClassName={`icon-button${note ? " on" : ""}`}
      label={t("chat.composerMore")}
      haspopup="menu"
      button={<Icon name={note ? "lock" : "more"} />}
      menuRole="menu"
      menu={(close) => (
        <>
          <button type="button" role="menuitemcheckbox" aria-checked={sign} onClick={() => (close(), onSign())}>
            {t("chat.sign")}
          </button>
          <button
            type="button"
            role="menuitemcheckbox"
            aria-checked={note}
            disabled={!onNote}
            onClick={() => (close(), onNote?.())}
          >
            {t("chat.note.title")}
          </button>
          <button type="button" role="menuitem" disabled={!canSchedule} onClick={() => (close(), onSchedule())}>
            {t("chat.sendLater")}
          </button>
        </>
      )}
    />
  );
}

/** An AI action of the composer: its icon, lit and labelled as busy while its answer comes. */
function AiButton({
  icon,
  label,
  title = label,
  busyLabel,
  busy,
  disabled,
  onClick,
}: {
  icon: IconName;
  label: string;
  title?: string;
  busyLabel: string;
  busy: boolean;
  disabled: boolean;
  onClick: () => void;
}) {
  return (
    <button
      type="button"
      className={`icon-button ai-action${busy ? " on" : ""}`}
      aria-label={busy ? busyLabel : label}
      title={title}
      aria-busy={busy}
      disabled={disabled || busy}
      onClick={onClick}
    >
      <Icon name={icon} />
    </button>
  );
}
