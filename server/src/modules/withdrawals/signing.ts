/**
 * What the signer process (src/signer) may do with withdrawals, and all of it: list the approved
 * ones, lock one while it signs, move it through the transfer states and show its transaction hash.
 * The signer's own table, signer_transactions, is in src/signer/repository.ts.
 */

export { markTransferFailed, markTransferInProgress, markTransferSuccessful } from './moves.ts';
export { findNonceCancel } from './nonce-cancel.ts';
export { listApprovedForSigning, lockState, showTxHash } from './repository.ts';
