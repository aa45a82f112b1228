/**
 * Touch scrolling is limited to scrollable areas: a touchmove that would
 * scroll the page itself (rubber-banding the whole app on iOS) is cancelled
 * unless it starts inside an element that can scroll.
 */
function canScroll(element: Element): boolean {
  const style = getComputedStyle(element);
  const scrollsY = /(auto|scroll)/.test(style.overflowY) && element.scrollHeight > element.clientHeight;
  const scrollsX = /(auto|scroll)/.test(style.overflowX) && element.scrollWidth > element.clientWidth;
  return scrollsY || scrollsX;
}

export function insideScrollableArea(target: EventTarget | null): boolean {
  let node = target instanceof Element ? target : null;
  while (node && node !== document.body) {
    if (canScroll(node)) return true;
    node = node.parentElement;
  }
  return false;
}

export function limitTouchScrolling(root: Document): () => void {
  const onTouchMove = (event: TouchEvent) => {
    if (event.touches.length > 1) return; // pinch zoom stays the browser's
    if (!insideScrollableArea(event.target)) event.preventDefault();
  };
  root.addEventListener('touchmove', onTouchMove, { passive: false });
  return () => root.removeEventListener('touchmove', onTouchMove);
}
