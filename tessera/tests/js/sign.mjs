// OpenPGP.js peer for tessera's signature interop tests. JSON on stdin, JSON on stdout.
//   node sign.mjs sign    {key, data(base64), text}          -> {detached, inline, clear}
//   node sign.mjs verify  {cert, data, detached, inline, clear} -> {detached, inline, inlineData, clear, clearText}
import * as openpgp from 'openpgp';

async function readStdin() {
  const chunks = [];
  for await (const c of process.stdin) chunks.push(c);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

async function allVerified(sigs) {
  if (sigs.length === 0) return false;
  try {
    for (const s of sigs) await s.verified;
    return true;
  } catch (e) {
    return false;
  }
}

const [cmd] = process.argv.slice(2);
const input = await readStdin();
const data = Buffer.from(input.data, 'base64');
if (cmd === 'sign') {
  const signingKeys = await openpgp.readPrivateKey({ armoredKey: input.key });
  const message = await openpgp.createMessage({ binary: data });
  const detached = await openpgp.sign({ message, signingKeys, detached: true });
  const inline = await openpgp.sign({ message: await openpgp.createMessage({ binary: data }), signingKeys });
  const clearMsg = await openpgp.createCleartextMessage({ text: data.toString('utf8') });
  const clear = await openpgp.sign({ message: clearMsg, signingKeys });
  process.stdout.write(JSON.stringify({ detached, inline, clear }));
} else if (cmd === 'verify') {
  const verificationKeys = await openpgp.readKey({ armoredKey: input.cert });
  const out = {};
  const message = await openpgp.createMessage({ binary: data });
  const signature = await openpgp.readSignature({ armoredSignature: input.detached });
  out.detached = await allVerified((await openpgp.verify({ message, signature, verificationKeys })).signatures);
  const inline = await openpgp.readMessage({ armoredMessage: input.inline });
  const r = await openpgp.verify({ message: inline, verificationKeys, format: 'binary' });
  out.inline = await allVerified(r.signatures);
  out.inlineData = Buffer.from(r.data).toString('base64');
  const clear = await openpgp.readCleartextMessage({ cleartextMessage: input.clear });
  const c = await openpgp.verify({ message: clear, verificationKeys });
  out.clear = await allVerified(c.signatures);
  out.clearText = c.data;
  process.stdout.write(JSON.stringify(out));
} else {
  console.error('usage: sign.mjs sign|verify < json');
  process.exit(2);
}
