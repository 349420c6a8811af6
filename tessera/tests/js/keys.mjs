// OpenPGP.js peer for tessera's key interop tests. Reads stdin, writes stdout.
//   node keys.mjs generate v6|v4 USERID [PASSWORD]   -> armored secret key
//   node keys.mjs inspect [PASSWORD]                 -> JSON: fingerprints, validity, encrypt/decrypt round trip
//   node keys.mjs encrypt CERTFILE...                -> binary message of stdin to those certificates
//   node keys.mjs decrypt KEYFILE [PASSWORD]         -> plaintext of the message on stdin
import * as fs from 'node:fs';
import * as openpgp from 'openpgp';

async function readStdin() {
  const chunks = [];
  for await (const c of process.stdin) chunks.push(c);
  return Buffer.concat(chunks).toString('utf8');
}

const [cmd, ...rest] = process.argv.slice(2);
if (cmd === 'generate') {
  const [version, userID, password] = rest;
  const { privateKey } = await openpgp.generateKey({
    type: 'curve25519',
    userIDs: [{ name: userID.split(' <')[0], email: userID.split('<')[1].replace('>', '') }],
    passphrase: password || undefined,
    format: 'armored',
    config: { v6Keys: version === 'v6' },
  });
  process.stdout.write(privateKey);
} else if (cmd === 'inspect') {
  const [password] = rest;
  const armored = await readStdin();
  const isSecret = armored.includes('PRIVATE KEY');
  let key = isSecret ? await openpgp.readPrivateKey({ armoredKey: armored }) : await openpgp.readKey({ armoredKey: armored });
  const out = {
    version: key.keyPacket.version,
    fingerprint: key.getFingerprint().toUpperCase(),
    subkeys: key.getSubkeys().map((s) => s.getFingerprint().toUpperCase()),
    userIDs: key.getUserIDs(),
  };
  await key.verifyPrimaryKey();
  const encKey = await key.getEncryptionKey();
  out.encryptionKey = encKey.getFingerprint().toUpperCase();
  const pub = isSecret ? key.toPublic() : key;
  const message = await openpgp.createMessage({ text: 'hello from openpgp.js' });
  const encrypted = await openpgp.encrypt({ message, encryptionKeys: pub, format: 'binary' });
  if (isSecret) {
    if (!key.isDecrypted()) key = await openpgp.decryptKey({ privateKey: key, passphrase: password });
    const { data } = await openpgp.decrypt({ message: await openpgp.readMessage({ binaryMessage: encrypted }), decryptionKeys: key });
    out.roundTrip = data;
  }
  process.stdout.write(JSON.stringify(out));
} else if (cmd === 'encrypt') {
  const encryptionKeys = await Promise.all(rest.map((f) => openpgp.readKey({ armoredKey: fs.readFileSync(f, 'utf8') })));
  const chunks = [];
  for await (const c of process.stdin) chunks.push(c);
  const message = await openpgp.createMessage({ binary: new Uint8Array(Buffer.concat(chunks)) });
  process.stdout.write(Buffer.from(await openpgp.encrypt({ message, encryptionKeys, format: 'binary' })));
} else if (cmd === 'decrypt') {
  const [file, password] = rest;
  let key = await openpgp.readPrivateKey({ armoredKey: fs.readFileSync(file, 'utf8') });
  if (!key.isDecrypted()) key = await openpgp.decryptKey({ privateKey: key, passphrase: password });
  const chunks = [];
  for await (const c of process.stdin) chunks.push(c);
  const message = await openpgp.readMessage({ binaryMessage: new Uint8Array(Buffer.concat(chunks)) });
  const { data } = await openpgp.decrypt({ message, decryptionKeys: key, format: 'binary' });
  process.stdout.write(Buffer.from(data));
} else {
  console.error('usage: keys.mjs generate|inspect|encrypt|decrypt ...');
  process.exit(2);
}
