/**
 * The page frame every dashboard page renders in: a top bar (product, zone, sign-out), the
 * zone's navigation grouped as Cloudflare's dashboard groups it, and the page's `main`.
 * The navigation is a sidebar on a wide screen and, on a phone's (dash.css, `max-width: 720px`),
 * a Menu disclosure above the page: a `<details>` opens without scripts, and a closed one cannot be
 * shown by CSS alone in every browser, hence the navigation twice, one of them always `display: none`
 * (so out of the accessibility tree too).
 * A new page is one entry of ZONE_PAGES and one `dash.route(...)` line in `app.tsx`.
 */
import type { Child, FC } from "hono/jsx";
import { Csrf } from "./components/form";

/** A page of a zone: its path under `/zones/{zone_id}/`, its label and its navigation group. */
interface ZonePage {
	path: string;
	label: string;
	group: string;
}

/** The zone's pages, in navigation order. */
const ZONE_PAGES: ZonePage[] = [
	{ path: "logpush", label: "Logpush", group: "Analytics & Logs" },
	{ path: "dns", label: "Records", group: "DNS" },
	{ path: "security", label: "Security rules", group: "Security" },
	{ path: "rules", label: "Overview", group: "Rules" },
	{ path: "rules-settings", label: "Settings", group: "Rules" },
	{ path: "ssl", label: "Edge Certificates", group: "SSL/TLS" },
	{ path: "network", label: "Network", group: "Network" },
	{ path: "bucket", label: "Bucket", group: "R2 Object Storage" },
	{ path: "bucket-domains", label: "Public access", group: "R2 Object Storage" },
	{ path: "workers-routes", label: "Workers Routes", group: "Workers Routes" },
];

/** What the frame shows of the signed-in person and the zone in view. */
export interface Frame {
	title: string;
	/** The CSRF token of the session: present when signed in (then the sign-out button shows). */
	csrf?: string;
	/** The zone in view, and which of its pages is current. */
	zone?: { id: string; name: string; page?: string };
	/** The page's own scripts (`/assets/<page>.js`), loaded after the shared one. */
	scripts?: string[];
	children?: Child;
}

/** The whole HTML document around a page's content. */
export const Layout: FC<Frame> = ({ title, csrf, zone, scripts, children }) => (
	<html lang="en">
		<head>
			<meta charset="utf-8" />
			<meta name="viewport" content="width=device-width, initial-scale=1" />
			<title>{zone ? `${title} · ${zone.name} · edgezone` : `${title} · edgezone`}</title>
			<link rel="stylesheet" href="/assets/dash.css" />
			{/* No favicon: without this line the browser asks for /favicon.ico on every page. */}
			<link rel="icon" href="data:," />
			<script src="/assets/dash.js" defer />
			{scripts?.map((src) => (
				<script src={src} defer />
			))}
		</head>
		<body>
			<a class="skip" href="#main">
				Skip to content
			</a>
			<header class="top">
				<a class="brand" href="/">
					edgezone
				</a>
				{zone && <span class="zone">{zone.name}</span>}
				{csrf !== undefined && (
					<form method="post" action="/sign-out">
						<Csrf token={csrf} />
						<button type="submit" class="secondary">
							Sign out
						</button>
					</form>
				)}
			</header>
			{zone ? (
				<div class="frame">
					<details class="menu">
						<summary>Menu</summary>
						<ZoneNav zone={zone} />
					</details>
					<ZoneNav zone={zone} />
					<main id="main">{children}</main>
				</div>
			) : (
				<main id="main" class={csrf === undefined ? "narrow" : undefined}>
					{children}
				</main>
			)}
		</body>
	</html>
);

const ZoneNav: FC<{ zone: NonNullable<Frame["zone"]> }> = ({ zone }) => {
	const groups = [...new Set(ZONE_PAGES.map((p) => p.group))];
	return (
		<nav class="side" aria-label="Zone">
			<a href="/">All zones</a>
			{groups.map((group) => (
				<>
					<h2>{group}</h2>
					<ul>
						{ZONE_PAGES.filter((p) => p.group === group).map((p) => (
							<li>
								<a href={`/zones/${zone.id}/${p.path}`} aria-current={p.path === zone.page ? "page" : undefined}>
									{p.label}
								</a>
							</li>
						))}
					</ul>
				</>
			))}
		</nav>
	);
};
