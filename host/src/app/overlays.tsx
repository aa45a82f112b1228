import { DialogHost } from '@cw/shared-ui/dialog';
import { ToastHost } from '@cw/shared-ui/toast';

/** The shared toast and dialog hosts (a lazy chunk: see overlay-demand.ts). */
export default function Overlays() {
  return (
    <>
      <ToastHost />
      <DialogHost />
    </>
  );
}
