import './TokenRejected.css';

/**
 * The core refuses this page's token (Gatehouse restarted with another one, or it was rotated), or
 * the address carried none. Retrying cannot help; the new address can, and this says where it is.
 * Nothing of the views is shown meanwhile, so no empty answer passes for "nothing is configured".
 */
export function TokenRejected({ reason }: { reason: 'refused' | 'missing' }) {
  return (
    <main className="gh-token-rejected" role="alert" aria-labelledby="gh-token-title">
      <h1 id="gh-token-title">
        {reason === 'refused'
          ? 'This address’s access token is no longer accepted'
          : 'This address carries no access token'}
      </h1>
      <p>
        {reason === 'refused'
          ? 'Gatehouse was restarted with a new token, or its token was rotated. Nothing here is current, and nothing can be decided from this page until you open the new address.'
          : 'Gatehouse answers only pages opened from the address it printed, which carries the token.'}
      </p>
      <p>On the machine where Gatehouse runs, print the current address:</p>
      <pre>
        <code>gatehouse status --url</code>
      </pre>
      <p>
        and open it in this browser (from a checkout:{' '}
        <code>node bin/gatehouse.mjs status --url</code>
        ). A browser paired before stays paired; only the address changes.
      </p>
    </main>
  );
}
