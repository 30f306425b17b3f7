import { type ReactNode, useId } from 'react';

/** One part of the Account page: a card with its heading and what it is for. */
export function AccountSection({ title, intro, action, children }: { title: string; intro: ReactNode; action?: ReactNode; children?: ReactNode }) {
  const headingId = useId();
  return (
    <section className="card panel" aria-labelledby={headingId}>
      <div className="section-header">
        <div>
          <h2 id={headingId}>{title}</h2>
          <p className="muted">{intro}</p>
        </div>
        {action}
      </div>
      {children}
    </section>
  );
}
