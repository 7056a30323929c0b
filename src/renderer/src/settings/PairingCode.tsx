// A one-time pairing link and its QR code: a phone's camera opens what would be tedious to type.
import { renderSVG } from 'uqr';
import { formatDateTime } from '../history/words';

export interface Code {
  link: string;
  expiresAt: number;
  /** False when the link names this machine only (127.0.0.1): no other device can open it. */
  reachable: boolean;
}

export function PairingCode({ code }: { code: Code }) {
  // The SVG is drawn from the link alone and shown as an image, so no markup of it enters the page.
  const qr = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(renderSVG(code.link, { border: 2 }))}`;
  return (
    <div className="sv-pairing" role="status">
      <p>
        Open on the other device (once, until {formatDateTime(code.expiresAt)}):{' '}
        <a href={code.link} data-testid="pairing-link">
          {code.link}
        </a>
      </p>
      {code.reachable ? (
        <img
          className="sv-qr"
          src={qr}
          alt="QR code of the pairing link"
          data-testid="pairing-qr"
        />
      ) : (
        <p className="sv-reach-note">
          This link names this machine only: another device cannot open it. Serve Gatehouse on your
          network to pair a phone (below).
        </p>
      )}
    </div>
  );
}
