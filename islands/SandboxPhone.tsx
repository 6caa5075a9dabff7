import { useCallback, useEffect, useRef, useState, type FormEvent } from "react";
import type { Connection as SharedConnection } from "../src/shared/contracts";
import { COMPOSING_EVERY_MS } from "../src/shared/contracts/presence";
import { api, callApi } from "./lib/api";
import { errorText } from "./lib/errors";
import { Checkbox } from "./lib/form";
import { useT } from "./lib/i18n-context";
import { on } from "./lib/socket";
import { toast } from "./lib/toast";
import { type Line, PhoneScreen } from "./sandbox/PhoneScreen";

type Connection = Pick<SharedConnection, "id" | "name" | "status" | "qrcode" | "provider">;

/**
 * /sandbox: plays the customer's phone on a sandbox connection — pair it, chat both ways, watch acks. With a
 * LID, the customer can show WhatsApp only that LID, and the number can be told to the connection later.
 */
export default function SandboxPhone() {
  const t = useT();
  const [connections, setConnections] = useState<Connection[]>([]);
  const [selected, setSelected] = useState<number | null>(null);
  const [phone, setPhone] = useState("5511999990000");
  const [name, setName] = useState("");
  const [lid, setLid] = useState("");
  const [lidOnly, setLidOnly] = useState(false);
  const [text, setText] = useState("");
  const [sent, setSent] = useState<Line[]>([]);
  const [outbox, setOutbox] = useState<Line[]>([]);
  // What the connection shows this phone: the agent typing (`composing`) or not.
  const [shown, setShown] = useState<string | null>(null);
  const lastTyping = useRef(0);

  const loadConnections = useCallback(async () => {
    try {
      const rows = await api<Connection[]>("/whatsapp");
      const sandbox = rows.filter((c) => !c.provider || c.provider === "sandbox");
      setConnections(sandbox);
      setSelected((cur) => cur ?? sandbox[0]?.id ?? null);
    } catch (error) {
      toast("error", errorText(t, error));
    }
  }, [t]);

  useEffect(() => {
    void loadConnections();
    const offA = on("whatsappSession", () => void loadConnections());
    const offB = on("whatsapp", () => void loadConnections());
    return () => {
      offA();
      offB();
    };
  }, [loadConnections]);

  const validPhone = /^\d{8,20}$/.test(phone);
  const validLid = /^\d{1,20}$/.test(lid);
  // Who the connection sees: the phone number, or only the LID.
  const peer = lidOnly && validLid ? `lid:${lid}` : phone;
  const validPeer = lidOnly ? validLid : validPhone;
  useEffect(() => {
    if (selected == null || !validPeer) return;
    let live = true;
    const load = async () => {
      try {
        const rows = await api<
          { id: string; body: string; ack: number; createdAt: string; mediaType: string; fileName: string | null }[]
        >(`/sandbox/${selected}/outbox?to=${encodeURIComponent(peer)}`);
        const presence = await callApi("GET /sandbox/:whatsappId/presence", {
          params: { whatsappId: selected },
          query: { to: peer },
        }).catch(() => ({ state: null }));
        if (!live) return;
        // A reaction is no message of its own on a phone.
        setOutbox(rows.filter((r) => r.mediaType !== "reaction").map((r) => ({ ...r, direction: "out" as const })));
        setShown(presence.state);
      } catch {
        // The next change event loads it again; a stopped connection answers once it is started.
      }
    };
    void load();
    const off = on("sandbox", (payload) => {
      const change = payload as { whatsappId: number; peer: string };
      if (change.whatsappId === selected && change.peer === peer) void load();
    });
    return () => {
      live = false;
      off();
    };
  }, [selected, peer, validPeer]);

  // The messages typed here belong to one conversation: another connection or peer starts with none.
  const conversation = `${selected}:${peer}`;
  const [sentIn, setSentIn] = useState(conversation);
  if (sentIn !== conversation) {
    setSentIn(conversation);
    setSent([]);
  }

  const lines = [...sent, ...outbox].sort((a, b) => +new Date(a.createdAt) - +new Date(b.createdAt));

  const connection = connections.find((c) => c.id === selected) ?? null;

  async function scan() {
    if (!connection) return;
    try {
      await api(`/sandbox/${connection.id}/scan`, { method: "POST" });
      await loadConnections();
    } catch (error) {
      toast("error", errorText(t, error));
    }
  }

  async function send(e: FormEvent) {
    e.preventDefault();
    const body = text.trim();
    if (!connection || !body || !validPeer) return;
    try {
      const sender = { from: peer, ...(!lidOnly && validLid ? { lid } : {}) };
      const res = await callApi("POST /sandbox/:whatsappId/inbound", {
        params: { whatsappId: connection.id },
        body: { ...sender, body, ...(name.trim() ? { name: name.trim() } : {}) },
      });
      setSent((prev) => [...prev, { id: res.id, direction: "in", body, createdAt: new Date().toISOString() }]);
      setText("");
      lastTyping.current = 0;
    } catch (error) {
      toast("error", errorText(t, error));
    }
  }

  /** The customer typing shows in the agent's chat: one `composing` every few seconds while the text changes. */
  function type(value: string) {
    setText(value);
    const now = Date.now();
    if (!connection || !validPeer || !value.trim() || now - lastTyping.current < COMPOSING_EVERY_MS) return;
    lastTyping.current = now;
    void callApi("POST /sandbox/:whatsappId/presence", {
      params: { whatsappId: connection.id },
      body: { from: peer, state: "composing" },
    }).catch(() => undefined);
  }

  async function markRead() {
    if (!connection || !validPeer) return;
    try {
      await callApi("POST /sandbox/:whatsappId/read", { params: { whatsappId: connection.id }, body: { to: peer } });
    } catch (error) {
      toast("error", errorText(t, error));
    }
  }

  async function shareNumber() {
    if (!connection || !validLid || !validPhone) return;
    try {
      await callApi("POST /sandbox/:whatsappId/lid-mapping", {
        params: { whatsappId: connection.id },
        body: { lid, phone },
      });
      setLidOnly(false);
      toast("success", t("sandbox.numberShared"));
    } catch (error) {
      toast("error", errorText(t, error));
    }
  }

  return (
    <div className="sandbox">
      <div className="sandbox-controls">
        <div className="field">
          <label htmlFor="sb-connection">{t("sandbox.connection")}</label>
          <select
            id="sb-connection"
            value={selected ?? ""}
            onChange={(e) => setSelected(e.target.value ? Number(e.target.value) : null)}
          >
            {connections.length === 0 && <option value="">{t("sandbox.noConnections")}</option>}
            {connections.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name} ({c.status})
              </option>
            ))}
          </select>
        </div>
        {connection && connection.status !== "CONNECTED" && (
          <div className="sandbox-qr">
            <p>{t("sandbox.status", { status: connection.status })}</p>
            {connection.qrcode && <code className="qr-text">{connection.qrcode}</code>}
            <button type="button" className="button primary" onClick={scan} disabled={connection.status !== "qrcode"}>
              {t("sandbox.scan")}
            </button>
          </div>
        )}
        <div className="field">
          <label htmlFor="sb-phone">{t("sandbox.phone")}</label>
          <input
            id="sb-phone"
            inputMode="numeric"
            value={phone}
            maxLength={20}
            aria-invalid={!validPhone || undefined}
            onChange={(e) => setPhone(e.target.value.replace(/\D/g, ""))}
          />
        </div>
        <div className="field">
          <label htmlFor="sb-name">{t("sandbox.name")}</label>
          <input id="sb-name" value={name} maxLength={100} onChange={(e) => setName(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="sb-lid">{t("sandbox.lid")}</label>
          <input
            id="sb-lid"
            inputMode="numeric"
            value={lid}
            maxLength={20}
            onChange={(e) => setLid(e.target.value.replace(/\D/g, ""))}
          />
        </div>
        <Checkbox label={t("sandbox.lidOnly")} checked={lidOnly} disabled={!validLid} onChange={setLidOnly} />
        <button
          type="button"
          className="button"
          onClick={shareNumber}
          disabled={!connection || !validLid || !validPhone}
        >
          {t("sandbox.shareNumber")}
        </button>
        <button type="button" className="button" onClick={markRead} disabled={!connection || !validPeer}>
          {t("sandbox.markRead")}
        </button>
      </div>
      <PhoneScreen
        title={connection?.name ?? t("sandbox.phoneTitle")}
        peer={peer}
        lines={lines}
        text={text}
        onText={type}
        typing={shown === "composing"}
        onSend={send}
        canSend={!!connection && connection.status === "CONNECTED" && !!text.trim() && validPeer}
      />
    </div>
  );
}
