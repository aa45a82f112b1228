import { renderStandalone } from '@cw/shared-ui/standalone-shell';
import remote from '../routes.ts';

/** `npm run dev -w remotes/wallet`: this remote alone, inside a minimal shell. */
renderStandalone(remote, '/coinTopup');
