/**
 * The likes lottery's draw, shared by the server (which draws) and the browser (which verifies).
 * Provably fair, also against the operator: each user has a server seed whose SHA-256 (the
 * commitment) is shown BEFORE the user picks a client seed; draw `nonce` on that pair is
 * HMAC-SHA256(serverSeed, "clientSeed:nonce"), mapped onto the prize table's weights without modulo
 * bias. Setting a new client seed retires (reveals) the server seed and activates the next one, whose
 * commitment the user saw first; so the server cannot grind its seed against a client seed it does
 * not know yet, and every draw verifies alone from its inputs (server seed, commitment, client seed,
 * nonce, prize table and its hash). Draws made before client seeds used a day seed and the message
 * "u:d:n" (`drawPrizeIndex`, `verifyDraw`). WebCrypto only (browsers and Node both have
 * `crypto.subtle`), so both sides run this very code.
 */

/** A prize table row: its relative weight (a positive integer). */
export interface PrizeWeight {
  weight: number;
}

/** Largest total weight: keeps rejection below 2^-16 per 32-bit word. */
const TOTAL_WEIGHT_MAX = 65_536;
/** Rounds of re-hashing before giving up (never reached: each round fails with p < 2^-128). */
const ROUNDS_MAX = 4;

const encoder = new TextEncoder();

function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export function drawMessage(userId: string, day: string, n: number): string {
  return `${userId}:${day}:${n}`;
}

export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  return hex(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as BufferSource)));
}

async function hmac(seed: Uint8Array, message: string): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey('raw', seed as BufferSource, { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  return new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(message)));
}

/**
 * The prize index a 32-byte MAC selects, or undefined when every word of it falls in the biased
 * tail (the caller re-hashes). Each big-endian 32-bit word below the largest multiple of the total
 * weight is taken modulo the total; words at or above it are rejected, so every ticket is equally likely.
 */
export function prizeIndexFromMac(mac: Uint8Array, prizes: readonly PrizeWeight[]): number | undefined {
  const total = prizes.reduce((sum, p) => sum + p.weight, 0);
  if (!prizes.every((p) => Number.isInteger(p.weight) && p.weight > 0) || total > TOTAL_WEIGHT_MAX) {
    throw new Error('prize weights must be positive integers with a total of at most 65536');
  }
  const limit = Math.floor(2 ** 32 / total) * total;
  const view = new DataView(mac.buffer, mac.byteOffset, mac.byteLength);
  for (let offset = 0; offset + 4 <= mac.byteLength; offset += 4) {
    const word = view.getUint32(offset);
    if (word >= limit) continue;
    let ticket = word % total;
    for (let i = 0; i < prizes.length; i++) {
      ticket -= (prizes[i] as PrizeWeight).weight;
      if (ticket < 0) return i;
    }
  }
  return undefined;
}

/** The prize index of an older draw: draw n of `userId` on `day` under the day seed. */
export async function drawPrizeIndex(
  seed: Uint8Array,
  userId: string,
  day: string,
  n: number,
  prizes: readonly PrizeWeight[],
): Promise<number> {
  return indexOfMessage(seed, drawMessage(userId, day, n), prizes);
}

/** The message of draw `nonce` on a client seed (the HMAC key is the server seed). */
export function clientSeedMessage(clientSeed: string, nonce: number): string {
  return `${clientSeed}:${nonce}`;
}

/** A client seed: 1..64 printable ASCII characters, no spaces (the server refuses anything else). */
export const CLIENT_SEED_PATTERN = /^[!-~]{1,64}$/;

/** A prize table row with its amount (minor units, decimal string). */
export interface Prize extends PrizeWeight {
  amountMinor: string;
}

/** The prize table as hashed: JSON of [{weight, amountMinor}] in table order, nothing else. */
export function canonicalPrizeTable(prizes: readonly { weight: number; amountMinor: string | bigint }[]): string {
  return JSON.stringify(prizes.map((p) => ({ weight: p.weight, amountMinor: p.amountMinor.toString() })));
}

/** SHA-256 (hex) of the canonical prize table: names the table a draw ran against. */
export function prizeTableHash(canonical: string): Promise<string> {
  return sha256Hex(encoder.encode(canonical));
}

async function indexOfMessage(seed: Uint8Array, message: string, prizes: readonly PrizeWeight[]): Promise<number> {
  for (let round = 0; round < ROUNDS_MAX; round++) {
    // Round 0 is the published formula; later rounds (never expected) append "#round".
    const mac = await hmac(seed, round === 0 ? message : `${message}#${round}`);
    const index = prizeIndexFromMac(mac, prizes);
    if (index !== undefined) return index;
  }
  throw new Error('lottery draw rejected every word (impossible in practice)');
}

/** The prize index of draw `nonce` on (server seed, client seed). */
export function drawWithClientSeed(
  serverSeed: Uint8Array,
  clientSeed: string,
  nonce: number,
  prizes: readonly PrizeWeight[],
): Promise<number> {
  return indexOfMessage(serverSeed, clientSeedMessage(clientSeed, nonce), prizes);
}

/** Every input of one draw, as the server returns it (the server seed once revealed). */
export interface DrawInputs {
  serverSeedHex: string;
  commitment: string;
  clientSeed: string;
  nonce: number;
  prizeTable: readonly Prize[];
  prizeTableHash: string;
  prizeIndex: number;
}

/**
 * Verifies one draw alone: the revealed server seed hashes to the commitment, the prize table to its
 * hash, and HMAC(serverSeed, "clientSeed:nonce") maps to the prize index.
 */
export async function verifyClientSeedDraw(
  input: DrawInputs,
): Promise<{ commitmentOk: boolean; prizeTableOk: boolean; drawOk: boolean }> {
  const prizeTableOk = (await prizeTableHash(canonicalPrizeTable(input.prizeTable))) === input.prizeTableHash;
  if (!/^[0-9a-f]{64}$/.test(input.serverSeedHex)) return { commitmentOk: false, prizeTableOk, drawOk: false };
  const seed = Uint8Array.from(input.serverSeedHex.match(/../g) ?? [], (h) => Number.parseInt(h, 16));
  const commitmentOk = (await sha256Hex(seed)) === input.commitment;
  const drawOk = (await drawWithClientSeed(seed, input.clientSeed, input.nonce, input.prizeTable)) === input.prizeIndex;
  return { commitmentOk, prizeTableOk, drawOk };
}

/** Checks a revealed day seed against its commitment and an older (day-seed) draw against its recomputation. */
export async function verifyDraw(input: {
  seedHex: string;
  commitment: string;
  userId: string;
  day: string;
  n: number;
  prizeIndex: number;
  prizes: readonly PrizeWeight[];
}): Promise<{ commitmentOk: boolean; drawOk: boolean }> {
  if (!/^[0-9a-f]{64}$/.test(input.seedHex)) return { commitmentOk: false, drawOk: false };
  const seed = Uint8Array.from(input.seedHex.match(/../g) ?? [], (h) => Number.parseInt(h, 16));
  const commitmentOk = (await sha256Hex(seed)) === input.commitment;
  const drawOk = (await drawPrizeIndex(seed, input.userId, input.day, input.n, input.prizes)) === input.prizeIndex;
  return { commitmentOk, drawOk };
}
