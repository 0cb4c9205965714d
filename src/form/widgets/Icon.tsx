/** Small inline SVG icons (no icon font, no extra request). */
const PATHS: Record<string, string> = {
  casa: 'M3 11.5 12 4l9 7.5M5.5 9.5V20h13V9.5M10 20v-5h4v5',
  edificio: 'M5 21V4h10v17M15 9h4v12M8 8h2M8 12h2M8 16h2M12 8h0M11 12h1M11 16h1M3 21h18',
  ph: 'M3 21V10l5-4 5 4v11M13 21V8l4-3 4 3v13M6 14h2M16 12h2M16 16h2M3 21h18',
  tarjeta: 'M3 6h18v12H3zM3 10h18M7 15h4',
  banco: 'M3 9 12 4l9 5M5 10v8M9 10v8M15 10v8M19 10v8M3 20h18',
  check: 'M5 12.5 10 17l9-10',
  escudo: 'M12 3 5 6v6c0 4.2 3 7.6 7 9 4-1.4 7-4.8 7-9V6z',
  candado: 'M6 11h12v9H6zM8.5 11V8a3.5 3.5 0 0 1 7 0v3',
  chat: 'M4 19.5 5.3 16A8 8 0 1 1 8 18.7z',
  alerta: 'M12 4 2.5 20h19zM12 10v4.5M12 17.5v.01',
  flecha: 'M15 5l-7 7 7 7',
  descarga: 'M12 4v11M7 10.5l5 5 5-5M5 20h14',
  sobre: 'M3 6h18v12H3zM3 7l9 6 9-6',
};

export function Icon({ name, className }: { name: string; className?: string }) {
  const d = PATHS[name];
  if (!d) return null;
  return (
    <svg className={`icon ${className ?? ''}`} viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
      <path d={d} fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
