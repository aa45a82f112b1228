import { lazy, type ReactNode, Suspense, useEffect, useRef, useSyncExternalStore } from 'react';
import { useLocation } from 'react-router';
import { FRAME_MARGIN_PX, FRAME_WIDTH_PX, shouldFrame } from './is-mobile.ts';
import { isTabPath } from './tab-paths.ts';
import { limitTouchScrolling } from './touch-scroll.ts';
import './page-fill.css';

/** The tab bar (and its UI kit code) loads only on the hub screens, never on the landing page. */
const AppTabBar = lazy(() => import('./tab-bar.tsx'));

const SCROLL_TOP_DELAY_MS = 200;

function subscribeResize(callback: () => void) {
  window.addEventListener('resize', callback);
  return () => window.removeEventListener('resize', callback);
}

/** The frame's height when the window gets the desktop frame, else PHONE_LAYOUT. */
function framedHeight(): number {
  return shouldFrame(navigator.userAgent, window.innerWidth) ? window.innerHeight - FRAME_MARGIN_PX : PHONE_LAYOUT;
}

const PHONE_LAYOUT = -1;
/** The pre-rendered landing page is the phone layout (the server serves it to phones only). */
const prerenderedLayout = () => PHONE_LAYOUT;

/**
 * The app's frame: full screen on phones; on a wide desktop screen a centred
 * frame 480 px wide and window height minus 20 px high. Only the scroll area
 * scrolls; after each navigation it returns to the top after 200 ms.
 */
export function AppFrame({ children }: { children: ReactNode }) {
  const frameHeight = useSyncExternalStore(subscribeResize, framedHeight, prerenderedLayout);
  const framed = frameHeight !== PHONE_LAYOUT;
  const scrollRef = useRef<HTMLDivElement>(null);
  const { pathname } = useLocation();
  // The first screen paints at once (no fade-in delaying the first contentful
  // paint); later navigations get the default transition.
  const firstPath = useRef(pathname);
  const navigated = useRef(false);
  if (pathname !== firstPath.current) navigated.current = true;
  const animate = navigated.current;

  useEffect(() => limitTouchScrolling(document), []);

  useEffect(() => {
    void pathname;
    const timer = window.setTimeout(() => {
      scrollRef.current?.scrollTo({ top: 0 });
      window.scrollTo({ top: 0 });
    }, SCROLL_TOP_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [pathname]);

  const style = framed ? { width: FRAME_WIDTH_PX, height: frameHeight } : undefined;
  return (
    <div className={framed ? 'app-stage app-stage--framed' : 'app-stage'}>
      <div className="app-frame" data-testid="app-frame" data-framed={framed} style={style}>
        <div className="app-scroll" data-scrollable="true" ref={scrollRef}>
          <div key={pathname} className={animate ? 'page-transition' : 'page-static'}>
            {children}
          </div>
        </div>
        {isTabPath(pathname) && (
          <Suspense fallback={<div className="app-tabbar" />}>
            <AppTabBar />
          </Suspense>
        )}
      </div>
    </div>
  );
}
