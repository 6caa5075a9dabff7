import { type MutableRefObject, useEffect, useState } from "react";
import type { Message } from "../../src/shared/contracts";
import { ApiError, callApi } from "../lib/api";
import { getBoot } from "../lib/boot";
import { draftOf, keepDraft, saveDraftNow, sentDraft } from "../lib/drafts";
import { errorText } from "../lib/errors";
import { useT } from "../lib/i18n-context";
import { toast } from "../lib/toast";

/** LocalStorage key of the sign-message toggle (persisted locally). */
const SIGN_KEY = "zapdesk.signMessage";

/**
 * The message being written: its text (kept as the ticket's draft), the quoted message, the sign toggle, the
 * private-note toggle, and sending text or files.
 */
export function useComposer(ticketId: number, stickToBottom: MutableRefObject<boolean>) {
  const t = useT();
  const [text, setTyped] = useState("");
  const [replyTo, setReplyTo] = useState<Message | null>(null);
  const [sending, setSending] = useState(false);
  // Read after mount only, so the server HTML and the hydrating client render agree.
  const [sign, setSign] = useState(false);
  const [recording, setRecording] = useState(false);
  // Writing a private note for the team instead of a message to the contact.
  const [note, setNote] = useState(false);
  // Files pasted or dropped, waiting in the preview for a caption and Send.
  const [staged, setStaged] = useState<File[]>([]);
  // A send refused as past the customer's 24-hour window (Cloud API): the chat offers a template instead.
  const [needsTemplate, setNeedsTemplate] = useState(false);

  // The ticket's draft comes back once the chat is on screen (the server's HTML has an empty composer), unless
  // something was typed first; what is not saved yet is saved as the chat closes.
  useEffect(() => {
    let open = true;
    draftOf(ticketId).then(
      (body) => open && body && setTyped((typed) => typed || body),
      () => undefined,
    );
    return () => {
      open = false;
      saveDraftNow(ticketId);
    };
  }, [ticketId]);

  function setText(value: string) {
    setTyped(value);
    keepDraft(ticketId, value);
  }

  useEffect(() => {
    try {
      setSign(localStorage.getItem(SIGN_KEY) === "true");
    } catch {
      // Storage blocked: the toggle just starts off.
    }
  }, []);

  function toggleSign() {
    const next = !sign;
    setSign(next);
    try {
      localStorage.setItem(SIGN_KEY, String(next));
    } catch {
      // Storage blocked: the choice lasts for this page only.
    }
  }

  /** With the sign toggle on, the body starts with the user's name in bold. */
  function signed(body: string) {
    const userName = getBoot()?.user?.name;
    return sign && userName && body ? `*${userName}:*\n${body}` : body;
  }

  /** Files pasted or dropped wait in the preview; a note cannot carry files, so they are refused there. */
  function stage(files: File[]) {
    if (files.length === 0) return;
    if (note) {
      toast("error", t("chat.note.noFiles"));
      return;
    }
    setStaged(files);
  }

  /** Sends the files in the preview with `caption` as their text. */
  async function sendStaged(caption: string) {
    if (await send(staged, caption)) setStaged([]);
  }

  /** Sends the text, or `files` with `caption` (else the text) as their text; true when it went. */
  async function send(files?: FileList | File[] | null, caption?: string): Promise<boolean> {
    const body = (caption ?? text).trim();
    if (!files?.length && !body) return false;
    // Files always go to the contact: never send them while the agent thinks they are writing a note.
    if (note && files?.length) {
      toast("error", t("chat.note.noFiles"));
      return false;
    }
    // The text itself is sent: its draft is removed with it on the server, so no save may follow.
    const sendsText = !files?.length;
    if (sendsText) sentDraft(ticketId);
    setSending(true);
    try {
      if (note) {
        await callApi("POST /messages/:id", {
          params: { id: ticketId },
          body: { body, isPrivate: true, ...(replyTo ? { quotedMsg: { id: replyTo.id } } : {}) },
        });
      } else if (files?.length) {
        const form = new FormData();
        for (const f of files) form.append("medias", f);
        form.append("body", body ? signed(body) : files[0]!.name);
        await callApi("POST /messages/:id", { params: { id: ticketId }, body: form });
      } else {
        await callApi("POST /messages/:id", {
          params: { id: ticketId },
          body: { body: signed(body), ...(replyTo ? { quotedMsg: { id: replyTo.id } } : {}) },
        });
      }
      stickToBottom.current = true;
      if (sendsText) setTyped("");
      // The text went as the files' caption: its draft goes too.
      else if (caption === undefined) setText("");
      setReplyTo(null);
      return true;
    } catch (error) {
      if (sendsText) keepDraft(ticketId, text);
      toast("error", errorText(t, error));
      if (error instanceof ApiError && error.code === "ERR_OUTSIDE_24H_WINDOW") setNeedsTemplate(true);
      return false;
    } finally {
      setSending(false);
    }
  }

  return {
    needsTemplate,
    setNeedsTemplate,
    text,
    setText,
    replyTo,
    setReplyTo,
    sending,
    sign,
    toggleSign,
    note,
    toggleNote: () => setNote((on) => !on),
    recording,
    setRecording,
    send,
    staged,
    stage,
    unstage: () => setStaged([]),
    sendStaged,
  };
}

export type ComposerState = ReturnType<typeof useComposer>;
