import type {
  CallEvent,
  ChannelSink,
  ConnectionStatus,
  MediaOutcome,
  MessageEdit,
  NormalizedContact,
  NormalizedMessage,
  PresenceUpdate,
  Reaction,
  StatusInfo,
} from "../../../src/channels/types";

/** Records everything a driver reports; `until` waits for a condition re-checked on every report. */
export class RecordingSink implements ChannelSink {
  statuses: { status: ConnectionStatus; info?: StatusInfo }[] = [];
  messages: NormalizedMessage[] = [];
  /** How each pending media download ended, by message id. */
  media = new Map<string, MediaOutcome>();
  acks: { id: string; ack: number }[] = [];
  revoked: string[] = [];
  edits: MessageEdit[] = [];
  reactions: Reaction[] = [];
  calls: CallEvent[] = [];
  contacts: NormalizedContact[] = [];
  rejections: { id: string; reason?: string }[] = [];
  history: NormalizedMessage[] = [];
  presences: PresenceUpdate[] = [];
  private waiters: (() => void)[] = [];
  async onStatus(_id: number, status: ConnectionStatus, info?: StatusInfo) {
    this.statuses.push({ status, info });
    this.poke();
  }
  async onMessage(_id: number, m: NormalizedMessage) {
    this.messages.push(m);
    this.poke();
  }
  async wantsMedia(_id: number, messageId: string) {
    return this.messages.some((m) => m.id === messageId && m.mediaPending) && !this.media.has(messageId);
  }
  async onMedia(_id: number, messageId: string, outcome: MediaOutcome) {
    this.media.set(messageId, outcome);
    this.poke();
  }
  async onAck(_id: number, id: string, ack: number) {
    this.acks.push({ id, ack });
    this.poke();
  }
  async onRevoked(_id: number, id: string) {
    this.revoked.push(id);
    this.poke();
  }
  async onEdit(_id: number, edit: MessageEdit) {
    this.edits.push(edit);
    this.poke();
  }
  async onReaction(_id: number, reaction: Reaction) {
    this.reactions.push(reaction);
    this.poke();
  }
  async onCall(_id: number, call: CallEvent) {
    this.calls.push(call);
    this.poke();
  }
  async onContacts(_id: number, c: NormalizedContact[]) {
    this.contacts.push(...c);
    this.poke();
  }
  async onSendRejected(_id: number, id: string, reason?: string) {
    this.rejections.push({ id, reason });
    this.poke();
  }
  async onHistory(_id: number, messages: NormalizedMessage[]) {
    this.history.push(...messages);
    this.poke();
  }
  async onPresence(_id: number, presence: PresenceUpdate) {
    this.presences.push(presence);
    this.poke();
  }
  private poke() {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }
  /** Waits until `check` holds (re-checked on every sink event). */
  async until<T>(check: () => T | undefined | false, timeoutMs = 8000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const v = check();
      if (v) return v;
      if (Date.now() > deadline)
        throw new Error(`timed out; statuses: ${this.statuses.map((s) => s.status).join(",")}`);
      await new Promise<void>((r) => {
        this.waiters.push(r);
        setTimeout(r, 50);
      });
    }
  }
  lastStatus() {
    return this.statuses.at(-1);
  }
}
