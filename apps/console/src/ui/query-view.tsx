import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ErrorState, Loading } from './states';

/** What a list shows for one API query: loading, the failure with "Try again", its empty state, or the data. */
export function QueryView<T>({
  query,
  loading,
  isEmpty,
  empty,
  children,
}: {
  query: UseQueryResult<T>;
  loading: string;
  isEmpty: (data: T) => boolean;
  empty: ReactNode;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) {
    return <Loading label={loading} />;
  }
  if (query.isError) {
    return <ErrorState error={query.error} retry={() => void query.refetch()} />;
  }
  return <>{isEmpty(query.data) ? empty : children(query.data)}</>;
}

/** The heading of a tab: title, one line on what it holds, and its main action. */
export function SectionHeader({ title, children, action }: { title: string; children: ReactNode; action?: ReactNode }) {
  return (
    <div className="section-header">
      <div>
        <h2>{title}</h2>
        <p className="muted">{children}</p>
      </div>
      {action}
    </div>
  );
}
