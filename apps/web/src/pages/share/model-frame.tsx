import { FRAME_ALLOW, frameTitle } from './frame-attributes';

/** The viewer host in a frame, as the share page shows it (the embed page: ./embed-start.ts). */
export function ModelFrame({ name, src }: { name: string; src: string }) {
  return <iframe className="embed-frame" title={frameTitle(name)} src={src} allow={FRAME_ALLOW} />;
}

/** While the embed detail loads: a CSS spinner (share.css), no antd on these pages (ui/themed.tsx). */
export function PublicLoading({ className = '' }: { className?: string }) {
  return (
    <div className={`${className} public-loading`.trim()}>
      <span className="public-spinner" role="status" aria-label="Loading model" />
    </div>
  );
}
