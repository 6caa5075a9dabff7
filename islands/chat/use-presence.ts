import { useEffect, useRef, useState } from "react";
import { type ChatPresence, COMPOSING_EVERY_MS } from "../../src/shared/contracts/presence";
import { callApi } from "../lib/api";
import { useLive } from "../lib/live";

/** WhatsApp stops showing "typing…" by itself after about this long without news. */
const TYPING_SHOWN_MS = 25_000;
/** How often an open chat asks again for the customer's presence. */
const RESUBSCRIBE_MS = 60_000;
/** Typing stops counting after this long without a keystroke. */
const IDLE_MS = 10_000;

const tell = (ticketId: number, state: "viewing" | "composing" | "paused") =>
  // Presence is best effort: a refusal or a connection that is down changes nothing for the agent.
  callApi("POST /tickets/:id/presence", { params: { id: ticketId }, body: { state } }).catch(() => undefined);

/**
 * The customer's presence in the open chat: what the `presence` event last said, typing and recording fading
 * back to online as WhatsApp's own indicator does. The open chat asks the network for it, now and every minute.
 */
export function useCustomerPresence(ticketId: number): ChatPresence | null {
  const [state, setState] = useState<ChatPresence | null>(null);
  useEffect(() => {
    void tell(ticketId, "viewing");
    // WhatsApp ends a presence subscription after a while, and a reconnect forgets it: the open chat renews it.
    const renew = setInterval(() => void tell(ticketId, "viewing"), RESUBSCRIBE_MS);
    return () => clearInterval(renew);
  }, [ticketId]);
  useLive(["presence"], (p) => {
    if (p.ticketId === ticketId) setState(p.state);
  });
  useEffect(() => {
    if (state !== "composing" && state !== "recording") return;
    const timer = setTimeout(() => setState("available"), TYPING_SHOWN_MS);
    return () => clearTimeout(timer);
  }, [state]);
  return state;
}

/**
 * Shows the customer the agent typing while `text` changes (`active`: a message to the customer, on a ticket
 * the agent may send on): one `composing` every few seconds at most, `paused` once the text is sent or
 * emptied, after 10 s without typing, or when the chat closes.
 */
export function useTypingPresence(ticketId: number, text: string, active: boolean) {
  const typing = useRef({ on: false, since: 0, idle: undefined as ReturnType<typeof setTimeout> | undefined });
  const stop = useRef(() => {});
  stop.current = () => {
    const s = typing.current;
    clearTimeout(s.idle);
    if (!s.on) return;
    s.on = false;
    void tell(ticketId, "paused");
  };
  useEffect(() => {
    const s = typing.current;
    if (!active || !text.trim()) return stop.current();
    const now = Date.now();
    if (!s.on || now - s.since >= COMPOSING_EVERY_MS) {
      s.on = true;
      s.since = now;
      void tell(ticketId, "composing");
    }
    clearTimeout(s.idle);
    s.idle = setTimeout(() => stop.current(), IDLE_MS);
  }, [ticketId, text, active]);
  useEffect(() => () => stop.current(), []);
}
