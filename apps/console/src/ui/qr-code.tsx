import { create } from 'qrcode';
import { useMemo } from 'react';

/** The dark modules of `text`'s QR code as one SVG path (one unit a module), and its size in modules. */
export function qrPath(text: string): { size: number; path: string } {
  const { modules } = create(text, { errorCorrectionLevel: 'M' });
  const parts: string[] = [];
  for (let row = 0; row < modules.size; row++) {
    for (let column = 0; column < modules.size; column++) {
      if (modules.get(row, column)) {
        parts.push(`M${column} ${row}h1v1h-1z`);
      }
    }
  }
  return { size: modules.size, path: parts.join('') };
}

/**
 * A QR code made here in the browser (the `qrcode` package), drawn as SVG: what it holds (a TOTP secret) never goes
 * to another service, and the page's CSP (no inline styles) is kept.
 */
export function QrCode({ value, label }: { value: string; label: string }) {
  const { size, path } = useMemo(() => qrPath(value), [value]);
  const quiet = 4;
  return (
    <svg className="qr-code" role="img" aria-label={label} viewBox={`${-quiet} ${-quiet} ${size + 2 * quiet} ${size + 2 * quiet}`} shapeRendering="crispEdges">
      <rect x={-quiet} y={-quiet} width={size + 2 * quiet} height={size + 2 * quiet} fill="#ffffff" />
      <path d={path} fill="#000000" />
    </svg>
  );
}
