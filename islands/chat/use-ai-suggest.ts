import { useRef, useState } from "react";
import { sseData } from "../../src/shared/sse";
import { ApiError, apiResponse } from "../lib/api";
import { errorText } from "../lib/errors";
import { useT } from "../lib/i18n-context";
import { toast } from "../lib/toast";

/**
 * "Suggest a reply": the model's suggestion streams into the composer as it is written, for the agent to edit and
 * send (nothing is ever sent by itself). A failure shows a toast and puts back the text that was there.
 */
export function useAiSuggest(ticketId: number, text: string, setText: (value: string) => void) {
  const t = useT();
  const [suggesting, setSuggesting] = useState(false);
  const busy = useRef(false);

  async function suggest() {
    if (busy.current) return;
    busy.current = true;
    setSuggesting(true);
    const before = text;
    try {
      const res = await apiResponse(`/tickets/${ticketId}/ai/suggest`, { method: "POST" });
      if (!res.body) throw new ApiError(502, "ERR_AI_BAD_ANSWER");
      let shown = "";
      for await (const data of sseData(res.body)) {
        const frame = JSON.parse(data) as { text?: string; error?: string };
        if (frame.error) throw new ApiError(502, frame.error);
        if (frame.text) {
          shown += frame.text;
          setText(shown.trimStart());
        }
      }
    } catch (error) {
      setText(before);
      toast("error", errorText(t, error));
    } finally {
      busy.current = false;
      setSuggesting(false);
    }
  }

  return { suggesting, suggest };
}
