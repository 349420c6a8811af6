// OpenPGP.js peer for tessera's certificate-management interop tests.
//   node certs.mjs inspect < CERT          -> JSON: revoked, expiration (Unix seconds or null), userIDs
//   node certs.mjs revoke KEYFILE          -> the key's certificate, revoked (armored)
//   node certs.mjs certify KEYFILE < CERT  -> CERT with every User ID certified by KEYFILE's key (armored)
//   node certs.mjs expire KEYFILE SECONDS  -> the key's certificate, expiring SECONDS after its creation
//   node certs.mjs certified-by CERTFILE < CERT -> JSON: per User ID, whether CERTFILE's key validly certifies it
import * as fs from 'node:fs';
import * as openpgp from 'openpgp';

async function readStdin() {
  const chunks = [];
  for await (const c of process.stdin) chunks.push(c);
  return Buffer.concat(chunks).toString('utf8');
}

const readPrivate = (file) => openpgp.readPrivateKey({ armoredKey: fs.readFileSync(file, 'utf8') });
const [cmd, ...rest] = process.argv.slice(2);
if (cmd === 'inspect') {
  const key = await openpgp.readKey({ armoredKey: await readStdin() });
  const expiration = await key.getExpirationTime();
  const out = {
    revoked: await key.isRevoked(),
    expiration: expiration === Infinity || expiration === null ? null : Math.floor(expiration.getTime() / 1000),
    userIDs: key.getUserIDs(),
  };
  process.stdout.write(JSON.stringify(out));
} else if (cmd === 'revoke') {
  const { publicKey } = await openpgp.revokeKey({ key: await readPrivate(rest[0]), format: 'armored' });
  process.stdout.write(publicKey);
} else if (cmd === 'certify') {
  const certifier = await readPrivate(rest[0]);
  const cert = await openpgp.readKey({ armoredKey: await readStdin() });
  const certified = await cert.signAllUsers([certifier]);
  process.stdout.write(certified.armor());
} else if (cmd === 'expire') {
  const key = await readPrivate(rest[0]);
  const { privateKey } = await openpgp.reformatKey({
    privateKey: key,
    userIDs: key.users.map((u) => u.userID).filter(Boolean).map((u) => ({ name: u.name, email: u.email })),
    keyExpirationTime: Number(rest[1]),
    format: 'object',
  });
  process.stdout.write(privateKey.toPublic().armor());
} else if (cmd === 'certified-by') {
  const signer = await openpgp.readKey({ armoredKey: fs.readFileSync(rest[0], 'utf8') });
  const cert = await openpgp.readKey({ armoredKey: await readStdin() });
  const out = {};
  for (const user of cert.users.filter((u) => u.userID)) {
    const results = await user.verifyAllCertifications([signer]);
    out[user.userID.userID] = results.some((r) => r.valid && r.keyID.equals(signer.getKeyID()));
  }
  process.stdout.write(JSON.stringify(out));
} else {
  process.stderr.write(`unknown command ${cmd}\n`);
  process.exit(2);
}
