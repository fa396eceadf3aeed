/** The viewer host in a frame, as the share and embed pages show it. */
export function ModelFrame({ name, src }: { name: string; src: string }) {
  return (
    <iframe
      className="embed-frame"
      title={`${name} viewer`}
      src={src}
      allow="fullscreen; xr-spatial-tracking; autoplay"
    />
  );
}

/** While the embed detail loads: a CSS spinner (share.css), no antd on these pages (ui/themed.tsx). */
export function PublicLoading({ className = '' }: { className?: string }) {
  return (
    <div className={`${className} public-loading`.trim()}>
      <span className="public-spinner" role="status" aria-label="Loading model" />
    </div>
  );
}
