import { useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import type { LinkPageProps, ShareHeaderView } from '@helix/shared/link-page';
import type { MSG } from '@helix/shared/messages';

/**
 * /share/{token} and /embed/{token}: one component tree, rendered by the server (the web's server
 * bundle, src/server-render/link-page.server.tsx, called by apps/api/src/http/public-link-page.ts) and,
 * on the share page, hydrated by the browser with the same props (./link-page-start.ts). Only React is
 * on this page: no antd, router, query client or session code, nor the message catalogue (its texts
 * come as props, ./link-page-texts.ts). The styles are ./share.css, inlined into the embed document by
 * its build (build/embed-document.ts).
 */

/** The catalogue's texts a link page says (packages/shared/src/messages.ts), passed in by its renderer. */
export type LinkPageTexts = Pick<
  typeof MSG,
  | 'linkCopied'
  | 'clipboardFailed'
  | 'embedHostNotAllowed'
  | 'embedHostNotAllowedHint'
  | 'linkUnavailable'
  | 'linkUnavailableHint'
>;

/** What a link page is rendered with: the API's props and the texts. */
export type LinkPageData = LinkPageProps & { texts: LinkPageTexts };

/** What the viewer frame may use, on the share and embed pages alike. */
const FRAME_ALLOW = 'fullscreen; xr-spatial-tracking; autoplay';

/** The viewer frame (its address carries this page load's viewer token, spliced in by the API). */
function ViewerFrame({ src, modelName }: { src: string; modelName: string }) {
  return <iframe className="embed-frame" title={`${modelName} viewer`} allow={FRAME_ALLOW} src={src} />;
}

/** A colour safe inside a style attribute (a hex colour), else undefined. */
const cssColour = (colour: string | null): string | undefined =>
  colour && /^#[0-9a-f]{3,8}$/i.test(colour.trim()) ? colour.trim() : undefined;

/** Copies the page's address; the answer is said in a status line that takes no room of the layout. */
function CopyLink({ onSaid, texts }: { onSaid: (text: string) => void; texts: LinkPageTexts }) {
  const copy = () => {
    const url = window.location.href;
    navigator.clipboard
      .writeText(url)
      .then(() => onSaid(texts.linkCopied))
      .catch(() => onSaid(texts.clipboardFailed));
  };
  return (
    <button type="button" className="outlined-control share-action" data-testid="share-copy" onClick={copy}>
      Copy link
    </button>
  );
}

/**
 * The viewer full screen: the browser's own full screen of the viewer's box where it has one, else
 * (an iPhone) the box over the whole window with a button to leave it.
 */
function useFullScreen(box: RefObject<HTMLElement | null>) {
  const [covering, setCovering] = useState(false);
  useEffect(() => {
    if (!covering) return;
    const leave = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setCovering(false);
    };
    window.addEventListener('keydown', leave);
    return () => window.removeEventListener('keydown', leave);
  }, [covering]);
  const enter = () => {
    const el = box.current;
    if (el && document.fullscreenEnabled && el.requestFullscreen) {
      el.requestFullscreen().catch(() => setCovering(true));
    } else {
      setCovering(true);
    }
  };
  return { covering, enter, leave: () => setCovering(false) };
}

function ShareHeader({ view, children }: { view: ShareHeaderView; children: ReactNode }) {
  const underline = cssColour(view.colour);
  const nameColour = cssColour(view.nameColour);
  return (
    <header className="share-header" style={underline ? { borderBottomColor: underline } : undefined}>
      {/* The school's name follows the logo as text, so the logo itself says nothing more (alt=""). */}
      <span
        className="share-brand"
        data-testid="share-brand"
        style={nameColour ? { color: nameColour } : undefined}
      >
        <img src={view.logo} alt="" height={36} />
        <span>{view.brandName}</span>
      </span>
      <h1 className="share-title">{view.title}</h1>
      {view.sharedBy ? <span className="share-by">{view.sharedBy}</span> : null}
      <span className="share-actions">{children}</span>
    </header>
  );
}

/** The share page: the school's header (logo, name, colour, the model, who shared it) above the viewer. */
function SharePage({
  header,
  frameUrl,
  texts,
}: {
  header: ShareHeaderView;
  frameUrl: string;
  texts: LinkPageTexts;
}) {
  const main = useRef<HTMLElement>(null);
  const full = useFullScreen(main);
  const [said, setSaid] = useState('');
  useEffect(() => {
    if (!said) return;
    const clear = setTimeout(() => setSaid(''), 3000);
    return () => clearTimeout(clear);
  }, [said]);
  return (
    <div className="share-page">
      <ShareHeader view={header}>
        <CopyLink onSaid={setSaid} texts={texts} />
        <button
          type="button"
          className="outlined-control share-action"
          data-testid="share-full-screen"
          onClick={full.enter}
        >
          Full screen
        </button>
      </ShareHeader>
      <main className="share-main" ref={main} data-covering={full.covering ? 'true' : undefined}>
        <ViewerFrame src={frameUrl} modelName={header.title} />
        {full.covering ? (
          <button
            type="button"
            className="outlined-control share-action share-leave"
            onClick={full.leave}
            autoFocus
          >
            Exit full screen
          </button>
        ) : null}
      </main>
      <p className="share-said" role="status" data-testid="share-said">
        {said}
      </p>
    </div>
  );
}

/**
 * The panel of a share or embed page shown on a site its link is not allowed on (docs/links.md,
 * "Where a link may be shown"): no viewer, nothing counted, and words that tell the visitor why.
 */
function NotAllowed({ texts }: { texts: LinkPageTexts }) {
  return (
    <main className="link-not-allowed" data-testid="link-not-allowed">
      <div className="link-not-allowed-box" role="alert">
        <h1>{texts.embedHostNotAllowed}</h1>
        <p>{texts.embedHostNotAllowedHint}</p>
      </div>
    </main>
  );
}

/**
 * The neutral page of a link that cannot be shown (any reason, never details); the share page's says
 * what to do, the embed page's (inside someone else's site) stays neutral.
 */
export function LinkUnavailable({ hint, texts }: { hint: boolean; texts: LinkPageTexts }) {
  return (
    <main className="link-unavailable" data-testid="link-unavailable">
      <div className="link-unavailable-box">
        <h1 className="status-title">{texts.linkUnavailable}</h1>
        {hint ? <p>{texts.linkUnavailableHint}</p> : null}
      </div>
    </main>
  );
}

/** A link's page, as its props say. */
export function LinkPage(props: LinkPageData) {
  const { texts } = props;
  if (props.state !== 'ready') {
    return props.state === 'not-allowed' ? (
      <NotAllowed texts={texts} />
    ) : (
      <LinkUnavailable hint={props.kind === 'share'} texts={texts} />
    );
  }
  if (props.kind === 'share') {
    return <SharePage header={props.header} frameUrl={props.frameUrl} texts={texts} />;
  }
  // Under the frame, the model's name shows until the viewer's own page paints over it: a pupil sees
  // what is coming from the page's first paint, not a blank box while the viewer's code loads. Not on a
  // transparent link, where the host page shows through the viewer for good.
  return (
    <div className="embed-page" data-transparent={props.transparent ? 'true' : undefined}>
      {props.transparent ? null : (
        <p className="embed-caption" aria-hidden="true">
          {props.modelName}
        </p>
      )}
      <ViewerFrame src={props.frameUrl} modelName={props.modelName} />
    </div>
  );
}
