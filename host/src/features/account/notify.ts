/**
 * Toasts for the account screens. The toast code loads on first use so it
 * stays off the landing page's initial bundle.
 */
async function show(icon: 'success' | 'fail', content: string): Promise<void> {
  const { default: Toast } = await import('antd-mobile/es/components/toast');
  Toast.show({ icon, content, duration: 2000 });
}

export function notifySuccess(message: string): void {
  void show('success', message);
}

export function notifyFail(message: string): void {
  void show('fail', message);
}
