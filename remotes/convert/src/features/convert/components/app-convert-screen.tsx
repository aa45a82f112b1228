import ConvertScreen from './convert-screen.tsx';

/** /convert/indexToApp: the convert screen as the app embeds it (no back arrow to the wallet). */
export default function AppConvertScreen() {
  return <ConvertScreen app />;
}
