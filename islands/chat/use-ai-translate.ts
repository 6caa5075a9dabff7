import { useEffect, useRef, useState } from "react";
import { callApi } from "../lib/api";
import { errorText } from "../lib/errors";
import { useT } from "../lib/i18n-context";
import { toast } from "../lib/toast";

/**
 * "Translate into the customer's language": the draft in the composer is replaced by its translation for the agent
 * to check and send. Once a text goes after a translation, its original is kept as a private note beside it;
 * clearing the composer forgets it. A failure shows a toast and leaves the draft.
 */
export function useAiTranslateReply(ticketId: number, text: string, setText: (value: string) => void) {
  const t = useT();
  const [translating, setTranslating] = useState(false);
  const original = useRef<string | null>(null);

  useEffect(() => {
    if (!text.trim()) original.current = null;
  }, [text]);

  async function translate() {
    const draft = text.trim();
    if (!draft || translating) return;
    setTranslating(true);
    try {
      const translated = await callApi("POST /tickets/:id/ai/translate-reply", {
        params: { id: ticketId },
        body: { text: draft },
      });
      original.current ??= draft;
      setText(translated.text);
    } catch (error) {
      toast("error", errorText(t, error));
    } finally {
      setTranslating(false);
    }
  }

  /** The original of the translation in the composer, if it holds one (read before sending it). */
  const pendingOriginal = () => original.current;

  /** Keeps the original of a translated text that went, as a note. */
  async function keepOriginal(kept: string) {
    original.current = null;
    try {
      await callApi("POST /messages/:id", {
        params: { id: ticketId },
        body: { body: `${t("chat.ai.originalNote")}\n${kept}`, isPrivate: true },
      });
    } catch (error) {
      toast("error", errorText(t, error));
    }
  }

  return { translating, translate, pendingOriginal, keepOriginal };
}
