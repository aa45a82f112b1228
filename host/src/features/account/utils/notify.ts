/**
 * Toasts for the account screens (antd-mobile's Toast, 2000 ms). The toast
 * code loads on first use so it stays off the landing page's initial bundle.
 */

type Root = { render: (node: unknown) => void; unmount: () => void };

let toastModule: Promise<typeof import('antd-mobile/es/components/toast').default> | null = null;

function loadToast() {
  toastModule ??= Promise.all([
    import('antd-mobile/es/components/toast'),
    import('antd-mobile/es/utils/unstable-render'),
    import('react-dom/client'),
  ]).then(([toast, { unstableSetRender }, { createRoot }]) => {
    // antd-mobile's imperative APIs render with the legacy ReactDOM.render by
    // default, which React 19 removed: give them createRoot.
    const roots = new WeakMap<Element | DocumentFragment, Root>();
    unstableSetRender((node, container) => {
      let root = roots.get(container);
      if (!root) {
        root = createRoot(container) as Root;
        roots.set(container, root);
      }
      root.render(node);
      return async () => {
        await new Promise((resolve) => setTimeout(resolve, 0));
        root.unmount();
        roots.delete(container);
      };
    });
    return toast.default;
  });
  return toastModule;
}

async function show(icon: 'success' | 'fail', content: string): Promise<void> {
  const Toast = await loadToast();
  Toast.show({ icon, content, duration: 2000 });
}

export function notifySuccess(message: string): void {
  void show('success', message);
}

export function notifyFail(message: string): void {
  void show('fail', message);
}
