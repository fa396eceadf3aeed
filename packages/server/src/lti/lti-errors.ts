import { MSG } from '@helix/shared';
import { ERROR_CODES } from '@helix/shared/error-codes';
import { errors as joseErrors } from 'jose';
import { AppError } from '../errors.ts';

/** The LTI failures, each a 4xx with a message a teacher or an LMS administrator can act on. */
export const ltiError = {
  loginInvalid: () =>
    new AppError(ERROR_CODES.ltiLoginInvalid, { status: 400, message: MSG.ltiLoginInvalid }),
  launchInvalid: () =>
    new AppError(ERROR_CODES.ltiLaunchInvalid, { status: 400, message: MSG.ltiLaunchInvalid }),
  unknownPlatform: () =>
    new AppError(ERROR_CODES.ltiUnknownPlatform, { status: 400, message: MSG.ltiUnknownPlatform }),
  askClientId: () =>
    new AppError(ERROR_CODES.ltiUnknownPlatform, { status: 400, message: MSG.ltiAskClientId }),
  unknownDeployment: () =>
    new AppError(ERROR_CODES.ltiUnknownDeployment, { status: 403, message: MSG.ltiUnknownDeployment }),
  stateInvalid: () =>
    new AppError(ERROR_CODES.ltiStateInvalid, { status: 400, message: MSG.ltiStateInvalid }),
  tokenInvalid: (cause?: unknown) =>
    new AppError(ERROR_CODES.ltiTokenInvalid, { status: 401, message: MSG.ltiTokenInvalid, cause }),
  tokenExpired: () =>
    new AppError(ERROR_CODES.ltiTokenExpired, { status: 401, message: MSG.ltiTokenExpired }),
  wrongAudience: () =>
    new AppError(ERROR_CODES.ltiWrongAudience, { status: 401, message: MSG.ltiWrongAudience }),
  nonceInvalid: () =>
    new AppError(ERROR_CODES.ltiNonceInvalid, { status: 401, message: MSG.ltiNonceInvalid }),
  keysUnavailable: (cause?: unknown) =>
    new AppError(ERROR_CODES.ltiKeysUnavailable, { status: 400, message: MSG.ltiKeysUnavailable, cause }),
  messageUnsupported: () =>
    new AppError(ERROR_CODES.ltiMessageUnsupported, { status: 400, message: MSG.ltiMessageUnsupported }),
  noModel: () => new AppError(ERROR_CODES.ltiNoModel, { status: 400, message: MSG.ltiNoModel }),
  modelGone: () => new AppError(ERROR_CODES.notFound, { status: 404, message: MSG.ltiModelGone }),
  planInactive: () => new AppError(ERROR_CODES.forbidden, { status: 403, message: MSG.ltiPlanInactive }),
  deepLinkExpired: () =>
    new AppError(ERROR_CODES.ltiDeepLinkExpired, { status: 400, message: MSG.ltiDeepLinkExpired }),
};

/** A failure of jose's verification as the LTI error it means. */
export function ltiVerifyError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof joseErrors.JWTExpired) return ltiError.tokenExpired();
  if (error instanceof joseErrors.JWTClaimValidationFailed) {
    if (error.claim === 'aud') return ltiError.wrongAudience();
    if (error.claim === 'iat' && error.reason === 'check_failed') return ltiError.tokenExpired();
    return ltiError.tokenInvalid(error);
  }
  if (error instanceof joseErrors.JWKSTimeout) return ltiError.keysUnavailable(error);
  if (error instanceof joseErrors.JOSEError) {
    // A key set that could not be read (not a 200, not JSON, not a JWKS): the registration's keyset URL.
    if (error.code === 'ERR_JWKS_INVALID' || error.code === 'ERR_JOSE_GENERIC') {
      return ltiError.keysUnavailable(error);
    }
    return ltiError.tokenInvalid(error);
  }
  // fetch's own failures (refused connection, DNS, a non-2xx answer) while reading the platform's keys.
  return ltiError.keysUnavailable(error);
}
