import { useCallback, useEffect, useRef, useState } from "react";
import type { TFunction } from "i18next";
import { Icon } from "../lib/icons";
import { toast } from "../lib/toast";

/** A recording under this many bytes is discarded. */
export const MIN_RECORDING_BYTES = 10_000;
/** What the browser records in; the finished recording is re-encoded as mp3 before it is sent. */
const MIME_TYPES = ["audio/ogg;codecs=opus", "audio/webm;codecs=opus"];

function pickMime(): string | undefined {
  return MIME_TYPES.find((m) => typeof MediaRecorder !== "undefined" && MediaRecorder.isTypeSupported(m));
}

const clock = (seconds: number) =>
  `${String(Math.floor(seconds / 60)).padStart(2, "0")}:${String(seconds % 60).padStart(2, "0")}`;

interface Props {
  t: TFunction;
  disabled: boolean;
  onRecordingChange(recording: boolean): void;
  /** Receives the finished recording as mp3, named `audio-record-site-<timestamp>.mp3` so the server sends it as a voice note. */
  onSend(file: File): void;
}

/** The chat input's microphone: records with MediaRecorder, shows a timer with cancel and send. */
export function VoiceRecorder({ t, disabled, onRecordingChange, onSend }: Props) {
  const [seconds, setSeconds] = useState<number | null>(null);
  const recorder = useRef<MediaRecorder | null>(null);
  const keep = useRef(false);
  const handlers = useRef({ onSend, onRecordingChange });
  handlers.current = { onSend, onRecordingChange };

  // One interval per recording (restarted only when recording starts or stops, not every tick).
  const recording = seconds != null;
  useEffect(() => {
    if (!recording) return;
    const id = setInterval(() => setSeconds((s) => (s == null ? s : s + 1)), 1000);
    return () => clearInterval(id);
  }, [recording]);

  // Ends the recording; `onstop` then sends it or, with `send` false, discards it.
  const stop = useCallback((send: boolean) => {
    const rec = recorder.current;
    if (!rec || rec.state === "inactive") return;
    keep.current = send;
    rec.stop();
  }, []);

  // Leaving the chat mid-recording discards it and releases the microphone.
  useEffect(() => () => stop(false), [stop]);

  // The encoder is loaded only here, once a recording is kept, so it never weighs on the page's first load.
  async function finish(recording: Blob) {
    if (recording.size < MIN_RECORDING_BYTES) {
      toast("error", t("chat.record.tooShort"));
      return;
    }
    let mp3: Blob;
    try {
      const { encodeMp3 } = await import("./mp3");
      mp3 = await encodeMp3(recording);
    } catch {
      toast("error", t("chat.record.failed"));
      return;
    }
    if (mp3.size < MIN_RECORDING_BYTES) {
      toast("error", t("chat.record.tooShort"));
      return;
    }
    handlers.current.onSend(new File([mp3], `audio-record-site-${Date.now()}.mp3`, { type: "audio/mpeg" }));
  }

  async function start() {
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch {
      toast("error", t("chat.record.denied"));
      return;
    }
    const mimeType = pickMime();
    const rec = new MediaRecorder(stream, mimeType ? { mimeType } : undefined);
    const chunks: Blob[] = [];
    rec.ondataavailable = (e) => e.data.size && chunks.push(e.data);
    rec.onstop = () => {
      stream.getTracks().forEach((track) => track.stop());
      recorder.current = null;
      setSeconds(null);
      handlers.current.onRecordingChange(false);
      if (!keep.current) return;
      const type = rec.mimeType || mimeType || "audio/webm";
      void finish(new Blob(chunks, { type }));
    };
    recorder.current = rec;
    keep.current = false;
    rec.start();
    setSeconds(0);
    handlers.current.onRecordingChange(true);
  }

  if (seconds == null)
    return (
      <button
        type="button"
        className="icon-button send"
        aria-label={t("chat.record.start")}
        disabled={disabled}
        onClick={() => void start()}
      >
        <Icon name="mic" />
      </button>
    );
  return (
    // biome-ignore lint/a11y/useSemanticElements: the recording's controls, not form fields
    <div className="recorder" role="group" aria-label={t("chat.record.recording")}>
      <button type="button" className="icon-button" aria-label={t("chat.record.cancel")} onClick={() => stop(false)}>
        <Icon name="close" />
      </button>
      <span className="recorder-time" aria-live="off">
        <span className="recorder-dot" aria-hidden="true" />
        {clock(seconds)}
      </span>
      <button type="button" className="icon-button send" aria-label={t("chat.record.send")} onClick={() => stop(true)}>
        <Icon name="send" />
      </button>
    </div>
  );
}
