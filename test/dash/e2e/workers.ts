/**
 * The account's Workers in the browser tests' `wrangler dev`: its `WORKER_SCRIPTS`, written by
 * global-setup.ts. None is bound: the routes API refuses a route to a Worker the account does not
 * have (10019), so the pages' routes name these, and a request one matched would answer 1022.
 */
export const E2E_WORKERS = {
	"my-app": "MY_APP",
	/** Long, for the phone layout (phone.e2e.ts). */
	"storefront-checkout-payment-confirmation-worker": "STOREFRONT",
} as const;
