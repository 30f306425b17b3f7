import { AppError } from './app-error';
import { AuditExportRequest } from './identity';

/** A page of a game's audit export: rows after `afterSeq` in chain order, written in [`since`, `until`). */
export interface AuditExportWindow {
  applicationId: string;
  afterSeq: number;
  limit: number;
  since?: Date;
  until?: Date;
}

/** Most rows of one export page. */
export const MAX_EXPORT_PAGE = 1_000;

/** The window of an export request, checked (400 `VALIDATION_FAILED` for what the gateway would not have sent). */
export function auditExportWindow(applicationId: string, request: AuditExportRequest): AuditExportWindow {
  const date = (value: string | undefined, name: string): Date | undefined => {
    if (value === undefined) {return undefined;}
    const parsed = new Date(value);
    if (Number.isNaN(parsed.getTime())) {throw new AppError('VALIDATION_FAILED', `${name}: must be a date and time (ISO 8601)`);}
    return parsed;
  };
  if (!Number.isSafeInteger(request.afterSeq) || request.afterSeq < 0) {throw new AppError('VALIDATION_FAILED', 'afterSeq: must be a whole number from 0');}
  if (!Number.isSafeInteger(request.limit) || request.limit < 1 || request.limit > MAX_EXPORT_PAGE) {throw new AppError('VALIDATION_FAILED', `limit: must be 1–${MAX_EXPORT_PAGE}`);}
  return { applicationId, afterSeq: request.afterSeq, limit: request.limit, since: date(request.since, 'since'), until: date(request.until, 'until') };
}
