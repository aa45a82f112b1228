export { useCodeMessage } from '@cw/shared-state/errors';
