/** JSON request bodies of the gateway (bulk delete, complete), validated with zod. */
import { z } from "zod";
import { badRequest } from "./errors";

/**
 * A request's JSON body, validated by `schema`.
 * @param shape how the body should look, for the error message.
 * @throws GatewayError 400 when the body is not JSON or not of the schema.
 */
export async function readJsonBody<T>(request: Request, schema: z.ZodType<T>, shape: string): Promise<T> {
	let json: unknown;
	try {
		json = await request.json();
	} catch {
		throw badRequest(`The body must be JSON: ${shape}.`);
	}
	const parsed = schema.safeParse(json);
	if (!parsed.success) throw badRequest(`The body must be ${shape}: ${z.prettifyError(parsed.error)}`);
	return parsed.data;
}
