/** 'Powered by' the payment provider's mark (accounts 2): Stripe's word mark, inline so it works offline. */
export function PoweredBy() {
  return (
    <p className="powered-by">
      <span>Powered by</span>
      <svg role="img" aria-label="Stripe" viewBox="0 0 60 25" width="48" height="20">
        <text
          x="0"
          y="19"
          fontFamily="Helvetica, Arial, sans-serif"
          fontSize="20"
          fontWeight="700"
          fill="#635bff"
        >
          stripe
        </text>
      </svg>
    </p>
  );
}
