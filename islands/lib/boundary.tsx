import { Component, type ReactNode } from "react";

/** Wraps every island (server and client alike, so trees match): a failing island renders nothing instead of breaking the page. */
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
    return this.state.failed ? null : this.props.children;
  }
}
