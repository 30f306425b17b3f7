import { BadRequestException, HttpException, Logger, NotFoundException } from '@nestjs/common';
import { AppError } from '@game-wallet/contracts';
import type { FastifyRequest } from 'fastify';
import { toHttpError } from './http-error.filter';

const request = { id: 'req-1', method: 'GET', url: '/v1/nope?x=1' } as FastifyRequest;

describe(toHttpError.name, () => {
  const logger = new Logger('test');
  let errors: jest.SpyInstance;

  beforeEach(() => {
    errors = jest.spyOn(logger, 'error').mockImplementation(() => undefined);
  });

  it('answers an AppError with its SPEC status and exactly {message, code}', () => {
    expect(toHttpError(new AppError('API_KEY_INACTIVE', 'This API key is inactive'), request, logger)).toEqual({
      status: 403,
      body: { message: 'This API key is inactive', code: 'API_KEY_INACTIVE' },
    });
  });

  it('answers an error payload from a service the same way', () => {
    expect(toHttpError({ code: 'GATEWAY_TIMEOUT', message: 'late', status: 504 }, request, logger)).toEqual({
      status: 504,
      body: { message: 'late', code: 'GATEWAY_TIMEOUT' },
    });
  });

  it('names the route of a 404 without its query string', () => {
    expect(toHttpError(new NotFoundException(), request, logger).body).toEqual({ message: 'Route GET /v1/nope not found', code: 'NOT_FOUND' });
  });

  it('never returns an array as message', () => {
    const result = toHttpError(new BadRequestException(['a is wrong', 'b is wrong']), request, logger);
    expect(result.body).toEqual({ message: 'a is wrong; b is wrong', code: 'VALIDATION_FAILED' });
  });

  it.each([
    [408, 'REQUEST_TIMEOUT'],
    [414, 'URI_TOO_LONG'],
    [417, 'EXPECTATION_FAILED'],
    [431, 'HEADERS_TOO_LARGE'],
  ])('gives an error Fastify raised with status %d the code %s', (status, code) => {
    expect(toHttpError(new HttpException('from fastify', status), request, logger)).toEqual({ status, body: { message: 'from fastify', code } });
  });

  it('hides an unexpected error behind a generic 500 and logs it with the request id', () => {
    const result = toHttpError(new Error('duplicate key value violates unique constraint "players_pkey"'), request, logger);
    expect(result).toEqual({ status: 500, body: { message: 'Internal server error', code: 'INTERNAL_ERROR' } });
    expect(errors).toHaveBeenCalledWith(expect.stringContaining('req-1'));
  });

  it('hides the message of a 5xx HttpException', () => {
    expect(toHttpError(new HttpException('pool exhausted at db.internal:5432', 500), request, logger).body).toEqual({
      message: 'Internal server error',
      code: 'INTERNAL_ERROR',
    });
  });
});
