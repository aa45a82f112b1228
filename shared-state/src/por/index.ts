/**
 * @cw/shared-state/por: the Merkle sum tree of the proof of liabilities, built by the server and
 * verified by the browser with the same code. Stateless.
 */
export {
  buildLevels,
  type InclusionProof,
  type LeafData,
  leafNode,
  PATH_MAX,
  type ProofStep,
  paddingNode,
  parentNode,
  proofPath,
  type SumNode,
  type VerifyResult,
  verifyProof,
} from './merkle-sum.ts';
