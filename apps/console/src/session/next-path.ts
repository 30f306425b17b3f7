/**
 * The page to go to after sign-in, from `?next=`: only a path inside the console (never another site, such as
 * `//evil.example` or `https://…`), else the games list.
 */
export function nextPath(search: string): string {
  const next = new URLSearchParams(search).get('next');
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\') || next.startsWith('/sign-in')) {
    return '/';
  }
  return next;
}

/** `/sign-in?next=…` for the page being left. */
export function signInPathFor(pathname: string, search: string): string {
  const here = `${pathname}${search}`;
  return here === '/' ? '/sign-in' : `/sign-in?next=${encodeURIComponent(here)}`;
}
