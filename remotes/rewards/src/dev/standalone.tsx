import { renderStandalone } from '@cw/shared-ui/standalone-shell';
import remote from '../routes.ts';

/** `npm run dev -w remotes/rewards`: this remote alone, inside a minimal shell. */
renderStandalone(remote, '/rewards');
