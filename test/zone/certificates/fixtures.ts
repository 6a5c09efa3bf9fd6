/** The test certificates of fixtures/certificates/ (made by its make.sh; README there), as text. */

import ecdsaR11Key from "../../../fixtures/certificates/ecdsa-r11-2024.key?raw";
import ecdsaR11 from "../../../fixtures/certificates/ecdsa-r11-2024.pem?raw";
import ecdsaValidKey from "../../../fixtures/certificates/ecdsa-valid.key?raw";
import ecdsaValid from "../../../fixtures/certificates/ecdsa-valid.pem?raw";
import otherZoneKey from "../../../fixtures/certificates/other-zone.key?raw";
import otherZone from "../../../fixtures/certificates/other-zone.pem?raw";
import rsa1024Key from "../../../fixtures/certificates/rsa-1024.key?raw";
import rsa1024 from "../../../fixtures/certificates/rsa-1024.pem?raw";
import rsaExpiredKey from "../../../fixtures/certificates/rsa-expired.key?raw";
import rsaExpired from "../../../fixtures/certificates/rsa-expired.pem?raw";
import rsaR3Key from "../../../fixtures/certificates/rsa-r3-2024.key?raw";
import rsaR3 from "../../../fixtures/certificates/rsa-r3-2024.pem?raw";
import rsaR3Pkcs1Key from "../../../fixtures/certificates/rsa-r3-2024.pkcs1.key?raw";
import rsaR3Chain from "../../../fixtures/certificates/rsa-r3-2024-chain.pem?raw";
import rsaR3WithRoot from "../../../fixtures/certificates/rsa-r3-2024-with-root.pem?raw";

/** Each certificate with its private key. */
export const CERTS = {
	/** RSA leaf from "R3", 2024-08-01 to 2024-10-30, for `*.certs.example`. */
	rsaR3: { certificate: rsaR3, key: rsaR3Key, pkcs1Key: rsaR3Pkcs1Key, chain: rsaR3Chain, withRoot: rsaR3WithRoot },
	/** ECDSA P-256 leaf from "R11", 2024-09-15 to 2024-12-14. */
	ecdsaR11: { certificate: ecdsaR11, key: ecdsaR11Key },
	/** RSA leaf from "R3", 2021-01-01 to 2021-04-01. */
	rsaExpired: { certificate: rsaExpired, key: rsaExpiredKey },
	/** ECDSA leaf from "edgezone Test CA", 2025-01-01 to 2035-01-01. */
	ecdsaValid: { certificate: ecdsaValid, key: ecdsaValidKey },
	/** RSA 1024 leaf from "edgezone Test CA" for `*.certs.example`: a key under Cloudflare's minimum. */
	rsa1024: { certificate: rsa1024, key: rsa1024Key },
	/** RSA leaf for www.elsewhere.example only. */
	otherZone: { certificate: otherZone, key: otherZoneKey },
} as const;
