// OpenPGP.js peer for tessera's interop tests. Reads stdin, writes stdout.
//   node pgp.mjs encrypt PASSWORD AEAD(ocb|eax|gcm|none) CHUNK_OCTET S2K(argon2|iterated) ARMOR(0|1) CIPHER(aes128|aes192|aes256)
//   node pgp.mjs decrypt PASSWORD
import * as openpgp from 'openpgp';

async function readStdin() {
  const chunks = [];
  for await (const c of process.stdin) chunks.push(c);
  return new Uint8Array(Buffer.concat(chunks));
}

const [cmd, password, ...rest] = process.argv.slice(2);
const input = await readStdin();
let out;
if (cmd === 'encrypt') {
  const [aead, chunk, s2k, armor, cipher] = rest;
  const config = {
    aeadProtect: aead !== 'none',
    aeadChunkSizeByte: Number(chunk),
    s2kType: s2k === 'argon2' ? openpgp.enums.s2k.argon2 : openpgp.enums.s2k.iterated,
    s2kArgon2Params: { passes: 1, parallelism: 4, memoryExponent: 16 },
    preferredSymmetricAlgorithm: openpgp.enums.symmetric[cipher || 'aes256'],
  };
  if (aead !== 'none') config.preferredAEADAlgorithm = openpgp.enums.aead[aead];
  const message = await openpgp.createMessage({ binary: input });
  out = await openpgp.encrypt({ message, passwords: [password], format: armor === '1' ? 'armored' : 'binary', config });
} else if (cmd === 'decrypt') {
  const text = new TextDecoder().decode(input.subarray(0, 64));
  const message = text.includes('-----BEGIN PGP')
    ? await openpgp.readMessage({ armoredMessage: new TextDecoder().decode(input) })
    : await openpgp.readMessage({ binaryMessage: input });
  const res = await openpgp.decrypt({ message, passwords: [password], format: 'binary' });
  out = res.data;
} else {
  console.error('usage: pgp.mjs encrypt|decrypt ...');
  process.exit(2);
}
process.stdout.write(typeof out === 'string' ? out : Buffer.from(out));
