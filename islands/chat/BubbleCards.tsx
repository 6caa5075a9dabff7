import type { TFunction } from "i18next";
import { useState } from "react";
import { callApi } from "../lib/api";
import { getBoot } from "../lib/boot";
import { errorText } from "../lib/errors";
import { Icon } from "../lib/icons";
import { openTicket } from "../lib/ticket-nav";
import { toast } from "../lib/toast";
import { vcardOf } from "../../src/shared/vcard";

export { vcardOf };

/** A shared contact: its name and number, and "Chat", which opens a ticket with that number (found or created). */
export function VcardCard({ body, t }: { body: string; t: TFunction }) {
  const card = vcardOf(body);
  const [busy, setBusy] = useState(false);
  async function chat() {
    setBusy(true);
    try {
      const contact = await callApi("POST /contact", { body: { name: card.name || card.number, number: card.number } });
      const ticket = await callApi("POST /tickets", {
        body: { contactId: contact.id, userId: getBoot()?.user?.id, status: "open" },
      });
      openTicket(ticket.id);
    } catch (error) {
      toast("error", errorText(t, error));
    } finally {
      setBusy(false);
    }
  }
  return (
    <span className="vcard">
      <span className="vcard-who">
        <Icon name="contacts" size={32} />
        <span>
          <strong>{card.name || t("chat.media.contact")}</strong>
          <span>{card.number}</span>
        </span>
      </span>
      {card.number && (
        <button type="button" className="button vcard-chat" disabled={busy} onClick={() => void chat()}>
          {t("chat.media.chat")}
        </button>
      )}
    </span>
  );
}

/**
 * The coordinates a location message carries: WhatsApp's body is "thumbnail|map link|lat, lng" and a
 * simulated one may be just "lat,lng"; the thumbnail (a data URL) is skipped.
 */
export function coordinatesOf(body: string): { lat: number; lng: number } | null {
  const parts = body
    .split("|")
    .filter((part) => !part.startsWith("data:"))
    .reverse();
  for (const part of parts) {
    let text = part;
    try {
      text = decodeURIComponent(part);
    } catch {}
    const found = text.match(/(-?\d{1,2}(?:\.\d+)?)\s*,\s*(-?\d{1,3}(?:\.\d+)?)/);
    if (!found) continue;
    const lat = Number(found[1]);
    const lng = Number(found[2]);
    if (Math.abs(lat) <= 90 && Math.abs(lng) <= 180) return { lat, lng };
  }
  return null;
}

/** A shared location: its coordinates and a link that opens them on OpenStreetMap. */
export function LocationCard({ body, t }: { body: string; t: TFunction }) {
  const at = coordinatesOf(body);
  const href = at && `https://www.openstreetmap.org/?mlat=${at.lat}&mlon=${at.lng}#map=17/${at.lat}/${at.lng}`;
  return (
    <span className="location-card">
      <span className="location-title">
        <Icon name="place" size={20} /> {t("chat.media.location")}
      </span>
      {at && (
        <>
          <span className="location-coords">
            {at.lat}, {at.lng}
          </span>
          <a className="location-link" href={href!} target="_blank" rel="noopener noreferrer">
            {t("chat.media.openMap")}
          </a>
        </>
      )}
    </span>
  );
}
