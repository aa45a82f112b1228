import { AddressBookPicker } from '../features/address-book/components/address-book-picker.tsx';
import SendScreen from '../features/send/components/send-screen.tsx';

/** /coinTopup/send, composed by the app: the send feature with the address book's picker. */
export default function SendRoute() {
  return <SendScreen AddressPicker={AddressBookPicker} />;
}
