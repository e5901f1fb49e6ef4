// A certificate authority made by the test, as a company's private CA would be: its certificate in
// a file for NODE_EXTRA_CA_CERTS, and server certificates it signs (valid, expired, for other
// names). `selfsigned` generates them with Node's own crypto: no system tool, nothing downloaded.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from 'selfsigned';

export interface ServerCertificate {
  cert: string;
  key: string;
}

export interface CertificateRequest {
  /** DNS names the certificate covers (default: localhost). */
  dnsNames?: string[];
  /** IP addresses it covers (default: 127.0.0.1). */
  ips?: string[];
  notBefore?: Date;
  notAfter?: Date;
}

export interface PrivateCa {
  /** The CA certificate, PEM. */
  cert: string;
  /** A file holding it, for NODE_EXTRA_CA_CERTS. */
  file: string;
  issue(request?: CertificateRequest): Promise<ServerCertificate>;
  /** Removes the file. */
  remove(): void;
}

const DAY_MS = 86_400_000;

export async function createPrivateCa(name = 'Contract Suite Test CA'): Promise<PrivateCa> {
  const ca = await generate([{ name: 'commonName', value: name }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    ],
  });
  const dir = mkdtempSync(join(tmpdir(), 'private-ca-'));
  const file = join(dir, 'ca.pem');
  writeFileSync(file, ca.cert);
  return {
    cert: ca.cert,
    file,
    async issue({
      dnsNames = ['localhost'],
      ips = ['127.0.0.1'],
      notBefore = new Date(Date.now() - DAY_MS),
      notAfter = new Date(Date.now() + 30 * DAY_MS),
    } = {}) {
      const pems = await generate([{ name: 'commonName', value: dnsNames[0] ?? ips[0] ?? 'server' }], {
        keyType: 'ec',
        algorithm: 'sha256',
        notBeforeDate: notBefore,
        notAfterDate: notAfter,
        ca: { key: ca.private, cert: ca.cert },
        extensions: [
          { name: 'basicConstraints', cA: false },
          { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
          { name: 'extKeyUsage', serverAuth: true },
          {
            name: 'subjectAltName',
            altNames: [
              ...dnsNames.map((value) => ({ type: 2 as const, value })),
              ...ips.map((ip) => ({ type: 7 as const, ip })),
            ],
          },
        ],
      });
      return { cert: pems.cert, key: pems.private };
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A certificate that expired yesterday. */
export const EXPIRED: CertificateRequest = {
  notBefore: new Date(Date.now() - 30 * DAY_MS),
  notAfter: new Date(Date.now() - DAY_MS),
};
