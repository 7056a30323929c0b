// Support: the bundle to attach to a bug report, made by the core and saved by the browser. It holds
// no token, key, prompt or request content, so any signed-in window may offer it.
import { useState } from 'react';
import { useApi } from '../api/context';
import { Button } from '../ui/Button';
import { Card } from '../ui/Card';
import { download } from '../ui/download';
import { Notice } from '../ui/Notice';

type Status =
  { kind: 'busy' } | { kind: 'done'; filename: string } | { kind: 'error'; text: string };

function bytesOf(base64: string): Uint8Array<ArrayBuffer> {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export function SupportSection() {
  const api = useApi();
  const [status, setStatus] = useState<Status | null>(null);

  const save = async () => {
    setStatus({ kind: 'busy' });
    try {
      const out = await api.call('supportBundle', {});
      download(new Blob([bytesOf(out.contentBase64)], { type: out.mimeType }), out.filename);
      setStatus({ kind: 'done', filename: out.filename });
    } catch (e) {
      setStatus({ kind: 'error', text: `The bundle could not be made: ${(e as Error).message}` });
    }
  };

  return (
    <Card
      id="sv-support"
      title="Support"
      description={
        <>
          A zip to attach to a bug report: the log files, these settings with secrets removed,
          versions, what the last 200 audit entries were (never what was asked) and the audit
          chain&apos;s check.
        </>
      }
      actions={
        <Button onClick={() => void save()} disabled={status?.kind === 'busy'}>
          {status?.kind === 'busy' ? 'Making the bundle…' : 'Save support bundle'}
        </Button>
      }
    >
      {status?.kind === 'done' && (
        <p role="status" data-testid="support-bundle-saved">
          Saved {status.filename}.
        </p>
      )}
      {status?.kind === 'error' && <Notice tone="error">{status.text}</Notice>}
    </Card>
  );
}
