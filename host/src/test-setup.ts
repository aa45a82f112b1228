/**
 * The account screens' toasts load antd-mobile's Toast on first use (to keep it off the landing
 * bundle). In a test that import can still be running when the file ends, and a module evaluated
 * after the test environment is torn down fails the whole run (seen under CI load in
 * login-screen.test.tsx). Load it before any test, so a toast shown as a test ends needs no import.
 */
await Promise.all([
  import('antd-mobile/es/components/toast'),
  import('antd-mobile/es/utils/unstable-render'),
  import('react-dom/client'),
]);

export {};
