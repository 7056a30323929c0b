import { Buffer } from 'node:buffer';
import { describeVerdict } from '../store/audit-check';
import { databasePath } from '../store/data-folder';
import { bundleName, bundleZip } from '../support/bundle';
import type { Handlers } from './dispatch';
import type { CommandServices } from './services';

type Services = Pick<CommandServices, 'home' | 'store' | 'now'>;

/** The support bundle made by the running core: its chain verdict uses the key the core holds. */
export async function makeSupportBundle({ home, store, now }: Services) {
  await store.flush();
  const verdict = await store.verifyChain();
  const zip = bundleZip({
    home,
    env: process.env,
    auditVerify: () => describeVerdict(verdict, databasePath(home)),
  });
  return { filename: bundleName(new Date(now())), zip };
}

export function supportHandlers(services: Services): Pick<Handlers, 'supportBundle'> {
  return {
    supportBundle: async () => {
      const { filename, zip } = await makeSupportBundle(services);
      return {
        filename,
        mimeType: 'application/zip' as const,
        contentBase64: Buffer.from(zip).toString('base64'),
      };
    },
  };
}
