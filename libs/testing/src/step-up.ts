import { HttpResult, http } from './http';
import { TEST_OPERATOR, TestPlatform } from './platform';

/** Gives the test operator's password again on the session (their step-up while they have no second factor). */
export async function stepUp(platform: TestPlatform, token: string, password = TEST_OPERATOR.password): Promise<void> {
  const response = await http('POST', `${platform.baseUrl}/v1/console/session/step-up`, { bearer: token, body: { password } });
  if (response.status !== 200) {
    throw new Error(`step-up failed: ${response.status} ${JSON.stringify(response.body)}`);
  }
}

/**
 * A console call that needs a fresh second factor (creating an API key, changing the policy): when it answers 401
 * `STEP_UP_REQUIRED` (a suite running longer than 5 minutes after its sign-in), steps up with the password and asks
 * once more.
 */
export async function steppedUpCall<T>(platform: TestPlatform, token: string, method: string, url: string, body?: unknown, headers?: Record<string, string>): Promise<HttpResult<T>> {
  const response = await http<T>(method, url, { bearer: token, body, headers });
  if (response.status !== 401 || (response.body as { code?: unknown } | undefined)?.code !== 'STEP_UP_REQUIRED') {
    return response;
  }
  await stepUp(platform, token);
  return http<T>(method, url, { bearer: token, body, headers });
}
