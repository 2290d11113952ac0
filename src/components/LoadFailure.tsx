import { Component, type ReactNode } from 'react';

/**
 * A boundary around code loaded on its own (a dialog's chunk, an editor): when it fails to load or to
 * start, `fallback` shows in its place (nothing by default) and `onFailed` hears the error, while the
 * page around it stays.
 */
export class LoadFailure extends Component<{ children: ReactNode; fallback?: ReactNode; onFailed: (error: unknown) => void }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }
  override componentDidCatch(error: unknown): void {
    this.props.onFailed(error);
  }
  override render() {
    return this.state.failed ? (this.props.fallback ?? null) : this.props.children;
  }
}
