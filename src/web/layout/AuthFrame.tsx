import type { ReactNode } from "react";

/** The centred card of the public pages (/login, /signup). */
export function AuthFrame({ title, brand, children }: { title: string; brand: string; children: ReactNode }) {
  return (
    <main className="auth">
      <div className="auth-card">
        <p className="auth-brand">{brand}</p>
        <h1>{title}</h1>
        {children}
      </div>
    </main>
  );
}
