import { useEffect, useMemo } from "react";
import { encode } from "uqr";
import { api } from "../lib/api";
import { errorText } from "../lib/errors";
import { useT } from "../lib/i18n-context";
import { Modal } from "../lib/modal";
import { toast } from "../lib/toast";
import type { Connection } from "../../src/shared/contracts";

const QR_SIZE_PX = 256;

/** The QR code as one SVG path of dark modules (quiet zone included), drawn at 256 px. */
export function QrImage({ value, label }: { value: string; label: string }) {
  const { size, path } = useMemo(() => {
    const { data } = encode(value, { ecc: "L", border: 2 });
    let d = "";
    data.forEach((row, y) => row.forEach((dark, x) => dark && (d += `M${x} ${y}h1v1h-1z`)));
    return { size: data.length, path: d };
  }, [value]);
  return (
    <svg
      className="admin-qr"
      role="img"
      aria-label={label}
      width={QR_SIZE_PX}
      height={QR_SIZE_PX}
      viewBox={`0 0 ${size} ${size}`}
      shapeRendering="crispEdges"
    >
      <rect width={size} height={size} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}

/** The QR dialog; it closes by itself once the session's qrcode is empty (scanned, or the session moved on). */
export function QrDialog({ connection, onClose }: { connection: Connection; onClose: () => void }) {
  const t = useT();
  const empty = !connection.qrcode;
  useEffect(() => {
    if (empty) onClose();
  }, [empty, onClose]);

  async function scan() {
    try {
      await api(`/sandbox/${connection.id}/scan`, { method: "POST" });
    } catch (error) {
      toast("error", errorText(t, error));
    }
  }

  if (empty) return null;
  return (
    <Modal variant="admin" title={t("admin.qr.title", { name: connection.name })} onClose={onClose}>
      <p>{t("admin.qr.help")}</p>
      <div className="admin-qr-box">
        <QrImage value={connection.qrcode ?? ""} label={t("admin.qr.title", { name: connection.name })} />
      </div>
      {connection.provider === "sandbox" && (
        <button type="button" className="button primary" onClick={scan}>
          {t("admin.qr.scan")}
        </button>
      )}
    </Modal>
  );
}
