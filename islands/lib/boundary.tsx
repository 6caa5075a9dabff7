import { Component, type ReactNode } from "react";
import { useT } from "./i18n-context";

/**
 * Wraps every island (server and client alike, so trees match): a failing island shows a short note with a
 * reload link in its place instead of breaking the page or vanishing without a word.
 */
export class IslandBoundary extends Component<
  { name: string; onMount?: () => void; children: ReactNode },
  { failed: boolean }
> {
  state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  componentDidMount() {
    this.props.onMount?.();
  }
  componentDidCatch(error: unknown) {
    console.warn(`island ${this.props.name} failed`, error);
  }
  render() {
    return this.state.failed ? <IslandFailed /> : this.props.children;
  }
}

/** What a failed island shows: it is inside the island's I18nProvider, so the note is in the page's language. */
export function IslandFailed() {
  const t = useT();
  return (
    <div className="island-failed" role="alert">
      <p>{t("app.islandFailed")}</p>
      <button type="button" className="button small" onClick={() => location.reload()}>
        {t("app.reload")}
      </button>
    </div>
  );
}
